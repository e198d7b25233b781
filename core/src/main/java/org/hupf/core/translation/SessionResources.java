package org.hupf.core.translation;

import org.hupf.api.session.AppFilter;
import org.hupf.api.session.RuleException;
import org.onlab.packet.Ip4Address;

/**
 * Device indices a translated session needs. Implementations allocate on first use and remember the
 * answer in the session, so translating the same session twice yields the same entities.
 */
public interface SessionResources {

    /**
     * Returns the counter cell of a PDR (pre- and post-QoS counters share the index).
     *
     * @param pdrId PDR id
     * @return counter index
     * @throws RuleException if no cell is free
     */
    int counter(int pdrId) throws RuleException;

    /**
     * Returns the meter cell of a QER in one direction.
     *
     * @param qerId   QER id
     * @param uplink  direction
     * @param session true for the session meter array, false for the application one
     * @return meter index
     * @throws RuleException if no cell is free
     */
    int meter(long qerId, boolean uplink, boolean session) throws RuleException;

    /**
     * Returns the application id of a filter, shared by every session that uses the same filter.
     *
     * @param filter    filter (never the wildcard)
     * @param precedence precedence of the PDR (part of the identity: it sets the entry's priority)
     * @return application id in [1, 255]
     * @throws RuleException if all ids are taken
     */
    int appId(AppFilter filter, long precedence) throws RuleException;

    /**
     * Returns the tunnel peer id of a gNB address, shared by every session towards it. A gNB is bound to the
     * tenant of the sessions towards it, or to none, until its last session goes.
     *
     * @param peer   gNB address
     * @param tenant network instance of the tenant the session is bound to, null for none
     * @return tunnel peer id in [1, 255]
     * @throws RuleException 73 (Rule creation/modification failure) if other sessions bound the gNB to
     *                       another tenant or to none; 75 if all ids are taken
     */
    int tunnelPeer(Ip4Address peer, String tenant) throws RuleException;
}
