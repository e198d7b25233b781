package org.hupf.pipeconf.upf;

import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Writes the traffic classes' egress queues ({@code qos.queues}).
 */
final class QueueWriter {

    private final DataplaneTables tables;
    private final PiCodec codec;

    QueueWriter(DataplaneTables tables) {
        this.tables = tables;
        this.codec = tables.codec();
    }

    /**
     * Makes {@code qos.queues} map these traffic classes to these queues (v1model {@code priority}: bmv2's
     * priority queue, the backend's egress queue on a port with a rate), make before break; a class left out
     * takes the table's default, queue 0.
     *
     * @param queueByTc queue (0..7) by traffic class (0..3)
     * @return entries written plus deleted (0: the device already held exactly these)
     * @throws PiCodecException if a class or queue does not fit the P4Info's widths
     * @throws PiTargetException if the device refuses an entry
     */
    int setQueues(Map<Integer, Integer> queueByTc) throws PiCodecException, PiTargetException {
        PiTableId t = HUPF_INGRESS_QOS_QUEUES;
        tables.requireFits(t, queueByTc.size());
        List<PiTableEntry> entries = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : queueByTc.entrySet()) {
            entries.add(PiTableEntry.builder().forTable(t)
                                .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiExactFieldMatch(
                                        HDR_TC, codec.field(t, HDR_TC, e.getKey()))).build())
                                .withAction(codec.action(HUPF_INGRESS_QOS_SET_QUEUE, QID, e.getValue())).build());
        }
        return tables.replace(List.of(t), entries);
    }
}
