package org.hupf.core.offload;

import com.google.common.base.MoreObjects;

/**
 * A session's usage summed over both targets: what PFCP usage reports carry. The hardware part
 * accumulates across offload episodes, so totals never go backwards when a session moves.
 */
public final class SessionUsage {

    /** Nothing counted yet: what every session starts with, shared. */
    static final SessionUsage NONE = new SessionUsage(0, 0, 0, 0, 0, 0);

    private final long ingressPkts;
    private final long ingressBytes;
    private final long egressPkts;
    private final long egressBytes;
    private final long hwPkts;
    private final long hwBytes;

    SessionUsage(long ingressPkts, long ingressBytes, long egressPkts, long egressBytes, long hwPkts, long hwBytes) {
        this.ingressPkts = ingressPkts;
        this.ingressBytes = ingressBytes;
        this.egressPkts = egressPkts;
        this.egressBytes = egressBytes;
        this.hwPkts = hwPkts;
        this.hwBytes = hwBytes;
    }

    /** @return whether every count is the other's */
    boolean sameAs(SessionUsage o) {
        return ingressPkts == o.ingressPkts && ingressBytes == o.ingressBytes && egressPkts == o.egressPkts
                && egressBytes == o.egressBytes && hwPkts == o.hwPkts && hwBytes == o.hwBytes;
    }

    public long ingressPkts() {
        return ingressPkts;
    }

    public long ingressBytes() {
        return ingressBytes;
    }

    public long egressPkts() {
        return egressPkts;
    }

    public long egressBytes() {
        return egressBytes;
    }

    /** Ingress packets that took the hardware path. */
    public long hwPkts() {
        return hwPkts;
    }

    /** Ingress bytes that took the hardware path. */
    public long hwBytes() {
        return hwBytes;
    }

    /** Ingress bytes that took the software path. */
    public long swBytes() {
        return ingressBytes - hwBytes;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("SessionUsage").add("ingressPkts", ingressPkts)
                .add("ingressBytes", ingressBytes).add("egressPkts", egressPkts).add("egressBytes", egressBytes)
                .add("hwPkts", hwPkts).add("hwBytes", hwBytes).toString();
    }
}
