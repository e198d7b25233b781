package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

/**
 * What an uplink and a downlink termination of (UE, application) share: the counter, traffic class and
 * application meter they apply, or a drop.
 */
public abstract class UpfTermination implements UpfEntity {

    private final Ip4Address ueSessionId;
    private final int applicationId;
    private final int counterId;
    private final int trafficClass;
    private final int appMeterIdx;
    private final boolean needsDropping;

    UpfTermination(Builder<?> b) {
        this.ueSessionId = Checks.present(b.ueSessionId, "ueSessionId");
        this.applicationId = Checks.inRange(b.applicationId, "applicationId", 0, Checks.MAX_APP_ID);
        this.counterId = Checks.inRange(b.counterId, "counterId", 0, Checks.MAX_INDEX);
        this.trafficClass = Checks.inRange(b.trafficClass, "trafficClass", 0, Checks.MAX_TC);
        this.appMeterIdx = Checks.inRange(b.appMeterIdx, "appMeterIdx", 0, Checks.MAX_INDEX);
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

    public int trafficClass() {
        return trafficClass;
    }

    public int appMeterIdx() {
        return appMeterIdx;
    }

    public boolean needsDropping() {
        return needsDropping;
    }

    /** Whether the shared fields equal another termination's (subclasses compare their type and own fields). */
    boolean sameTermination(UpfTermination that) {
        return applicationId == that.applicationId && counterId == that.counterId
                && trafficClass == that.trafficClass && appMeterIdx == that.appMeterIdx
                && needsDropping == that.needsDropping && ueSessionId.equals(that.ueSessionId);
    }

    /** toString of the shared fields, then a subclass's own before {@code needsDropping}. */
    String describe(String name, Object... ownNamesAndValues) {
        MoreObjects.ToStringHelper h = MoreObjects.toStringHelper(name)
                .add("ueSessionId", ueSessionId).add("applicationId", applicationId).add("counterId", counterId);
        for (int i = 0; i < ownNamesAndValues.length; i += 2) {
            h.add((String) ownNamesAndValues[i], ownNamesAndValues[i + 1]);
        }
        return h.add("trafficClass", trafficClass).add("appMeterIdx", appMeterIdx)
                .add("needsDropping", needsDropping).toString();
    }

    /**
     * Builder of the shared fields; UE address and counter id are required, application id 0 is the
     * default application.
     *
     * @param <B> the concrete builder
     */
    public abstract static class Builder<B extends Builder<B>> {
        private Ip4Address ueSessionId;
        private Integer applicationId = 0;
        private Integer counterId;
        private Integer trafficClass = 0;
        private Integer appMeterIdx = 0;
        boolean needsDropping;

        Builder() {
        }

        abstract B self();

        public B withUeSessionId(Ip4Address ueSessionId) {
            this.ueSessionId = ueSessionId;
            return self();
        }

        public B withApplicationId(int applicationId) {
            this.applicationId = applicationId;
            return self();
        }

        public B withCounterId(int counterId) {
            this.counterId = counterId;
            return self();
        }

        public B withTrafficClass(int trafficClass) {
            this.trafficClass = trafficClass;
            return self();
        }

        public B withAppMeterIdx(int appMeterIdx) {
            this.appMeterIdx = appMeterIdx;
            return self();
        }

        public B needsDropping(boolean needsDropping) {
            this.needsDropping = needsDropping;
            return self();
        }
    }
}
