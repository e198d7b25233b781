package org.hupf.api.session;

import com.google.common.base.MoreObjects;

import java.util.Objects;

/**
 * A QoS Enforcement Rule (TS 29.244 §5.2.1, Create QER §7.5.2.5). Bit rates in kbit/s, null if absent; boxes shared
 * between QERs with the same rates ({@link SharedLongs}).
 */
public final class Qer {

    public final long qerId;
    public final boolean uplinkGateClosed;
    public final boolean downlinkGateClosed;
    public final Long mbrUplink;
    public final Long mbrDownlink;
    public final Long gbrUplink;
    public final Long gbrDownlink;
    public final Integer qfi;

    public Qer(long qerId, boolean uplinkGateClosed, boolean downlinkGateClosed, Long mbrUplink, Long mbrDownlink,
               Long gbrUplink, Long gbrDownlink, Integer qfi) {
        this.qerId = qerId;
        this.uplinkGateClosed = uplinkGateClosed;
        this.downlinkGateClosed = downlinkGateClosed;
        this.mbrUplink = SharedLongs.of(mbrUplink);
        this.mbrDownlink = SharedLongs.of(mbrDownlink);
        this.gbrUplink = SharedLongs.of(gbrUplink);
        this.gbrDownlink = SharedLongs.of(gbrDownlink);
        this.qfi = qfi;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Qer)) {
            return false;
        }
        Qer q = (Qer) o;
        return qerId == q.qerId && uplinkGateClosed == q.uplinkGateClosed
                && downlinkGateClosed == q.downlinkGateClosed && Objects.equals(mbrUplink, q.mbrUplink)
                && Objects.equals(mbrDownlink, q.mbrDownlink) && Objects.equals(gbrUplink, q.gbrUplink)
                && Objects.equals(gbrDownlink, q.gbrDownlink) && Objects.equals(qfi, q.qfi);
    }

    @Override
    public int hashCode() {
        return Objects.hash(qerId, uplinkGateClosed, downlinkGateClosed, mbrUplink, mbrDownlink, gbrUplink,
                            gbrDownlink, qfi);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("Qer").omitNullValues().add("id", qerId)
                .add("ulClosed", uplinkGateClosed).add("dlClosed", downlinkGateClosed)
                .add("mbrUl", mbrUplink).add("mbrDl", mbrDownlink).add("gbrUl", gbrUplink)
                .add("gbrDl", gbrDownlink).add("qfi", qfi).toString();
    }
}
