package org.hupf.app;

import org.hupf.core.offload.BackendDrain;
import org.onosproject.store.service.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * Opens what a component keeps in ONOS's storage, again while the storage does not answer: on a node that starts
 * slowly (its Raft partitions still electing, the machine loaded) a first open times out, and a component whose
 * activation throws is never activated again. Each failed attempt is logged; the last one fails the activation
 * with what was tried.
 */
public final class StorageOpening {

    private static final Logger log = LoggerFactory.getLogger(StorageOpening.class);
    /** Attempts: waits of 1, 2, 4, 8 and 16 s between them, about ONOS's own startup at a load of 40. */
    static final int ATTEMPTS = 6;
    static final long FIRST_WAIT_MS = 1000;

    private StorageOpening() {
    }

    /**
     * @param what what is opened, for the log
     * @param open opens it
     * @param <T>  what it opens
     * @return what it opened
     * @throws IllegalStateException when the storage did not answer {@value #ATTEMPTS} times
     */
    public static <T> T open(String what, Supplier<T> open) {
        return open(what, open, ATTEMPTS, FIRST_WAIT_MS, Thread::sleep);
    }

    static <T> T open(String what, Supplier<T> open, int attempts, long firstWaitMs, BackendDrain.Sleeper sleeper) {
        long waitMs = firstWaitMs;
        for (int attempt = 1; ; attempt++) {
            try {
                return open.get();
            } catch (StorageException e) {
                if (attempt == attempts) {
                    throw new IllegalStateException("hupf could not open " + what + " in ONOS's storage in "
                                                            + attempts + " attempts: " + e, e);
                }
                log.warn("Opening {} in ONOS's storage failed ({}), attempt {} of {}: again in {} ms", what, e,
                         attempt, attempts, waitMs);
            }
            try {
                sleeper.sleep(waitMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("hupf's activation was interrupted opening " + what, e);
            }
            waitMs *= 2;
        }
    }
}
