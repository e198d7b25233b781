package org.hupf.core.device;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * How the device writer's thread completes a write's batches: in three steps, so that a burst of completions costs
 * one acquisition of the lock their settlements take and at most one wake-up of each thread waiting for them.
 * <ol>
 * <li>the batches' futures complete holding the settlements' lock once (a settlement taking it again does not
 *     wait), and what follows a settlement ({@link #afterSettling(CompletableFuture)}: encoding and sending an
 *     answer) is put off;</li>
 * <li>that is run, the lock released (the PFCP thread is not held up by the answers);</li>
 * <li>the wake-ups asked for on the way ({@link #atEnd}) are run, each once.</li>
 * </ol>
 * On any other thread, or outside a burst's completions, what is put off runs at once.
 */
public final class WriterBurst {

    private static final Logger log = LoggerFactory.getLogger(WriterBurst.class);

    private final Object settleLock;
    private final List<Runnable> afterSettling = new ArrayList<>();
    private final List<Runnable> atEnd = new ArrayList<>();
    private boolean settling;
    private boolean completing;

    /** @param settleLock lock the completions' settlements take; null: none */
    WriterBurst(Object settleLock) {
        this.settleLock = settleLock;
    }

    /** The writer's thread, which carries its burst's state: found without a thread-local lookup. */
    static final class WriterThread extends Thread {
        final WriterBurst burst;

        WriterThread(Runnable run, String name, WriterBurst burst) {
            super(run, name);
            this.burst = burst;
        }
    }

    /**
     * A future completed as {@code settled} is, but, when that happens in a burst's settlements, once they are all
     * done and their lock released.
     */
    public static <T> CompletableFuture<T> afterSettling(CompletableFuture<T> settled) {
        if (settled.isDone()) {
            return settled;
        }
        CompletableFuture<T> after = new CompletableFuture<>();
        settled.whenComplete((value, failure) -> afterSettling(() -> {
            if (failure == null) {
                after.complete(value);
            } else {
                after.completeExceptionally(failure);
            }
        }));
        return after;
    }

    private static void afterSettling(Runnable r) {
        WriterBurst b = current();
        if (b != null && b.settling) {
            b.afterSettling.add(r);
        } else {
            r.run();
        }
    }

    /**
     * Runs {@code wakeUp} at the end of the burst being completed on this thread, once however often it is asked
     * for (by identity); at once on any other thread.
     */
    public static void atEnd(Runnable wakeUp) {
        WriterBurst b = current();
        if (b == null || !b.completing) {
            wakeUp.run();
            return;
        }
        for (Runnable r : b.atEnd) {
            if (r == wakeUp) {
                return;
            }
        }
        b.atEnd.add(wakeUp);
    }

    private static WriterBurst current() {
        Thread t = Thread.currentThread();
        return t instanceof WriterThread ? ((WriterThread) t).burst : null;
    }

    /** Runs a write's completions ({@code complete}) in the three steps; on the writer's thread. */
    void complete(Runnable complete) {
        completing = true;
        try {
            settling = true;
            try {
                if (settleLock == null) {
                    complete.run();
                } else {
                    synchronized (settleLock) {
                        complete.run();
                    }
                }
            } finally {
                settling = false;
            }
            runAll(afterSettling);
            runAll(atEnd);
        } finally {
            completing = false;
            afterSettling.clear();
            atEnd.clear();
        }
    }

    /** Runs each in order, those added meanwhile too; one that throws costs itself only. */
    private static void runAll(List<Runnable> runs) {
        for (int i = 0; i < runs.size(); i++) {
            try {
                runs.get(i).run();
            } catch (RuntimeException e) {
                log.error("a device write's completion failed", e);
            }
        }
        runs.clear();
    }
}
