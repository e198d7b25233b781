package org.hupf.app.device;

import org.hupf.pipeconf.api.UpfInterface;
import org.junit.Test;
import org.onlab.packet.Ip4Prefix;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

public class DeviceWriterTest {

    private static final List<DeviceUpdate> ONE = List.of(DeviceUpdate.apply(
            UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("10.0.0.0/24")).setCore().setSliceId(0).build()));

    private static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElse(null);
    }

    private static void awaitState(Thread t, Thread.State... states) {
        while (!List.of(states).contains(t.getState())) {
            Thread.onSpinWait();
        }
    }

    @Test
    public void closeLetsTheWriteInFlightFinishAndLeavesNoThread() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> writerThread = new AtomicReference<>();
        BatchUpfDevice slow = updates -> {
            writerThread.set(Thread.currentThread());
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                return CompletableFuture.completedFuture(WriteResult.unreachable(updates.size(), null));
            }
            return CompletableFuture.completedFuture(WriteResult.ok(updates.size()));
        };
        DeviceWriter w = new DeviceWriter("test-writer-inflight", 4, 100);
        CompletableFuture<List<WriteResult>> inFlight = w.submit(List.of(slow), ONE);
        assertTrue(entered.await(60, TimeUnit.SECONDS));
        CompletableFuture<List<WriteResult>> queued = w.submit(List.of(slow), ONE);
        Thread closer = new Thread(w::close, "test-closer");
        closer.start();
        awaitState(closer, Thread.State.TIMED_WAITING, Thread.State.WAITING);
        release.countDown();
        closer.join();
        assertTrue("the write in flight was answered, not cut off", inFlight.get().get(0).ok());
        assertTrue("a job still queued fails as unreachable", queued.get().get(0).unreachable());
        assertFalse(writerThread.get().isAlive());
        assertTrue(thread("test-writer-inflight-done") == null || !thread("test-writer-inflight-done").isAlive());
    }

    @Test
    public void closeWakesAnIdleWriter() {
        DeviceWriter w = new DeviceWriter("test-writer-idle", 4, 100);
        Thread t = thread("test-writer-idle");
        awaitState(t, Thread.State.WAITING);
        w.close();
        assertFalse(t.isAlive());
        List<WriteResult> after = w.submit(List.of(u -> CompletableFuture.completedFuture(WriteResult.ok(1))), ONE)
                .join();
        assertTrue(after.get(0).unreachable());
    }
}
