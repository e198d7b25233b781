package org.hupf.pipeconf.api;


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
            int fields = 1;
            fields = Hashes.add(fields, Hashes.of(ueSessionId()));
            fields = Hashes.add(fields, applicationId());
            fields = Hashes.add(fields, counterId());
            fields = Hashes.add(fields, trafficClass());
            fields = Hashes.add(fields, appMeterIdx());
            fields = Hashes.add(fields, needsDropping());
            h = Hashes.spread(fields);
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
