package org.hupf.core.offload;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A recurring failure's warning: given the first time, then at most once per period, with how many
 * failures it did not report in between. Not thread-safe: one caller at a time.
 */
final class RateLimitedWarning {

    private final LongSupplier clock;
    private final long periodMillis;
    private final Consumer<String> sink;
    private boolean warned;
    private long warnedAt;
    private long unreported;

    RateLimitedWarning(LongSupplier clock, long periodMillis, Consumer<String> sink) {
        this.clock = clock;
        this.periodMillis = periodMillis;
        this.sink = sink;
    }

    /** Notes one failure, and warns about it unless a warning was given within the period. */
    void failed(String message) {
        long now = clock.getAsLong();
        if (warned && now - warnedAt < periodMillis) {
            unreported++;
            return;
        }
        sink.accept(unreported == 0 ? message
                            : message + " (and " + unreported + " unreported failures since the last warning)");
        warned = true;
        warnedAt = now;
        unreported = 0;
    }
}
