package org.hupf.standalone;

import org.hupf.api.Association;
import org.hupf.app.core.SessionManager;
import org.hupf.app.core.SessionManagerService;
import org.hupf.app.pfcp.PfcpAgent;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The standalone host's {@code HupfService}: the session core plus its PFCP agent (peers, downlink data
 * reports, PFCP counters as {@code pfcp.*} in the stats, as in ONOS).
 */
final class StandaloneService extends SessionManagerService {

    private final PfcpAgent agent;

    StandaloneService(SessionManager manager, List<Ip4Prefix> uePools, PfcpAgent agent) {
        super(manager, uePools);
        this.agent = agent;
    }

    @Override
    public boolean downlinkData(Ip4Address ue) {
        return agent.notifyDownlinkData(ue);
    }

    @Override
    public Collection<Association> pfcpPeers() {
        return agent.associations();
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> out = new TreeMap<>(manager().stats());
        agent.stats().snapshot().forEach((k, v) -> out.put("pfcp." + k, v));
        out.put("pfcp.associations", (long) agent.associations().size());
        return out;
    }
}
