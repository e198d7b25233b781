package org.hupf.core.device;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Stops hupf's threads so that none outlives the component that started it: a stop that cannot finish within
 * its bound says in the log which threads are still running, instead of leaving them behind unnoticed.
 */
public final class Shutdowns {

    private static final Logger log = LoggerFactory.getLogger(Shutdowns.class);
    /** Long enough for a device write or a store commit on a loaded machine; bounded so a hung device cannot
     *  hold a deactivation forever. */
    public static final long DEFAULT_BOUND_MS = 30_000;

    private Shutdowns() {
    }

    /**
     * Lets an executor finish what it runs and has queued, then waits for its threads.
     *
     * @param executor executor
     * @param what     its threads' name, for the log
     * @return true if it terminated within the bound (it is interrupted otherwise)
     */
    public static boolean finish(ExecutorService executor, String what) {
        executor.shutdown();
        return await(executor, what);
    }

    /**
     * Interrupts an executor's tasks and drops its queue, then waits for its threads.
     *
     * @param executor executor
     * @param what     its threads' name, for the log
     * @return true if it terminated within the bound
     */
    public static boolean interrupt(ExecutorService executor, String what) {
        executor.shutdownNow();
        return await(executor, what);
    }

    private static boolean await(ExecutorService executor, String what) {
        try {
            if (executor.awaitTermination(DEFAULT_BOUND_MS, TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdownNow();
        log.error("{} still running {} ms after it was told to stop: interrupted", what, DEFAULT_BOUND_MS);
        return false;
    }

    /**
     * Waits for a thread that was told to stop.
     *
     * @param thread thread
     * @return true if it ended within the bound
     */
    public static boolean join(Thread thread) {
        try {
            thread.join(DEFAULT_BOUND_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.error("thread {} still running {} ms after it was told to stop", thread.getName(), DEFAULT_BOUND_MS);
            return false;
        }
        return true;
    }
}
