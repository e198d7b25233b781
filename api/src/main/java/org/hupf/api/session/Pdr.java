package org.hupf.api.session;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Objects;

/**
 * A Packet Detection Rule (TS 29.244 §5.2.1, Create PDR §7.5.2.2). Immutable; null fields are absent IEs.
 */
public final class Pdr {

    /** Source Interface values (§8.2.2). */
    public static final int ACCESS = 0;
    public static final int CORE = 1;
    public static final int SGI_LAN = 2;
    public static final int CP_FUNCTION = 3;

    public final int pdrId;
    public final long precedence;
    public final int sourceInterface;
    /** Local F-TEID: set by the SMF, or by hupf when the SMF asked CHOOSE. */
    public final Long teid;
    public final Ip4Address tunnelAddress;
    /** CHOOSE was asked; PDRs with the same CHOOSE ID share one F-TEID. */
    public final boolean choose;
    public final Integer chooseId;
    public final Ip4Address ueAddress;
    public final List<String> sdfFilters;
    public final Integer qfi;
    public final Integer outerHeaderRemoval;
    public final String networkInstance;
    public final Long farId;
    public final List<Long> qerIds;
    public final List<Long> urrIds;

    @SuppressWarnings("checkstyle:ParameterNumber")
    public Pdr(int pdrId, long precedence, int sourceInterface, Long teid, Ip4Address tunnelAddress,
               boolean choose, Integer chooseId, Ip4Address ueAddress, List<String> sdfFilters, Integer qfi,
               Integer outerHeaderRemoval, String networkInstance, Long farId, List<Long> qerIds,
               List<Long> urrIds) {
        this.pdrId = pdrId;
        this.precedence = precedence;
        this.sourceInterface = sourceInterface;
        this.teid = teid;
        this.tunnelAddress = SharedAddresses.of(tunnelAddress);
        this.choose = choose;
        this.chooseId = chooseId;
        this.ueAddress = SharedAddresses.of(ueAddress);
        this.sdfFilters = List.copyOf(sdfFilters);
        this.qfi = qfi;
        this.outerHeaderRemoval = outerHeaderRemoval;
        // Interned: every session's PDRs name the same few networks.
        this.networkInstance = networkInstance == null ? null : networkInstance.intern();
        this.farId = farId;
        this.qerIds = SharedIdLists.of(qerIds);
        this.urrIds = SharedIdLists.of(urrIds);
    }

    /** @return true for uplink (from the RAN) PDRs */
    public boolean isUplink() {
        return sourceInterface == ACCESS;
    }

    /**
     * Returns this PDR with a local F-TEID assigned (CHOOSE answered).
     *
     * @param newTeid TEID
     * @param addr    N3 address
     * @return PDR
     */
    public Pdr withFteid(long newTeid, Ip4Address addr) {
        return new Pdr(pdrId, precedence, sourceInterface, newTeid, addr, choose, chooseId, ueAddress, sdfFilters,
                       qfi, outerHeaderRemoval, networkInstance, farId, qerIds, urrIds);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Pdr)) {
            return false;
        }
        Pdr p = (Pdr) o;
        return pdrId == p.pdrId && precedence == p.precedence && sourceInterface == p.sourceInterface
                && choose == p.choose && Objects.equals(teid, p.teid) && Objects.equals(tunnelAddress, p.tunnelAddress)
                && Objects.equals(chooseId, p.chooseId) && Objects.equals(ueAddress, p.ueAddress)
                && sdfFilters.equals(p.sdfFilters) && Objects.equals(qfi, p.qfi)
                && Objects.equals(outerHeaderRemoval, p.outerHeaderRemoval)
                && Objects.equals(networkInstance, p.networkInstance) && Objects.equals(farId, p.farId)
                && qerIds.equals(p.qerIds) && urrIds.equals(p.urrIds);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pdrId, precedence, sourceInterface, teid, tunnelAddress, choose, chooseId, ueAddress,
                            sdfFilters, qfi, outerHeaderRemoval, networkInstance, farId, qerIds, urrIds);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("Pdr").omitNullValues().add("id", pdrId).add("precedence", precedence)
                .add("src", sourceInterface).add("teid", teid).add("tunnel", tunnelAddress)
                .add("chooseId", chooseId).add("ue", ueAddress).add("sdf", sdfFilters).add("qfi", qfi)
                .add("ohr", outerHeaderRemoval).add("far", farId).add("qers", qerIds).add("urrs", urrIds)
                .toString();
    }
}
