package org.hupf.app.core;

import org.hupf.api.Association;
import org.hupf.api.HupfService;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link HupfService} straight over a session manager, without ONOS and without a PFCP agent (no
 * peers, no downlink data reports): the service the REST and CLI tests call.
 */
public final class SessionManagerService implements HupfService {

    private final SessionManager manager;
    private final List<Ip4Prefix> uePools;

    /**
     * Creates the service.
     *
     * @param manager session manager
     * @param uePools UE pools to report
     */
    public SessionManagerService(SessionManager manager, List<Ip4Prefix> uePools) {
        this.manager = manager;
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
        return manager.replaceRules(edited);
    }

    @Override
    public boolean deleteSession(long upSeid) {
        try {
            return manager.delete(upSeid) != null;
        } catch (RuleException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public Map<Integer, UpfCounter> sessionCounters(long upSeid) {
        return manager.sessionCounters(upSeid);
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
        return false;
    }

    @Override
    public List<Ip4Prefix> uePools() {
        return uePools;
    }

    @Override
    public Collection<Association> pfcpPeers() {
        return List.of();
    }

    @Override
    public Map<String, Long> stats() {
        return manager.stats();
    }

    @Override
    public int reconcile() {
        return manager.reconcile();
    }
}
