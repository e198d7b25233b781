package org.hupf.api.session;

import com.google.common.base.MoreObjects;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A PFCP session (TS 29.244 §5.2): its rules, the CP function that owns it, and the device resources
 * (counter cells, meter cells, application and tunnel peer ids) allocated to it. Immutable.
 */
public final class PfcpSession {

    /** Local (UP function) SEID: the key of the session everywhere in hupf. */
    public final long upSeid;
    public final long cpSeid;
    public final String cpAddress;
    /** Node ID of the CP function (its association). */
    public final String nodeId;
    public final Map<Integer, Pdr> pdrs;
    public final Map<Long, Far> fars;
    public final Map<Long, Qer> qers;
    public final Map<Long, Urr> urrs;
    /** Resource key (see the session translator's resources) to allocated index. */
    public final Map<String, Integer> allocations;

    public PfcpSession(long upSeid, long cpSeid, String cpAddress, String nodeId, Map<Integer, Pdr> pdrs,
                       Map<Long, Far> fars, Map<Long, Qer> qers, Map<Long, Urr> urrs,
                       Map<String, Integer> allocations) {
        this.upSeid = upSeid;
        this.cpSeid = cpSeid;
        // Interned: a million sessions share a few CP functions' addresses and node IDs.
        this.cpAddress = cpAddress == null ? null : cpAddress.intern();
        this.nodeId = nodeId == null ? null : nodeId.intern();
        this.pdrs = RuleMap.copyOf(pdrs);
        this.fars = RuleMap.copyOf(fars);
        this.qers = RuleMap.copyOf(qers);
        this.urrs = RuleMap.copyOf(urrs);
        this.allocations = Allocations.copyOf(allocations);
    }

    /**
     * Returns a copy with other rules and allocations.
     *
     * @param newPdrs        PDRs
     * @param newFars        FARs
     * @param newQers        QERs
     * @param newUrrs        URRs
     * @param newAllocations allocations
     * @return session
     */
    public PfcpSession with(Map<Integer, Pdr> newPdrs, Map<Long, Far> newFars, Map<Long, Qer> newQers,
                            Map<Long, Urr> newUrrs, Map<String, Integer> newAllocations) {
        return new PfcpSession(upSeid, cpSeid, cpAddress, nodeId, newPdrs, newFars, newQers, newUrrs,
                               newAllocations);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PfcpSession)) {
            return false;
        }
        PfcpSession s = (PfcpSession) o;
        return upSeid == s.upSeid && cpSeid == s.cpSeid && Objects.equals(cpAddress, s.cpAddress)
                && Objects.equals(nodeId, s.nodeId) && pdrs.equals(s.pdrs) && fars.equals(s.fars)
                && qers.equals(s.qers) && urrs.equals(s.urrs) && allocations.equals(s.allocations);
    }

    @Override
    public int hashCode() {
        return Objects.hash(upSeid, cpSeid, cpAddress, nodeId, pdrs, fars, qers, urrs, allocations);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("PfcpSession").add("upSeid", upSeid).add("cpSeid", cpSeid)
                .add("cp", cpAddress).add("node", nodeId).add("pdrs", new TreeMap<>(pdrs).values())
                .add("fars", new TreeMap<>(fars).values()).add("qers", new TreeMap<>(qers).values())
                .add("urrs", new TreeMap<>(urrs).values()).toString();
    }
}
