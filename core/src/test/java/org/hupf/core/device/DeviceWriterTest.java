package org.hupf.core.device;

import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.junit.Test;
import org.onlab.packet.Ip4Prefix;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
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

    /**
     * A stop writes what was queued before it (a CP function's bulk deletion, say: failed, its entries would stay
     * on the devices) and takes nothing after it. The queued job is submitted before close() begins and the write
     * in flight is released only once close() waits, so a writer that stops at once fails that job here.
     */
    @Test
    public void closeWritesWhatWasQueuedBeforeItAndLeavesNoThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GatedDevice gated = new GatedDevice(release);
        BatchUpfDevice slow = gated.device;
        DeviceWriter w = new DeviceWriter("test-writer-inflight", 4, 100);
        CompletableFuture<List<WriteResult>> inFlight = w.submit(List.of(slow), ONE);
        assertTrue(gated.entered.await(60, TimeUnit.SECONDS));
        Thread writerThread = thread("test-writer-inflight");
        CompletableFuture<List<WriteResult>> queued = w.submit(List.of(slow), ONE);
        Thread closer = new Thread(w::close, "test-closer");
        closer.start();
        awaitState(closer, Thread.State.TIMED_WAITING, Thread.State.WAITING);
        release.countDown();
        closer.join();
        assertTrue("the write in flight was answered, not cut off", inFlight.get().get(0).ok());
        assertTrue("the job queued before the stop was written", queued.get().get(0).ok());
        assertEquals(2, gated.sizes.size());
        assertTrue("a job after the stop fails at once", w.submit(List.of(slow), ONE).get().get(0).unreachable());
        assertFalse(writerThread.isAlive());
    }

    /**
     * A completion runs on the writer's thread and may submit (a rollback) while the queue is full: it must not
     * wait for room there, the writer being the only thread that makes room. With completions inline and a
     * submission that waited for room, this test times out.
     */
    @Test
    public void aCompletionSubmittingToTheFullQueueDoesNotWaitOnItsWriter() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GatedDevice gated = new GatedDevice(release);
        try (DeviceWriter w = new DeviceWriter("test-writer-rollback", 1, 100)) {
            CompletableFuture<List<WriteResult>> first = w.submit(List.of(gated.device), ONE);
            assertTrue(gated.entered.await(60, TimeUnit.SECONDS));
            CompletableFuture<List<WriteResult>> filling = w.submit(List.of(gated.device), ONE);
            CompletableFuture<List<WriteResult>> rollback = first.thenCompose(
                    r -> w.submit(List.of(gated.device), ONE));
            release.countDown();
            assertTrue(filling.get(60, TimeUnit.SECONDS).get(0).ok());
            assertTrue("the completion's submission was written", rollback.get(60, TimeUnit.SECONDS).get(0).ok());
            assertEquals("the completion's submission went out behind the job queued before it, in one write",
                         List.of(1, 2), gated.sizes);
        }
    }

    @Test
    public void aCompletionThatThrowsCostsItsOwnJobOnly() throws Exception {
        BatchUpfDevice device = u -> CompletableFuture.completedFuture(WriteResult.ok(u.size()));
        try (DeviceWriter w = new DeviceWriter("test-writer-throws", 4, 100)) {
            CompletableFuture<Void> failing = w.submit(List.of(device), ONE).thenAccept(r -> {
                throw new IllegalStateException("a caller's bug");
            });
            assertTrue(failing.handle((x, e) -> e).get(60, TimeUnit.SECONDS) != null);
            assertTrue("the writer goes on", w.submit(List.of(device), ONE).get(60, TimeUnit.SECONDS).get(0).ok());
            assertTrue(thread("test-writer-throws").isAlive());
        }
    }

    @Test
    public void aProducerWaitsToBeAdmittedUntilAnAdmittedChangeSettled() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GatedDevice gated = new GatedDevice(release);
        try (DeviceWriter w = new DeviceWriter("test-writer-room", 1, 100)) {
            w.admit();
            w.submit(List.of(gated.device), ONE).whenComplete((r, e) -> w.settled());
            assertTrue(gated.entered.await(60, TimeUnit.SECONDS));
            Thread producer = new Thread(() -> {
                try {
                    w.admit();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }, "test-producer");
            producer.start();
            awaitState(producer, Thread.State.WAITING);
            assertEquals("the admitted change's batch is being written, none queued", 0, w.queued());
            release.countDown();
            producer.join(60_000);
            assertFalse("admitted once the first change settled", producer.isAlive());
        }
    }

    /** A completion runs on the writer's thread: waiting there to be admitted would wait on its own settlements. */
    @Test
    public void aCompletionIsNeverAdmitted() throws Exception {
        // The write waits until the completion is attached, so that the writer's thread runs it (not this one).
        CountDownLatch attached = new CountDownLatch(1);
        BatchUpfDevice device = u -> {
            try {
                assertTrue(attached.await(60, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            return CompletableFuture.completedFuture(WriteResult.ok(u.size()));
        };
        try (DeviceWriter w = new DeviceWriter("test-writer-admit", 1, 100)) {
            CompletableFuture<Throwable> refused = w.submit(List.of(device), ONE).thenApply(r -> {
                try {
                    w.admit();
                    return null;
                } catch (IllegalStateException | InterruptedException e) {
                    return e;
                }
            });
            attached.countDown();
            assertTrue(refused.get(60, TimeUnit.SECONDS) instanceof IllegalStateException);
        }
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

    /** A device whose writes wait for a release; it notes the size of every write. */
    private static final class GatedDevice {
        final CountDownLatch entered = new CountDownLatch(1);
        final List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        final BatchUpfDevice device;

        GatedDevice(CountDownLatch release) {
            device = updates -> {
                sizes.add(updates.size());
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    return CompletableFuture.completedFuture(WriteResult.unreachable(updates.size(), null));
                }
                return CompletableFuture.completedFuture(WriteResult.ok(updates.size()));
            };
        }
    }

    @Test
    public void jobsQueuedDuringAWriteGoOutAsOneWriteUpToTheBound() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GatedDevice gated = new GatedDevice(release);
        BatchUpfDevice device = gated.device;
        try (DeviceWriter w = new DeviceWriter("test-writer-burst", 16, 3)) {
            CompletableFuture<List<WriteResult>> first = w.submit(List.of(device), ONE);
            assertTrue(gated.entered.await(60, TimeUnit.SECONDS));
            List<CompletableFuture<List<WriteResult>>> burst = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                burst.add(w.submit(List.of(device), ONE));
            }
            release.countDown();
            assertTrue(first.get().get(0).ok());
            for (CompletableFuture<List<WriteResult>> f : burst) {
                assertTrue("each job gets its slice of the merged write's result", f.get().get(0).ok());
            }
            assertEquals("one write for the first job, the burst in writes of at most 3 updates",
                         List.of(1, 3, 2), gated.sizes);
            assertArrayEquals("writes sent, jobs carried", new long[] {3, 6}, w.counts());
        }
    }

    @Test
    public void jobsForOtherDevicesAreNotMergedIntoAWrite() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GatedDevice gatedA = new GatedDevice(release);
        GatedDevice gatedB = new GatedDevice(release);
        BatchUpfDevice a = gatedA.device;
        BatchUpfDevice b = gatedB.device;
        try (DeviceWriter w = new DeviceWriter("test-writer-devices", 16, 100)) {
            w.submit(List.of(a), ONE);
            assertTrue(gatedA.entered.await(60, TimeUnit.SECONDS));
            CompletableFuture<List<WriteResult>> toA = w.submit(List.of(a), ONE);
            CompletableFuture<List<WriteResult>> toB = w.submit(List.of(b), ONE);
            CompletableFuture<List<WriteResult>> toA2 = w.submit(List.of(a), ONE);
            release.countDown();
            assertTrue(toA.get().get(0).ok());
            assertTrue(toB.get().get(0).ok());
            assertTrue(toA2.get().get(0).ok());
            assertEquals("the queue's order is kept: a job for another device ends the merge",
                         List.of(1, 1, 1), gatedA.sizes);
            assertEquals(List.of(1), gatedB.sizes);
        }
    }

    /**
     * A write's completions settle under one acquisition of the settlements' lock; what follows a settlement (the
     * answer) runs after all of them, without the lock; a wake-up asked for by each answer runs once, at the end.
     */
    @Test(timeout = 60_000)
    public void aWritesSettlementsShareTheLockAndTheirAnswersFollowWithoutIt() throws Exception {
        Object lock = new Object();
        CountDownLatch release = new CountDownLatch(1);
        GatedDevice gated = new GatedDevice(release);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch wokenUp = new CountDownLatch(1);
        Runnable wakeUp = () -> {
            events.add("wake-up");
            wokenUp.countDown();
        };
        try (DeviceWriter w = new DeviceWriter("test-writer-settle", 16, 100, lock)) {
            w.submit(List.of(gated.device), ONE);
            assertTrue(gated.entered.await(60, TimeUnit.SECONDS));
            for (int i = 0; i < 3; i++) {
                String n = String.valueOf(i);
                CompletableFuture<String> settled = w.submit(List.of(gated.device), ONE).thenApply(r -> {
                    events.add("settle " + n + locked(lock));
                    return "answer " + n;
                });
                WriterBurst.afterSettling(settled).thenAccept(answer -> {
                    events.add(answer + locked(lock));
                    WriterBurst.atEnd(wakeUp);
                });
            }
            release.countDown();
            wokenUp.await();
            assertEquals("the three batches were one write", List.of(1, 3), gated.sizes);
            assertEquals(List.of("settle 0 locked", "settle 1 locked", "settle 2 locked", "answer 0 unlocked",
                                 "answer 1 unlocked", "answer 2 unlocked", "wake-up"), events);
        }
        AtomicBoolean ranAtOnce = new AtomicBoolean();
        WriterBurst.atEnd(() -> ranAtOnce.set(true));
        assertTrue("outside the writer's thread, a wake-up runs at once", ranAtOnce.get());
    }

    private static String locked(Object lock) {
        return Thread.holdsLock(lock) ? " locked" : " unlocked";
    }

    /** A writer of a stream waits up to a minute for more batches: only a burst's arrival can end its wait early. */
    private static DeviceWriter patientWriter(String name, int burst) {
        long minute = TimeUnit.MINUTES.toNanos(1);
        return new DeviceWriter(name, 16, 100, burst, minute, minute, null);
    }

    @Test(timeout = 60_000)
    public void aBatchArrivingWhileAStreamWaitsForMoreJoinsItsWrite() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GatedDevice gated = new GatedDevice(release);
        try (DeviceWriter w = patientWriter("test-writer-stream", 2)) {
            w.submit(List.of(gated.device), ONE);
            assertTrue(gated.entered.await(60, TimeUnit.SECONDS));
            CompletableFuture<List<WriteResult>> second = w.submit(List.of(gated.device), ONE);
            release.countDown();
            awaitState(thread("test-writer-stream"), Thread.State.TIMED_WAITING);
            CompletableFuture<List<WriteResult>> third = w.submit(List.of(gated.device), ONE);
            assertTrue(second.get().get(0).ok());
            assertTrue(third.get().get(0).ok());
            assertEquals("the batch queued during the first write waited for the next one: a burst of two",
                         List.of(1, 2), gated.sizes);
        }
    }

    @Test
    public void aBatchFindingTheWriterIdleIsWrittenWithoutWaitingForMore() throws Exception {
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        BatchUpfDevice device = updates -> {
            sizes.add(updates.size());
            return CompletableFuture.completedFuture(WriteResult.ok(updates.size()));
        };
        try (DeviceWriter w = patientWriter("test-writer-lone", 100)) {
            Thread t = thread("test-writer-lone");
            for (int i = 0; i < 3; i++) {
                awaitState(t, Thread.State.WAITING);
                assertTrue(w.submit(List.of(device), ONE).get(30, TimeUnit.SECONDS).get(0).ok());
            }
            assertEquals(List.of(1, 1, 1), sizes);
        }
    }
}
