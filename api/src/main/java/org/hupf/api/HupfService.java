package org.hupf.api;

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
import java.util.function.Function;

/**
 * What hupf offers REST, the CLI and other apps: sessions (the same ones PFCP creates), counters,
 * UE pools, PFCP peers and health.
 */
public interface HupfService {

    /** @return every session */
    Collection<PfcpSession> sessions();

    /**
     * Returns a session.
     *
     * @param upSeid local SEID
     * @return session or null
     */
    PfcpSession session(long upSeid);

    /**
     * Creates a session as a PFCP establishment would (its upSeid is allocated here).
     *
     * @param draft rules and CP identity
     * @return the stored session
     * @throws RuleException with the PFCP cause if it cannot be installed
     */
    PfcpSession createSession(PfcpSession draft) throws RuleException;

    /**
     * Replaces a session's rules.
     *
     * @param edited session with its upSeid
     * @return the stored session
     * @throws RuleException with the PFCP cause (65 if unknown)
     */
    PfcpSession modifySession(PfcpSession edited) throws RuleException;

    /**
     * Deletes a session.
     *
     * @param upSeid local SEID
     * @return false if unknown
     */
    boolean deleteSession(long upSeid);

    /**
     * Returns the counters of a session's PDRs, summed over devices.
     *
     * @param upSeid local SEID
     * @return PDR id to counter; empty if the session is unknown
     */
    Map<Integer, UpfCounter> sessionCounters(long upSeid);

    /**
     * Returns one counter cell summed over devices.
     *
     * @param cellId counter index
     * @return counter
     */
    UpfCounter counter(int cellId);

    /**
     * Returns the entities a session needs.
     *
     * @param upSeid local SEID
     * @return entities
     */
    Set<UpfEntity> entities(long upSeid);

    /**
     * Reports that downlink data for a UE is being buffered (a DOWNLINK_BUFFER packet-in or the backend's
     * notice): the CP function of a buffering, notifying FAR gets one Downlink Data Report per episode.
     *
     * @param ue UE address
     * @return true if a report was sent
     */
    boolean downlinkData(Ip4Address ue);

    /** @return the configured UE pools */
    List<Ip4Prefix> uePools();

    /** @return PFCP associations */
    Collection<Association> pfcpPeers();

    /** @return health and activity counters (sessions, entities, device errors, PFCP messages) */
    Map<String, Long> stats();

    /**
     * Returns the VXLAN tenants of the host's configuration: each entry with the sessions bound to it and its
     * counter on every device.
     *
     * @return tenants in configuration order; none where the host has no tenant configuration
     */
    List<TenantStatus> tenants();

    /**
     * Returns the UPF sites of the host's configuration, each with the sessions placed there.
     *
     * @return sites in configuration order; none where the configuration names no sites (one implicit site)
     */
    List<SiteStatus> sites();

    /**
     * Returns the site that serves a session.
     *
     * @param s session
     * @return its site's name; null where the configuration names no sites, or no site serves it since the
     *         configuration changed
     */
    String siteOf(PfcpSession s);

    /**
     * Returns {@link #siteOf} for many sessions at once (a listing, a filter by site): the configuration read once,
     * each stored session's site kept beside it once worked out.
     *
     * @return a session's site's name, null as for {@link #siteOf}
     */
    Function<PfcpSession, String> siteLookup();

    /**
     * Reconciles every device with the store now.
     *
     * @return device operations performed
     */
    int reconcile();
}
