package org.hupf.pipeconf.api;


/**
 * Downlink termination of (UE, application): counter, TEID and QFI for encapsulation, traffic class,
 * application meter, or drop. Matches {@code downlink_terminations}.
 */
public final class UpfTerminationDownlink extends UpfTermination {

    private final long teid;
    private final int qfi;

    private UpfTerminationDownlink(Builder b) {
        super(b);
        // A dropping termination encapsulates nothing: its TEID may be left out.
        this.teid = b.needsDropping && b.teid == null ? 0 : Checks.inRange(b.teid, "teid", 0, Checks.MAX_TEID);
        this.qfi = Checks.inRange(b.qfi, "qfi", 0, Checks.MAX_QFI);
    }

    public long teid() {
        return teid;
    }

    public int qfi() {
        return qfi;
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
        return teid == that.teid && qfi == that.qfi && sameTermination(that);
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
            fields = Hashes.add(fields, teid);
            fields = Hashes.add(fields, qfi);
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
        return describe("UpfTerminationDownlink", "teid", teid, "qfi", qfi);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; UE address and counter id are required, and a TEID unless the termination drops. */
    public static final class Builder extends UpfTermination.Builder<Builder> {
        private Long teid;
        private Integer qfi = 0;

        private Builder() {
        }

        @Override
        Builder self() {
            return this;
        }

        public Builder withTeid(long teid) {
            this.teid = teid;
            return this;
        }

        public Builder withQfi(int qfi) {
            this.qfi = qfi;
            return this;
        }

        public UpfTerminationDownlink build() {
            return new UpfTerminationDownlink(this);
        }
    }
}
