package org.hupf.core.offload;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes back what a previous offload manager left on the switch (the hupf leader changed, or devices came
 * and went), before a new manager starts: the sessions go back to the backend, which always holds them, and
 * what the switch counted for them since their last fold joins their records, so no usage is lost. Session
 * entries are deleted first (packets fall back to steering at once, nothing more is counted on the switch),
 * then the counters are read, then the rest of the sessions' switch entries go.
 */
public final class SwitchReclaim {

    private static final List<UpfEntityType> SESSION_ENTRIES = List.of(
            UpfEntityType.SESSION_UPLINK, UpfEntityType.SESSION_DOWNLINK);
    private static final List<UpfEntityType> WHAT_SESSIONS_LEAD_TO = List.of(
            UpfEntityType.TERMINATION_UPLINK, UpfEntityType.TERMINATION_DOWNLINK, UpfEntityType.TUNNEL_PEER,
            UpfEntityType.PEER_VXLAN);

    private SwitchReclaim() {
    }

    /**
     * Reclaims the switch.
     *
     * @param store   offload records (the previous manager's)
     * @param hw      the switch
     * @return the UEs whose sessions were on the switch
     * @throws UpfProgrammableException if the switch cannot be read or cleared (records not yet folded stay
     *                                  as they were, to be reclaimed by the next attempt)
     */
    public static List<Ip4Address> reclaim(OffloadStore store, HupfUpfDevice hw) throws UpfProgrammableException {
        for (UpfEntityType t : SESSION_ENTRIES) {
            hw.deleteAll(t);
        }
        List<Ip4Address> reclaimed = new ArrayList<>();
        for (Map.Entry<Ip4Address, OffloadRecord> r : store.all().entrySet()) {
            if (r.getValue().onSwitch()) {
                Map<Integer, long[]> now = new HashMap<>();
                for (int cell : r.getValue().switchCells().values()) {
                    now.put(cell, SwitchCounts.values(hw.readCounter(cell)));
                }
                store.put(r.getKey(), r.getValue().reclaimed(now));
                reclaimed.add(r.getKey());
            }
        }
        for (UpfEntityType t : WHAT_SESSIONS_LEAD_TO) {
            hw.deleteAll(t);
        }
        return reclaimed;
    }
}
