package org.hupf.pipeconf.behaviour;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A P4Runtime RPC that ONOS's client gave up on at its fixed deadline: ONOS 2.7's P4RuntimeClientImpl gives
 * every Write and Read 10 s (SHORT_TIMEOUT_SECONDS), which a live device on a loaded machine can overrun, the
 * write being applied nonetheless. Load is not failure: hupf's batch writes are idempotent (install or
 * overwrite, deletes of what is gone, meter resets are MODIFYs) and its reads change nothing, so while the
 * device answers a probe the RPC is made again, for up to {@link #BUDGET_MS}; a device that does not answer
 * is unreachable, as before.
 */
final class TimedOut extends UpfProgrammableException {

    /** How long an RPC that timed out on a device that still answers is made again. */
    static final long BUDGET_MS = 300_000;
    private static final String DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED";

    TimedOut(String message) {
        super(message);
    }

    /**
     * @param rpcError exception of an RPC
     * @return true if it is gRPC's DEADLINE_EXCEEDED (see {@link NotPrimary#hasCode})
     */
    static boolean isDeadlineExceeded(Throwable rpcError) {
        return NotPrimary.hasCode(rpcError, DEADLINE_EXCEEDED);
    }

    /**
     * Probes the device; a probe that fails or cannot be made counts as no answer.
     *
     * @param probe ONOS's probe of the device (P4RuntimeClient.probeService: a GetForwardingPipelineConfig
     *              COOKIE_ONLY, or on its error whether the channel is READY)
     * @return whether the device answered
     */
    static CompletableFuture<Boolean> alive(Supplier<CompletableFuture<Boolean>> probe) {
        try {
            return probe.get().handle((ok, e) -> e == null && Boolean.TRUE.equals(ok));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(false);
        }
    }

    /**
     * Makes a blocking RPC again while it times out and the device answers the probe, within the budget, unless
     * the calling thread is interrupted.
     *
     * @param attempt  the RPC, made anew on each call
     * @param error    the RPC error of an answer, or null when the RPC was answered
     * @param probe    ONOS's probe of the device
     * @param budgetMs how long the RPC is made again
     * @param <R>      answer
     * @return the first answer that is not a timeout on a live device within the budget (the caller judges it)
     */
    static <R> R again(Supplier<R> attempt, Function<R, Throwable> error, Supplier<CompletableFuture<Boolean>> probe,
                       long budgetMs) {
        long deadline = System.nanoTime() + budgetMs * 1_000_000L;
        while (true) {
            R answer = attempt.get();
            Throwable rpc = error.apply(answer);
            // An interrupted thread is being stopped (its component deactivates): it gives up rather than keep the
            // component's stop waiting for a starved device. ONOS's blocking RPC waits uninterruptibly, then
            // sets the thread's interrupt flag again.
            if (rpc == null || !isDeadlineExceeded(rpc) || System.nanoTime() > deadline
                    || Thread.currentThread().isInterrupted() || !alive(probe).join()) {
                return answer;
            }
        }
    }
}
