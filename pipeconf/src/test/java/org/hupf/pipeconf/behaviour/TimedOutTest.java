package org.hupf.pipeconf.behaviour;

import org.junit.Test;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** A blocking RPC (a read) that passed ONOS's deadline is made again while the device answers a probe. */
public class TimedOutTest {

    private static final Exception LATE = new IllegalStateException("DEADLINE_EXCEEDED: deadline exceeded after 9.9s");
    private static final Exception GONE = new IllegalStateException("UNAVAILABLE: io exception");

    private final AtomicInteger probes = new AtomicInteger();

    /** Answers of successive attempts: an exception is the RPC's error, anything else its answer. */
    private Object call(Deque<Object> answers, boolean alive, long budgetMs) {
        return TimedOut.again(answers::poll, a -> a instanceof Throwable ? (Throwable) a : null, () -> {
            probes.incrementAndGet();
            return CompletableFuture.completedFuture(alive);
        }, budgetMs);
    }

    @Test
    public void aReadThatTimedOutOnALiveDeviceIsMadeAgain() {
        assertEquals("cells", call(new ArrayDeque<>(Arrays.asList(LATE, LATE, "cells")), true, 60_000));
        assertEquals(2, probes.get());
    }

    @Test
    public void onADeviceThatDoesNotAnswerTheTimeoutIsTheAnswer() {
        assertEquals(LATE, call(new ArrayDeque<>(Arrays.asList(LATE, "cells")), false, 60_000));
        assertEquals(1, probes.get());
    }

    /** A component stopping interrupts its threads: a read that timed out is not made again for it. */
    @Test
    public void anInterruptedThreadDoesNotMakeItAgain() {
        Thread.currentThread().interrupt();
        try {
            assertEquals(LATE, call(new ArrayDeque<>(Arrays.asList(LATE, "cells")), true, 60_000));
            assertEquals(0, probes.get());
        } finally {
            assertTrue("the interrupt stays for the caller to see", Thread.interrupted());
        }
    }

    @Test
    public void otherErrorsAreNotMadeAgain() {
        assertEquals(GONE, call(new ArrayDeque<>(Arrays.asList(GONE, "cells")), true, 60_000));
        assertEquals(0, probes.get());
    }

    @Test
    public void aTimeoutIsFoundInsideWrappersAndAFailedProbeIsNoAnswer() {
        assertTrue(TimedOut.isDeadlineExceeded(new CompletionException(LATE)));
        assertFalse(TimedOut.isDeadlineExceeded(GONE));
        assertFalse(TimedOut.alive(() -> CompletableFuture.failedFuture(GONE)).join());
        assertFalse(TimedOut.alive(() -> {
            throw new IllegalStateException("channel shut down");
        }).join());
    }
}
