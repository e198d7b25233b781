package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * Downlink termination of (UE, application): counter, TEID and QFI for encapsulation, traffic class,
 * application meter, or drop. Matches {@code downlink_terminations}.
 */
public final class UpfTerminationDownlink implements UpfEntity {

    private final Ip4Address ueSessionId;
    private final int applicationId;
    private final int counterId;
    private final long teid;
    private final int qfi;
    private final int trafficClass;
    private final int appMeterIdx;
    private final boolean needsDropping;

    private UpfTerminationDownlink(Builder b) {
        this.ueSessionId = b.ueSessionId;
        this.applicationId = b.applicationId;
        this.counterId = b.counterId;
        this.teid = b.teid;
        this.qfi = b.qfi;
        this.trafficClass = b.trafficClass;
        this.appMeterIdx = b.appMeterIdx;
        this.needsDropping = b.needsDropping;
    }

    public Ip4Address ueSessionId() {
        return ueSessionId;
    }

    public int applicationId() {
        return applicationId;
    }

    public int counterId() {
        return counterId;
    }

    /**
     * Returns the TEID of the RAN tunnel as an unsigned 32-bit value (0 when dropping).
     *
     * @return TEID
     */
    public long teid() {
        return teid;
    }

    public int qfi() {
        return qfi;
    }

    public int trafficClass() {
        return trafficClass;
    }

    public int appMeterIdx() {
        return appMeterIdx;
    }

    public boolean needsDropping() {
        return needsDropping;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.TERMINATION_DOWNLINK;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfTerminationDownlink)) {
            return false;
        }
        UpfTerminationDownlink that = (UpfTerminationDownlink) o;
        return applicationId == that.applicationId && counterId == that.counterId && teid == that.teid
                && qfi == that.qfi && trafficClass == that.trafficClass && appMeterIdx == that.appMeterIdx
                && needsDropping == that.needsDropping && ueSessionId.equals(that.ueSessionId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ueSessionId, applicationId, counterId, teid, qfi, trafficClass, appMeterIdx,
                            needsDropping);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfTerminationDownlink")
                .add("ueSessionId", ueSessionId).add("applicationId", applicationId)
                .add("counterId", counterId).add("teid", teid).add("qfi", qfi)
                .add("trafficClass", trafficClass).add("appMeterIdx", appMeterIdx)
                .add("needsDropping", needsDropping).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; UE address and counter id are required, and a TEID unless the termination drops. */
    public static final class Builder {
        private Ip4Address ueSessionId;
        private int applicationId;
        private int counterId;
        private long teid;
        private int qfi;
        private int trafficClass;
        private int appMeterIdx;
        private boolean needsDropping;
        private Integer counterIdIn;
        private Long teidIn;
        private Integer applicationIdIn = 0;
        private Integer qfiIn = 0;
        private Integer trafficClassIn = 0;
        private Integer appMeterIdxIn = 0;

        private Builder() {
        }

        public Builder withUeSessionId(Ip4Address ueSessionId) {
            this.ueSessionId = ueSessionId;
            return this;
        }

        public Builder withApplicationId(int applicationId) {
            this.applicationIdIn = applicationId;
            return this;
        }

        public Builder withCounterId(int counterId) {
            this.counterIdIn = counterId;
            return this;
        }

        public Builder withTeid(long teid) {
            this.teidIn = teid;
            return this;
        }

        public Builder withQfi(int qfi) {
            this.qfiIn = qfi;
            return this;
        }

        public Builder withTrafficClass(int trafficClass) {
            this.trafficClassIn = trafficClass;
            return this;
        }

        public Builder withAppMeterIdx(int appMeterIdx) {
            this.appMeterIdxIn = appMeterIdx;
            return this;
        }

        public Builder needsDropping(boolean needsDropping) {
            this.needsDropping = needsDropping;
            return this;
        }

        public UpfTerminationDownlink build() {
            Checks.present(ueSessionId, "ueSessionId");
            applicationId = Checks.inRange(applicationIdIn, "applicationId", 0, Checks.MAX_APP_ID);
            counterId = Checks.inRange(counterIdIn, "counterId", 0, Checks.MAX_INDEX);
            if (needsDropping) {
                teid = teidIn == null ? 0 : Checks.inRange(teidIn, "teid", 0, Checks.MAX_TEID);
            } else {
                teid = Checks.inRange(teidIn, "teid", 0, Checks.MAX_TEID);
            }
            qfi = Checks.inRange(qfiIn, "qfi", 0, Checks.MAX_QFI);
            trafficClass = Checks.inRange(trafficClassIn, "trafficClass", 0, Checks.MAX_TC);
            appMeterIdx = Checks.inRange(appMeterIdxIn, "appMeterIdx", 0, Checks.MAX_INDEX);
            return new UpfTerminationDownlink(this);
        }
    }
}
