package org.hupf.core.pfcp;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Runs asynchronous tasks on a pool, one at a time per key: a task starts when the previous task of its
 * key has completed (its future included, e.g. the devices' acknowledgement), tasks of different keys run
 * in parallel. A failed task does not stop the ones after it.
 */
final class KeyedSerialExecutor {

    private final Executor pool;
    private final Map<Object, CompletableFuture<?>> tails = new ConcurrentHashMap<>();

    KeyedSerialExecutor(Executor pool) {
        this.pool = pool;
    }

    /**
     * Queues a task behind the tasks of its key.
     *
     * @param key  ordering key
     * @param task starts the work and returns its completion
     */
    void submit(Object key, Supplier<CompletableFuture<?>> task) {
        CompletableFuture<?>[] mine = new CompletableFuture<?>[1];
        tails.compute(key, (k, tail) -> {
            CompletableFuture<?> after = tail == null ? CompletableFuture.completedFuture(null) : tail;
            mine[0] = after.handle((x, e) -> null).thenComposeAsync(x -> task.get(), pool);
            return mine[0];
        });
        mine[0].whenComplete((x, e) -> tails.remove(key, mine[0]));
    }

    /** @return keys with a task queued or running */
    int busyKeys() {
        return tails.size();
    }
}
