package org.hupf.pipeconf.dataplane;

import java.util.Objects;

/**
 * A slice of a VXLAN tenant ({@code HupfIngress.tenant.slices}, docs/PIPELINE_CONTRACT.md "VXLAN tenants"): the
 * tenant's packets of one QFI take the slice's traffic class and DSCP over the tenant's, and are counted and
 * (with a rate) metered in the slice's cell, {@code tenantId * 64 + qfi}. The ranges are the P4 program's widths
 * ({@code qfi} bit&lt;6&gt;, {@code tc} bit&lt;2&gt;, {@code dscp} bit&lt;6&gt;).
 */
public final class TenantSlice {

    public static final int MAX_QFI = 63;
    /** Cells per tenant in the slice counter and meter (one per QFI). */
    public static final int CELLS_PER_TENANT = MAX_QFI + 1;

    private final int qfi;
    private final int tc;
    private final int dscp;
    private final long rateBps;
    private final long burstBytes;

    /**
     * @param qfi        QoS Flow Identifier of the tenant's packets the slice takes
     * @param tc         traffic class they take
     * @param dscp       DSCP they leave with
     * @param rateBps    the slice meter's rate in bits per second, 0 for none (the cell is left green)
     * @param burstBytes the meter's burst in bytes (0 without a rate)
     * @throws IllegalArgumentException naming the value out of range
     */
    public TenantSlice(int qfi, int tc, int dscp, long rateBps, long burstBytes) {
        this.qfi = check("qfi", qfi, MAX_QFI);
        this.tc = check("tc", tc, Tenant.MAX_TC);
        this.dscp = check("dscp", dscp, Tenant.MAX_DSCP);
        if (rateBps < 0 || burstBytes < 0 || (rateBps == 0) != (burstBytes == 0) || (rateBps > 0 && rateBps < 8)) {
            throw new IllegalArgumentException("rateBps (at least 8) and burstBytes (positive) go together, got "
                                                       + rateBps + " and " + burstBytes);
        }
        this.rateBps = rateBps;
        this.burstBytes = burstBytes;
    }

    /** A slice without a meter. */
    public TenantSlice(int qfi, int tc, int dscp) {
        this(qfi, tc, dscp, 0, 0);
    }

    private static int check(String what, int v, int max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(what + ": integer in [0, " + max + "] expected, got " + v);
        }
        return v;
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

    public int tc() {
        return tc;
    }

    public int dscp() {
        return dscp;
    }

    /** @return the meter's rate in bits per second, 0 if the slice is not metered */
    public long rateBps() {
        return rateBps;
    }

    public long burstBytes() {
        return burstBytes;
    }

    public boolean metered() {
        return rateBps > 0;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TenantSlice)) {
            return false;
        }
        TenantSlice s = (TenantSlice) o;
        return qfi == s.qfi && tc == s.tc && dscp == s.dscp && rateBps == s.rateBps && burstBytes == s.burstBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(qfi, tc, dscp, rateBps, burstBytes);
    }

    @Override
    public String toString() {
        return "TenantSlice{qfi=" + qfi + ", tc=" + tc + ", dscp=" + dscp
                + (metered() ? ", rateBps=" + rateBps + ", burstBytes=" + burstBytes : "") + "}";
    }
}
