package org.hupf.pipeconf.dataplane;

import org.onlab.packet.Ip4Address;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A VXLAN tenant ({@code HupfIngress.tenant.tenants}, docs/PIPELINE_CONTRACT.md "VXLAN tenants"): the frames
 * of a VNI sent to a local VTEP are the tenant's; they take its traffic class and leave with its DSCP, and
 * are counted and (with a rate) metered in the tenant's cell; its slices (one per QFI, {@link TenantSlice}) override
 * the class and DSCP for their QFI. The ranges are the P4 program's widths
 * ({@code tenant_id} bit&lt;8&gt; with 256 meter and counter cells, {@code tc} bit&lt;2&gt;, {@code dscp}
 * bit&lt;6&gt;, VNI bit&lt;24&gt;); the entries are built against the P4Info, which checks them again.
 */
public final class Tenant extends TenantTreatment {

    public static final int MAX_VNI = (1 << 24) - 1;
    public static final int MAX_TENANT_ID = 255;
    public static final int MAX_TC = 3;
    public static final int MAX_DSCP = 63;

    private final int vni;
    private final Ip4Address vtep;
    private final int tenantId;
    private final List<TenantSlice> slices;

    /**
     * @param vni        VXLAN network identifier
     * @param vtep       the local VTEP (the outer IPv4 destination)
     * @param tenantId   tenant (its counter and meter cell)
     * @param tc         traffic class its packets take
     * @param dscp       DSCP its packets leave with
     * @param rateBps    the tenant meter's rate in bits per second, 0 for none (the cell is left green)
     * @param burstBytes the meter's burst in bytes (0 without a rate)
     * @param slices     the tenant's slices, at most one per QFI
     * @throws IllegalArgumentException naming the value out of range or a QFI given two slices
     */
    public Tenant(int vni, Ip4Address vtep, int tenantId, int tc, int dscp, long rateBps, long burstBytes,
                  List<TenantSlice> slices) {
        super(tc, dscp, rateBps, burstBytes);
        this.vni = inRange("vni", vni, MAX_VNI);
        this.vtep = Objects.requireNonNull(vtep, "vtep");
        this.tenantId = inRange("tenantId", tenantId, MAX_TENANT_ID);
        Set<Integer> qfis = new HashSet<>();
        for (TenantSlice x : slices) {
            if (!qfis.add(x.qfi())) {
                throw new IllegalArgumentException("slices: qfi " + x.qfi() + " given twice");
            }
        }
        this.slices = List.copyOf(slices);
    }

    /** A tenant without slices. */
    public Tenant(int vni, Ip4Address vtep, int tenantId, int tc, int dscp, long rateBps, long burstBytes) {
        this(vni, vtep, tenantId, tc, dscp, rateBps, burstBytes, List.of());
    }

    /** A tenant without a meter or slices. */
    public Tenant(int vni, Ip4Address vtep, int tenantId, int tc, int dscp) {
        this(vni, vtep, tenantId, tc, dscp, 0, 0);
    }

    public int vni() {
        return vni;
    }

    public Ip4Address vtep() {
        return vtep;
    }

    public int tenantId() {
        return tenantId;
    }

    /** @return the tenant's slices, in the order given */
    public List<TenantSlice> slices() {
        return slices;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Tenant)) {
            return false;
        }
        Tenant t = (Tenant) o;
        return vni == t.vni && vtep.equals(t.vtep) && tenantId == t.tenantId && sameTreatment(t)
                && slices.equals(t.slices);
    }

    @Override
    public int hashCode() {
        return Objects.hash(vni, vtep, tenantId, treatmentHash(), slices);
    }

    @Override
    public String toString() {
        return "Tenant{vni=" + vni + ", vtep=" + vtep + ", tenantId=" + tenantId + ", " + treatmentString()
                + (slices.isEmpty() ? "" : ", slices=" + slices) + "}";
    }
}
