package org.hupf.core.impl;

import org.hupf.api.Association;
import org.hupf.api.HupfService;
import org.hupf.api.SiteStatus;
import org.hupf.api.TenantStatus;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.session.SessionManager;
import org.hupf.core.pfcp.PfcpAgent;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.site.SiteIndex;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.dataplane.Tenant;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@link HupfService} over a session manager and, where the host runs one, its PFCP agent (peers, downlink
 * data reports, PFCP counters as {@code pfcp.*} in the stats): the one implementation both hosts use. The
 * standalone host and the tests construct it; ONOS's {@code HupfManager} extends it and supplies the
 * manager and agent of the node that leads (they change with leadership and netcfg).
 */
public class SessionManagerService implements HupfService {

    private final SessionManager manager;
    private final List<Ip4Prefix> uePools;
    private final PfcpAgent agent;
    private final List<Tenant> tenantEntries;
    private final Map<String, SessionTenant> bindable;

    /**
     * Creates the service without a PFCP agent (no peers, no downlink data reports).
     *
     * @param manager session manager
     * @param uePools UE pools to report
     */
    public SessionManagerService(SessionManager manager, List<Ip4Prefix> uePools) {
        this(manager, uePools, null);
    }

    /**
     * Creates the service.
     *
     * @param manager session manager
     * @param uePools UE pools to report
     * @param agent   the host's PFCP agent, or null
     */
    public SessionManagerService(SessionManager manager, List<Ip4Prefix> uePools, PfcpAgent agent) {
        this(manager, uePools, agent, List.of(), Map.of());
    }

    /**
     * Creates the service of a host with VXLAN tenants but no device that counts them (the standalone host's
     * in-memory device).
     *
     * @param manager       session manager
     * @param uePools       UE pools to report
     * @param agent         the host's PFCP agent, or null
     * @param tenantEntries the host's tenant entries
     * @param bindable      the tenants sessions are bound to, by network instance (the manager's translator's)
     */
    public SessionManagerService(SessionManager manager, List<Ip4Prefix> uePools, PfcpAgent agent,
                                 List<Tenant> tenantEntries, Map<String, SessionTenant> bindable) {
        this.manager = manager;
        this.uePools = List.copyOf(uePools);
        this.agent = agent;
        this.tenantEntries = List.copyOf(tenantEntries);
        this.bindable = Map.copyOf(bindable);
    }

    /**
     * The session manager this service runs on.
     *
     * @return session manager
     * @throws IllegalStateException where the host runs none (ONOS: a node that does not lead)
     */
    protected SessionManager manager() {
        return manager;
    }

    /** @return the store sessions are read from (every ONOS node reads the distributed one) */
    protected SessionStore store() {
        return manager().store();
    }

    /** @return the PFCP agent, or null where the host runs none */
    protected PfcpAgent agent() {
        return agent;
    }

    @Override
    public Collection<PfcpSession> sessions() {
        return store().all();
    }

    @Override
    public PfcpSession session(long upSeid) {
        return store().get(upSeid);
    }

    @Override
    public PfcpSession createSession(PfcpSession draft) throws RuleException {
        return manager().establish(draft);
    }

    @Override
    public PfcpSession modifySession(PfcpSession edited) throws RuleException {
        return manager().replaceRules(edited);
    }

    @Override
    public boolean deleteSession(long upSeid) {
        try {
            return manager().delete(upSeid) != null;
        } catch (RuleException e) {
            // The session stays: a device refused its removal.
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public Map<Integer, UpfCounter> sessionCounters(long upSeid) {
        return manager().sessionCounters(upSeid);
    }

    @Override
    public UpfCounter counter(int cellId) {
        return manager().readCounter(cellId);
    }

    @Override
    public Set<UpfEntity> entities(long upSeid) {
        return manager().entities(upSeid);
    }

    @Override
    public boolean downlinkData(Ip4Address ue) {
        manager();
        PfcpAgent a = agent();
        return a != null && a.notifyDownlinkData(ue);
    }

    @Override
    public List<Ip4Prefix> uePools() {
        return uePools;
    }

    @Override
    public Collection<Association> pfcpPeers() {
        PfcpAgent a = agent();
        return a == null ? List.of() : a.associations();
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> out = new TreeMap<>(manager().stats());
        PfcpAgent a = agent();
        if (a != null) {
            a.stats().snapshot().forEach((k, v) -> out.put("pfcp." + k, v));
            out.put("pfcp.associations", (long) a.associations().size());
        }
        return out;
    }

    @Override
    public int reconcile() {
        return manager().reconcile();
    }

    /**
     * The sites sessions are placed at (the netcfg's {@code sites}) with each stored session's site; a host without
     * them has one implicit site.
     *
     * @return the sites' index, or null
     */
    protected SiteIndex siteIndex() {
        return null;
    }

    @Override
    public List<SiteStatus> sites() {
        SiteIndex i = siteIndex();
        return i == null ? List.of() : i.status(store().all());
    }

    @Override
    public String siteOf(PfcpSession s) {
        return siteLookup().apply(s);
    }

    @Override
    public Function<PfcpSession, String> siteLookup() {
        SiteIndex i = siteIndex();
        return i == null ? s -> null : i::siteOf;
    }

    /** The host's tenants with their bound sessions; this host's devices count none (ONOS's HupfManager reads them). */
    @Override
    public List<TenantStatus> tenants() {
        return TenantReport.of(tenantEntries, bindable, store().all(), Map.of(), Map.of(), Map.of());
    }
}
