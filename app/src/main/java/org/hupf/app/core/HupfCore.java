package org.hupf.app.core;

import org.hupf.api.Association;
import org.hupf.api.HupfService;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.app.pfcp.PfcpAgent;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link HupfService} over a session manager and a PFCP agent: shared by the ONOS component and the
 * standalone runner.
 */
public final class HupfCore implements HupfService {

    private final SessionManager manager;
    private final PfcpAgent agent;
    private final List<Ip4Prefix> uePools;

    /**
     * Creates the service.
     *
     * @param manager session manager
     * @param agent   PFCP agent, or null when PFCP is off
     * @param uePools configured UE pools
     */
    public HupfCore(SessionManager manager, PfcpAgent agent, List<Ip4Prefix> uePools) {
        this.manager = manager;
        this.agent = agent;
        this.uePools = List.copyOf(uePools);
    }

    @Override
    public Collection<PfcpSession> sessions() {
        return manager.store().all();
    }

    @Override
    public PfcpSession session(long upSeid) {
        return manager.store().get(upSeid);
    }

    @Override
    public PfcpSession createSession(PfcpSession draft) throws RuleException {
        return manager.establish(draft);
    }

    @Override
    public PfcpSession modifySession(PfcpSession edited) throws RuleException {
        PfcpSession old = manager.store().get(edited.upSeid);
        if (old == null) {
            return manager.modify(edited);
        }
        // Keep the allocations: a client never sets them, and the manager frees what is no longer used.
        return manager.modify(edited.with(edited.pdrs, edited.fars, edited.qers, edited.urrs, old.allocations));
    }

    @Override
    public boolean deleteSession(long upSeid) {
        return manager.delete(upSeid) != null;
    }

    @Override
    public Map<Integer, UpfCounter> sessionCounters(long upSeid) {
        Map<Integer, UpfCounter> out = new TreeMap<>();
        PfcpSession s = manager.store().get(upSeid);
        if (s != null) {
            for (Pdr p : s.pdrs.values()) {
                Integer cell = s.allocations.get("ctr:" + p.pdrId);
                if (cell != null) {
                    out.put(p.pdrId, manager.readCounter(cell));
                }
            }
        }
        return out;
    }

    @Override
    public UpfCounter counter(int cellId) {
        return manager.readCounter(cellId);
    }

    @Override
    public Set<UpfEntity> entities(long upSeid) {
        return manager.entities(upSeid);
    }

    @Override
    public boolean downlinkData(Ip4Address ue) {
        return agent != null && agent.notifyDownlinkData(ue);
    }

    @Override
    public List<Ip4Prefix> uePools() {
        return uePools;
    }

    @Override
    public Collection<Association> pfcpPeers() {
        return agent == null ? List.of() : agent.associations();
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> out = new TreeMap<>();
        if (agent != null) {
            agent.stats().snapshot().forEach((k, v) -> out.put("pfcp." + k, v));
            out.put("pfcp.associations", (long) agent.associations().size());
        }
        out.put("sessions", (long) manager.store().all().size());
        out.put("entities", (long) manager.entityCount());
        out.put("deviceErrors", manager.deviceErrors());
        return out;
    }

    @Override
    public int reconcile() {
        return manager.reconcile();
    }
}
