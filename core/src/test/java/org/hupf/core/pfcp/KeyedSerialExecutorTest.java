package org.hupf.core.pfcp;

import org.junit.After;
import org.junit.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Messages of one session wait for the previous one's completion (a device acknowledgement); other
 * sessions do not wait for it.
 */
public class KeyedSerialExecutorTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final KeyedSerialExecutor lanes = new KeyedSerialExecutor(pool);

    @After
    public void stop() {
        pool.shutdownNow();
    }

    @Test
    public void aKeysNextTaskWaitsForTheCompletionNotJustTheStartOfTheLast() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> ack = new CompletableFuture<>();
        CountDownLatch otherKeyRan = new CountDownLatch(1);
        CountDownLatch secondRan = new CountDownLatch(1);
        lanes.submit(7L, () -> {
            events.add("first started");
            return ack;
        });
        lanes.submit(7L, () -> {
            events.add("second started");
            secondRan.countDown();
            return CompletableFuture.completedFuture(null);
        });
        lanes.submit(8L, () -> {
            otherKeyRan.countDown();
            return CompletableFuture.completedFuture(null);
        });
        assertTrue("another session waited", otherKeyRan.await(5, TimeUnit.SECONDS));
        Thread.sleep(50);
        assertEquals(List.of("first started"), events);
        events.add("first acknowledged");
        ack.complete(null);
        assertTrue(secondRan.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("first started", "first acknowledged", "second started"), events);
    }

    @Test
    public void aFailedTaskDoesNotStopTheKeyAndIdleKeysAreForgotten() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        lanes.submit("k", () -> {
            throw new IllegalStateException("bug in one message");
        });
        lanes.submit("k", () -> CompletableFuture.failedFuture(new IllegalStateException("refused")));
        lanes.submit("k", () -> {
            ran.countDown();
            return CompletableFuture.completedFuture(null);
        });
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        long deadline = System.currentTimeMillis() + 5000;
        while (lanes.busyKeys() > 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, lanes.busyKeys());
    }
}
