package org.hupf.core.store;

import java.util.Objects;

/**
 * Where a URR's current measurement interval began: the volume counted up to its last report, when that
 * report was sent, and the next report's sequence number (TS 29.244 §7.5.8.2 UR-SEQN).
 */
public final class UsageBaseline {

    public final long uplinkBytes;
    public final long downlinkBytes;
    public final long startSec;
    public final long nextSeqn;

    public UsageBaseline(long uplinkBytes, long downlinkBytes, long startSec, long nextSeqn) {
        this.uplinkBytes = uplinkBytes;
        this.downlinkBytes = downlinkBytes;
        this.startSec = startSec;
        this.nextSeqn = nextSeqn;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UsageBaseline)) {
            return false;
        }
        UsageBaseline b = (UsageBaseline) o;
        return uplinkBytes == b.uplinkBytes && downlinkBytes == b.downlinkBytes && startSec == b.startSec
                && nextSeqn == b.nextSeqn;
    }

    @Override
    public int hashCode() {
        return Objects.hash(uplinkBytes, downlinkBytes, startSec, nextSeqn);
    }

    @Override
    public String toString() {
        return "UsageBaseline{ul=" + uplinkBytes + ", dl=" + downlinkBytes + ", start=" + startSec
                + ", seqn=" + nextSeqn + '}';
    }
}
