package org.hupf.core.device;

import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The device programming pipeline: batches (the updates of one PFCP message, say) are queued in the
 * order they are submitted and written by one thread, which coalesces the batches waiting in the queue, and
 * those of a burst still arriving, into one device write, up to a number of updates.
 *
 * <p>Futures complete on the writer's thread, right after their write: the caller's completion (settling a
 * session, encoding its answer) runs there, and the batches that arrive meanwhile make the next write bigger. A
 * write's completions run as one burst ({@link WriterBurst}): their settlements under one acquisition of the
 * settlements' lock, then what follows them, then one wake-up of each thread they woke.
 * A completion must not wait for the writer (it would wait on itself); it may submit (a rollback), and
 * {@link #submit} never waits: it queues behind what is already queued, so the order of submissions is the order
 * of writes. The queue is bounded where changes enter, not where they queue: {@link #admit} lets a bounded number
 * of changes be under way at once and waits, before the caller takes any lock a completion takes, until one of
 * them is {@link #settled}; each admitted change queues a bounded number of batches. A producer that waited for
 * room holding such a lock would stop the writer's completions, hence the writer, hence the room it waits for.
 *
 * <p>A device's cost follows its writes more than the updates in them (a write costs a frame, system calls, a
 * wake-up of the device's agent and its commit). Batches arrive as a stream when some arrived while the last write
 * was under way, or when they arrive on average more often than a write takes: the writer then keeps collecting
 * until a burst's worth of batches is there, for at most the last write's duration with its completions (bounded),
 * so that a burst is not cut short by a device that answers fast. Batches that come one at a time are written at
 * once.
 */
public final class DeviceWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeviceWriter.class);
    /** Longest a stream's write waits for more batches: bounds what coalescing adds to a request's latency. */
    private static final long MAX_COALESCE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** Batches after which a stream's write goes without waiting for more: a write then costs the device little per
     *  batch (a frame and a commit shared by this many requests). */
    private static final int BURST = 16;

    private final BlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    /** Changes that may be under way at once: {@link #admit} takes one, {@link #settled} gives it back. */
    private final Semaphore admissions;
    private final int maxUpdatesPerWrite;
    private final Thread writer;
    private final WriterBurst completions;
    private final int burst;
    private final long minCoalesceNanos;
    private final long maxCoalesceNanos;
    private volatile boolean running = true;
    /** Whether {@link #submit} still queues: false from the start of {@link #close}. */
    private volatile boolean accepting = true;
    private long writes;
    private long batches;
    /** Wall time of the last write with its completions: how long the next one of a stream may wait for more. */
    private long lastWriteNanos;
    /** When the last batch was submitted, and a moving average of the time between submissions (each new gap 1/8). */
    private final AtomicLong lastSubmitNanos = new AtomicLong(System.nanoTime());
    private volatile long meanGapNanos = TimeUnit.SECONDS.toNanos(1);
    /** Batches that end the writer's wait for more (0: not waiting); {@link #submit} wakes it once they arrived. */
    private volatile int awaited;
    private final AtomicInteger arrived = new AtomicInteger();

    private static final class Job {
        final List<BatchUpfDevice> devices;
        final List<DeviceUpdate> updates;
        final CompletableFuture<List<WriteResult>> done = new CompletableFuture<>();

        /** Runs the caller's completion here; one that throws costs its own job, never the writer. */
        void complete(List<WriteResult> results) {
            try {
                done.complete(results);
            } catch (RuntimeException e) {
                log.error("a device write's completion failed", e);
            }
        }

        Job(List<BatchUpfDevice> devices, List<DeviceUpdate> updates) {
            this.devices = devices;
            this.updates = updates;
        }
    }

    /** Queued by close(): wakes a writer waiting for work, after the jobs queued before it. */
    private static final Job STOP = new Job(List.of(), List.of());

    /**
     * Starts the writer thread.
     *
     * @param name               name for the threads
     * @param admissions         changes that may be under way at once before {@link #admit} holds producers up
     * @param maxUpdatesPerWrite updates beyond which no further batch is merged into a write
     */
    public DeviceWriter(String name, int admissions, int maxUpdatesPerWrite) {
        this(name, admissions, maxUpdatesPerWrite, null);
    }

    /**
     * As {@link #DeviceWriter(String, int, int)}, a write's completions run holding {@code settleLock} (see {@link
     * WriterBurst}): the lock their settlements take, once for all of them.
     */
    public DeviceWriter(String name, int admissions, int maxUpdatesPerWrite, Object settleLock) {
        this(name, admissions, maxUpdatesPerWrite, BURST, 0, MAX_COALESCE_NANOS, settleLock);
    }

    /**
     * As {@link #DeviceWriter(String, int, int)}, a stream's write waiting for {@code burst} batches instead of
     * {@value #BURST}, for a time bounded by {@code minCoalesceNanos} and {@code maxCoalesceNanos} instead of 0 and
     * {@value #MAX_COALESCE_NANOS} ns.
     */
    DeviceWriter(String name, int admissions, int maxUpdatesPerWrite, int burst, long minCoalesceNanos,
                 long maxCoalesceNanos, Object settleLock) {
        this.admissions = new Semaphore(admissions);
        this.maxUpdatesPerWrite = maxUpdatesPerWrite;
        this.burst = burst;
        this.minCoalesceNanos = minCoalesceNanos;
        this.maxCoalesceNanos = maxCoalesceNanos;
        this.completions = new WriterBurst(settleLock);
        this.writer = new WriterBurst.WriterThread(this::run, name, completions);
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Admits one change, waiting while the admitted changes not yet {@link #settled} are as many as the writer
     * admits: the producers slow down to the devices' pace. Call it holding no lock a completion takes, and never
     * from a completion (the writer's thread would wait for its own settlements).
     *
     * @throws InterruptedException when interrupted while waiting (nothing admitted)
     * @throws IllegalStateException on the writer's thread
     */
    public void admit() throws InterruptedException {
        if (Thread.currentThread() == writer) {
            throw new IllegalStateException("a device write's completion started a change: it would wait for itself");
        }
        admissions.acquire();
    }

    /** Gives back the admission of a change that settled (its batches written, its future completed). */
    public void settled() {
        admissions.release();
    }

    /** @return batches queued and not yet taken into a write */
    public int queued() {
        return queue.size();
    }

    /**
     * Queues a batch for every device, behind those queued before; never waits (see {@link #admit}).
     *
     * @param devices devices to write, each gets all updates
     * @param updates updates, in order
     * @return one result per device, in the order of {@code devices}, when every device answered
     */
    public CompletableFuture<List<WriteResult>> submit(List<BatchUpfDevice> devices, List<DeviceUpdate> updates) {
        Job job = new Job(List.copyOf(devices), List.copyOf(updates));
        if (updates.isEmpty() || devices.isEmpty()) {
            job.done.complete(Collections.nCopies(devices.size(), WriteResult.ok(updates.size())));
            return job.done;
        }
        if (accepting) {
            long now = System.nanoTime();
            long gap = now - lastSubmitNanos.getAndSet(now);
            meanGapNanos += (gap - meanGapNanos) >> 3; // racing submitters may lose a sample: it is an average
            queue.add(job);
            int wanted = awaited;
            if (wanted > 0 && arrived.incrementAndGet() >= wanted) {
                LockSupport.unpark(writer);
            }
            return job.done;
        }
        job.done.complete(Collections.nCopies(devices.size(), WriteResult.unreachable(
                updates.size(), new UpfProgrammableException("device writer stopped"))));
        return job.done;
    }

    private void run() {
        boolean stream = false;
        while (running) {
            List<Job> jobs = new ArrayList<>();
            try {
                Job first = queue.take();
                if (first == STOP) {
                    break;
                }
                jobs.add(first);
            } catch (InterruptedException e) {
                break;
            }
            int updates = gather(jobs, jobs.get(0).updates.size());
            if (jobs.size() < burst && updates < maxUpdatesPerWrite && (stream || meanGapNanos < lastWriteNanos)) {
                updates = coalesce(jobs, updates);
            }
            long started = System.nanoTime();
            write(jobs, updates);
            lastWriteNanos = System.nanoTime() - started;
            stream = !queue.isEmpty();
        }
        drainStopped();
    }

    /**
     * Waits, as the next write of a stream, for more batches: until a burst's worth is there, for at most the last
     * write's duration (within the bounds); then gathers them as {@link #gather} does.
     *
     * @return updates in the gathered jobs
     */
    private int coalesce(List<Job> jobs, int updates) {
        long deadline = System.nanoTime() + Math.max(minCoalesceNanos, Math.min(lastWriteNanos, maxCoalesceNanos));
        arrived.set(queue.size());
        awaited = burst - jobs.size();
        long left;
        while (running && arrived.get() < awaited && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(this, left);
        }
        awaited = 0;
        return gather(jobs, updates);
    }

    /**
     * Adds to {@code jobs} (holding {@code updates} so far) the jobs queued behind them for the same devices, up to
     * {@link #maxUpdatesPerWrite} updates. While jobs keep arriving, the producers are mid-burst (the requests
     * an SMF sent together, being decoded): the writer yields the processor to them and looks again, so that the
     * burst goes out as one device write; yielding costs a system call when no burst is under way.
     *
     * @return updates in the gathered jobs
     */
    private int gather(List<Job> jobs, int updates) {
        List<BatchUpfDevice> devices = jobs.get(0).devices;
        int taken;
        do {
            Thread.yield();
            taken = 0;
            Job next;
            while (updates < maxUpdatesPerWrite && (next = queue.peek()) != null && next.devices.equals(devices)) {
                jobs.add(queue.poll());
                updates += next.updates.size();
                taken++;
            }
        } while (taken > 0 && updates < maxUpdatesPerWrite);
        return updates;
    }

    /** Writes the merged updates of jobs with the same devices to each device, then splits the results. */
    private void write(List<Job> jobs, int updates) {
        List<DeviceUpdate> merged = new ArrayList<>(updates);
        jobs.forEach(j -> merged.addAll(j.updates));
        List<BatchUpfDevice> devices = jobs.get(0).devices;
        WriteResult[] results = new WriteResult[devices.size()];
        for (int k = 0; k < results.length; k++) {
            results[k] = writeOne(devices.get(k), merged);
        }
        synchronized (this) {
            writes += devices.size();
            batches += jobs.size();
        }
        completions.complete(() -> {
            int from = 0;
            for (Job j : jobs) {
                int to = from + j.updates.size();
                j.complete(slices(results, from, to));
                from = to;
            }
        });
    }

    /** @return each device's result for updates from (inclusive) to to (exclusive), in the devices' order */
    private static List<WriteResult> slices(WriteResult[] results, int from, int to) {
        if (results.length == 1) {
            return List.of(results[0].slice(from, to));   // one device, the common case: no list to fill
        }
        WriteResult[] slices = new WriteResult[results.length];
        for (int k = 0; k < results.length; k++) {
            slices[k] = results[k].slice(from, to);
        }
        return List.of(slices);
    }

    private static WriteResult writeOne(BatchUpfDevice d, List<DeviceUpdate> merged) {
        try {
            return d.write(merged).join();
        } catch (RuntimeException e) {
            // A device must answer with a WriteResult; anything else is a bug that must cost this write only.
            log.error("device {} failed a write of {} updates", d, merged.size(), e);
            return WriteResult.unreachable(merged.size(), new UpfProgrammableException(String.valueOf(e)));
        }
    }

    /** @return the batches failed */
    private int drainStopped() {
        int failed = 0;
        Job j;
        while ((j = queue.poll()) != null) {
            if (j != STOP) {
                failed++;
            }
            j.done.complete(Collections.nCopies(j.devices.size(), WriteResult.unreachable(
                    j.updates.size(), new UpfProgrammableException("device writer stopped"))));
        }
        return failed;
    }

    /** @return device writes sent and batches they carried, for stats: {writes, batches} */
    public synchronized long[] counts() {
        return new long[] {writes, batches};
    }

    /**
     * Stops the writer once it has written what was queued before (a CP function's bulk deletion, say) and taken
     * no more: a write is never cut off mid-way (the device would hold an unknown part of it). Bounded by
     * {@link Shutdowns#DEFAULT_BOUND_MS}; what is still queued then fails as if the devices were unreachable.
     */
    @Override
    public void close() {
        accepting = false;
        queue.add(STOP);
        LockSupport.unpark(writer);
        boolean finished = Shutdowns.join(writer);
        running = false;
        LockSupport.unpark(writer);
        int failed = drainStopped();
        if (!finished) {
            log.error("{} batches were still queued for the devices when the writer had to stop: they failed as "
                              + "unreachable (reconciliation puts the devices back to the store)", failed);
        }
    }
}
