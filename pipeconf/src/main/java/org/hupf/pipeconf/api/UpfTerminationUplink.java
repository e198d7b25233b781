package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * Uplink termination of (UE, application): counter, traffic class, application meter, or drop.
 * Matches {@code uplink_terminations}.
 */
public final class UpfTerminationUplink implements UpfEntity {

    private final Ip4Address ueSessionId;
    private final int applicationId;
    private final int counterId;
    private final int trafficClass;
    private final int appMeterIdx;
    private final boolean needsDropping;

    private UpfTerminationUplink(Ip4Address ueSessionId, int applicationId, int counterId, int trafficClass,
                                 int appMeterIdx, boolean needsDropping) {
        this.ueSessionId = ueSessionId;
        this.applicationId = applicationId;
        this.counterId = counterId;
        this.trafficClass = trafficClass;
        this.appMeterIdx = appMeterIdx;
        this.needsDropping = needsDropping;
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
        return UpfEntityType.TERMINATION_UPLINK;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfTerminationUplink)) {
            return false;
        }
        UpfTerminationUplink that = (UpfTerminationUplink) o;
        return applicationId == that.applicationId && counterId == that.counterId
                && trafficClass == that.trafficClass && appMeterIdx == that.appMeterIdx
                && needsDropping == that.needsDropping && ueSessionId.equals(that.ueSessionId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ueSessionId, applicationId, counterId, trafficClass, appMeterIdx, needsDropping);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfTerminationUplink")
                .add("ueSessionId", ueSessionId).add("applicationId", applicationId)
                .add("counterId", counterId).add("trafficClass", trafficClass)
                .add("appMeterIdx", appMeterIdx).add("needsDropping", needsDropping).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; UE address and counter id are required, application id 0 is the default application. */
    public static final class Builder {
        private Ip4Address ueSessionId;
        private Integer applicationId = 0;
        private Integer counterId;
        private Integer trafficClass = 0;
        private Integer appMeterIdx = 0;
        private boolean needsDropping;

        private Builder() {
        }

        public Builder withUeSessionId(Ip4Address ueSessionId) {
            this.ueSessionId = ueSessionId;
            return this;
        }

        public Builder withApplicationId(int applicationId) {
            this.applicationId = applicationId;
            return this;
        }

        public Builder withCounterId(int counterId) {
            this.counterId = counterId;
            return this;
        }

        public Builder withTrafficClass(int trafficClass) {
            this.trafficClass = trafficClass;
            return this;
        }

        public Builder withAppMeterIdx(int appMeterIdx) {
            this.appMeterIdx = appMeterIdx;
            return this;
        }

        public Builder needsDropping(boolean needsDropping) {
            this.needsDropping = needsDropping;
            return this;
        }

        public UpfTerminationUplink build() {
            return new UpfTerminationUplink(
                    Checks.present(ueSessionId, "ueSessionId"),
                    Checks.inRange(applicationId, "applicationId", 0, Checks.MAX_APP_ID),
                    Checks.inRange(counterId, "counterId", 0, Checks.MAX_INDEX),
                    Checks.inRange(trafficClass, "trafficClass", 0, Checks.MAX_TC),
                    Checks.inRange(appMeterIdx, "appMeterIdx", 0, Checks.MAX_INDEX),
                    needsDropping);
        }
    }
}
