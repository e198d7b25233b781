package org.hupf.pipeconf.dataplane;

import java.util.Objects;

/**
 * A slice of a VXLAN tenant ({@code HupfIngress.tenant.slices}, docs/PIPELINE_CONTRACT.md "VXLAN tenants"): the
 * tenant's packets of one QFI take the slice's traffic class and DSCP over the tenant's, and are counted and
 * (with a rate) metered in the slice's cell, {@code tenantId * 64 + qfi}. The ranges are the P4 program's widths
 * ({@code qfi} bit&lt;6&gt;, {@code tc} bit&lt;2&gt;, {@code dscp} bit&lt;6&gt;).
 */
public final class TenantSlice extends TenantTreatment {

    public static final int MAX_QFI = 63;
    /** Cells per tenant in the slice counter and meter (one per QFI). */
    public static final int CELLS_PER_TENANT = MAX_QFI + 1;

    private final int qfi;

    /**
     * @param qfi        QoS Flow Identifier of the tenant's packets the slice takes
     * @param tc         traffic class they take
     * @param dscp       DSCP they leave with
     * @param rateBps    the slice meter's rate in bits per second, 0 for none (the cell is left green)
     * @param burstBytes the meter's burst in bytes (0 without a rate)
     * @throws IllegalArgumentException naming the value out of range
     */
    public TenantSlice(int qfi, int tc, int dscp, long rateBps, long burstBytes) {
        super(tc, dscp, rateBps, burstBytes);
        this.qfi = inRange("qfi", qfi, MAX_QFI);
    }

    /** A slice without a meter. */
    public TenantSlice(int qfi, int tc, int dscp) {
        this(qfi, tc, dscp, 0, 0);
    }

    /**
     * @param tenantId the tenant the slice is of
     * @return the slice's cell in the slice counter and meter
     */
    public long cell(int tenantId) {
        return (long) tenantId * CELLS_PER_TENANT + qfi;
    }

    public int qfi() {
        return qfi;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TenantSlice)) {
            return false;
        }
        TenantSlice s = (TenantSlice) o;
        return qfi == s.qfi && sameTreatment(s);
    }

    @Override
    public int hashCode() {
        return Objects.hash(qfi, treatmentHash());
    }

    @Override
    public String toString() {
        return "TenantSlice{qfi=" + qfi + ", " + treatmentString() + "}";
    }
}
