package org.hupf.pipeconf.dataplane;

import java.util.Objects;

/**
 * What a tenant's packets take, or a slice's: a traffic class, the DSCP they leave with and, with a rate, a meter
 * (docs/PIPELINE_CONTRACT.md "VXLAN tenants"). The fields and their checks that {@link Tenant} and
 * {@link TenantSlice} share.
 */
abstract class TenantTreatment {

    private final int tc;
    private final int dscp;
    private final long rateBps;
    private final long burstBytes;

    /**
     * @throws IllegalArgumentException naming the value out of range, or a rate without a burst or the reverse
     */
    TenantTreatment(int tc, int dscp, long rateBps, long burstBytes) {
        this.tc = inRange("tc", tc, Tenant.MAX_TC);
        this.dscp = inRange("dscp", dscp, Tenant.MAX_DSCP);
        if (rateBps < 0 || burstBytes < 0 || (rateBps == 0) != (burstBytes == 0) || (rateBps > 0 && rateBps < 8)) {
            throw new IllegalArgumentException("rateBps (at least 8) and burstBytes (positive) go together, got "
                                                       + rateBps + " and " + burstBytes);
        }
        this.rateBps = rateBps;
        this.burstBytes = burstBytes;
    }

    static int inRange(String what, int v, int max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(what + ": integer in [0, " + max + "] expected, got " + v);
        }
        return v;
    }

    public int tc() {
        return tc;
    }

    public int dscp() {
        return dscp;
    }

    /** @return the meter's rate in bits per second, 0 if not metered */
    public long rateBps() {
        return rateBps;
    }

    public long burstBytes() {
        return burstBytes;
    }

    public boolean metered() {
        return rateBps > 0;
    }

    boolean sameTreatment(TenantTreatment o) {
        return tc == o.tc && dscp == o.dscp && rateBps == o.rateBps && burstBytes == o.burstBytes;
    }

    int treatmentHash() {
        return Objects.hash(tc, dscp, rateBps, burstBytes);
    }

    /** @return "tc=…, dscp=…" and, when metered, the meter, for the subclasses' toString */
    String treatmentString() {
        return "tc=" + tc + ", dscp=" + dscp + (metered() ? ", rateBps=" + rateBps + ", burstBytes=" + burstBytes : "");
    }
}
