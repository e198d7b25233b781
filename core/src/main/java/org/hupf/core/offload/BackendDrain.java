package org.hupf.core.offload;

import org.hupf.api.DrainReport;
import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A backend's planned removal, drained first. Its UEs are steered to the other backends (make before break: it
 * still holds every session), then what it counted is read until it stops moving for a quiet time (packets
 * steered to it before the change are still arriving until then), or until a bound passes. The last read goes
 * through the {@link BackendUsageLedger}, so when the backend then leaves the backends read, the ledger keeps
 * its final counts as away: stopped after this, it loses no packet and takes no count with it.
 */
public final class BackendDrain {

    /** Steers the backend's UEs to the others; returns once the switch acknowledged it. */
    public interface Steering {
        void steerAway() throws Exception;
    }

    /** What the backend counted so far (through the ledger). */
    public interface Count {
        long read() throws UpfProgrammableException;
    }

    /** Waits between two reads. */
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final long quietMillis;
    private final long maxMillis;
    private final long readEveryMillis;
    private final LongSupplier clock;
    private final Sleeper sleeper;

    /**
     * @param quietMillis     how long the counts must stay still after the steering changed
     * @param maxMillis       how long to wait for that at most, from the steering's acknowledgement
     * @param readEveryMillis pause between two reads
     * @param clock           milliseconds
     * @param sleeper         the pause
     */
    public BackendDrain(long quietMillis, long maxMillis, long readEveryMillis, LongSupplier clock, Sleeper sleeper) {
        if (quietMillis <= 0 || maxMillis < quietMillis || readEveryMillis <= 0) {
            throw new IllegalArgumentException("drain: need 0 < quiet <= max and a positive read period, got quiet "
                                                       + quietMillis + " ms, max " + maxMillis + " ms, every "
                                                       + readEveryMillis + " ms");
        }
        this.quietMillis = quietMillis;
        this.maxMillis = maxMillis;
        this.readEveryMillis = readEveryMillis;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /**
     * Drains a backend: steers away, waits for its counts to be quiet (or the bound), then lets it leave.
     *
     * @param steering moves its UEs to the others; a failure ends the drain before anything else (it keeps them)
     * @param count    its count, read through the ledger
     * @param leave    takes it out of the backends written and read (the ledger then holds it as away)
     * @return what was seen; a failed read ends the wait, and the backend still leaves with its last counts read
     * @throws Exception the steering's failure
     * @throws InterruptedException if interrupted while waiting (the backend has not left)
     */
    public DrainReport drain(Steering steering, Count count, Runnable leave) throws Exception {
        long start = clock.getAsLong();
        steering.steerAway();
        long steeredAt = clock.getAsLong();
        long first = -1;
        long last = -1;
        long changedAt = steeredAt;
        int reads = 0;
        boolean quiet = false;
        String error = null;
        while (true) {
            long readStart = clock.getAsLong();
            long n;
            try {
                n = count.read();
            } catch (UpfProgrammableException e) {
                error = e.getMessage();
                break;
            }
            reads++;
            if (first < 0) {
                first = n;
            } else if (n != last) {
                // Counted between the previous read and this one's answer: quiet counts from the answer.
                changedAt = clock.getAsLong();
            } else if (readStart - changedAt >= quietMillis) {
                quiet = true;
            }
            last = n;
            if (quiet || readStart - steeredAt >= maxMillis) {
                break;
            }
            sleeper.sleep(readEveryMillis);
        }
        leave.run();
        return new DrainReport(quiet, steeredAt - start, clock.getAsLong() - start, Math.max(last, 0),
                          first < 0 ? 0 : last - first, reads, error);
    }

    /**
     * A backend's count: the packets of the given cells, both directions.
     *
     * @param backend the backend, read through the ledger ({@link LedgeredBackend})
     * @param cells   the sessions' counter cells
     * @return the count
     */
    public static Count packets(HupfUpfDevice backend, Supplier<Collection<Integer>> cells) {
        return () -> {
            long sum = 0;
            for (UpfCounter c : CounterCellReader.of(backend).readCounterCells(cells.get()).values()) {
                sum += c.ingressPkts() + c.egressPkts();
            }
            return sum;
        };
    }
}
