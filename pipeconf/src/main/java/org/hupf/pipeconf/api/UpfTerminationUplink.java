package org.hupf.pipeconf.api;

import java.util.Objects;

/**
 * Uplink termination of (UE, application): counter, traffic class, application meter, or drop.
 * Matches {@code uplink_terminations}.
 */
public final class UpfTerminationUplink extends UpfTermination {

    private UpfTerminationUplink(Builder b) {
        super(b);
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.TERMINATION_UPLINK;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof UpfTerminationUplink && sameTermination((UpfTermination) o);
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Hashes.spread(Objects.hash(Hashes.of(ueSessionId()), applicationId(), counterId(),
                    trafficClass(), appMeterIdx(), needsDropping()));
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return describe("UpfTerminationUplink");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; UE address and counter id are required, application id 0 is the default application. */
    public static final class Builder extends UpfTermination.Builder<Builder> {

        private Builder() {
        }

        @Override
        Builder self() {
            return this;
        }

        public UpfTerminationUplink build() {
            return new UpfTerminationUplink(this);
        }
    }
}
