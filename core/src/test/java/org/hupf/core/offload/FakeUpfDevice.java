package org.hupf.core.offload;

import org.hupf.core.device.BatchDevices;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.core.device.CellChanges;
import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertTrue;

/**
 * The in-memory device with a write log, injectable write and counter read failures, counted counter
 * reads and a bulk counter read that can be held: the runtime boundary of the offload manager in its
 * unit tests.
 */
public final class FakeUpfDevice implements HupfUpfDevice, BatchUpfDevice, CounterCellReader {

    private final InMemoryUpfDevice mem;
    final List<String> log = new ArrayList<>();
    UpfEntityType failApplyOf;
    final AtomicInteger singleReads = new AtomicInteger();
    final AtomicInteger bulkReads = new AtomicInteger();
    /** Reads of a set of cells in one request ({@link CounterCellReader}). */
    final AtomicInteger cellSetReads = new AtomicInteger();
    volatile boolean failReads;
    /** Whether it answers changed-cells reads (as hupf-backend's agent), else it reads in full. */
    volatile boolean changedReads;
    /** Cells the changed-cells reads returned. */
    final AtomicInteger changedCellsReturned = new AtomicInteger();
    private final Map<Integer, UpfCounter> snapshot = new HashMap<>();
    private long snapshotToken;
    private volatile boolean holding;
    private CountDownLatch reading;
    private CountDownLatch release;

    /** Whether its writes wait, unanswered, until the test releases them ({@link #releaseHeldWrite}). */
    volatile boolean holdWrites;
    private final Queue<Runnable> heldWrites = new ConcurrentLinkedQueue<>();

    /** Whether its writes return the final counts of the terminations they delete (as hupf-backend's agent). */
    volatile boolean finalCountsWithWrites;

    public FakeUpfDevice(long sessions, long counterCells, long meterCells) {
        mem = new InMemoryUpfDevice("fake", sessions, counterCells, meterCells);
    }

    /**
     * @param capacity sessions, counter and meter cells
     * @return a device whose writes return the final counts of the terminations they delete
     */
    public static FakeUpfDevice withFinalCounts(long capacity) {
        FakeUpfDevice d = new FakeUpfDevice(capacity, capacity, capacity);
        d.finalCountsWithWrites = true;
        return d;
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        if (entity.type() == failApplyOf) {
            throw new UpfProgrammableException("injected failure on " + entity.type());
        }
        mem.apply(entity);
        log.add("apply " + entity.type());
    }

    /** The entities of each in-order write and removal ({@link #applyInOrder}, {@link #deleteInOrder}). */
    final List<List<UpfEntity>> inOrderApplies = new ArrayList<>();
    final List<List<UpfEntity>> inOrderDeletes = new ArrayList<>();

    @Override
    public void applyInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        inOrderApplies.add(List.copyOf(entities));
        HupfUpfDevice.super.applyInOrder(entities);
    }

    @Override
    public void deleteInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        inOrderDeletes.add(List.copyOf(entities));
        HupfUpfDevice.super.deleteInOrder(entities);
    }

    @Override
    public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        if (!holdWrites) {
            return writeNow(updates);
        }
        CompletableFuture<WriteResult> answer = new CompletableFuture<>();
        heldWrites.add(() -> writeNow(updates).thenAccept(answer::complete));
        return answer;
    }

    /** @return writes held and not yet let through */
    int heldWrites() {
        return heldWrites.size();
    }

    /** Lets the oldest held write through: applied, and its future completed, on a thread of its own. */
    void releaseHeldWrite() throws InterruptedException {
        Thread device = new Thread(heldWrites.remove(), "fake-device-answer");
        device.start();
        device.join();
    }

    private CompletableFuture<WriteResult> writeNow(List<DeviceUpdate> updates) {
        WriteResult written = BatchDevices.writeEach(this, updates);
        if (!finalCountsWithWrites) {
            return CompletableFuture.completedFuture(written);
        }
        Map<Integer, UpfCounter> counts = new HashMap<>();
        for (DeviceUpdate u : updates) {
            int cell = u.kind() != DeviceUpdate.Kind.DELETE ? -1
                    : u.entity() instanceof UpfTerminationUplink ? ((UpfTerminationUplink) u.entity()).counterId()
                    : u.entity() instanceof UpfTerminationDownlink ? ((UpfTerminationDownlink) u.entity()).counterId()
                    : -1;
            if (cell >= 0) {
                try {
                    counts.put(cell, mem.readCounter(cell));
                } catch (UpfProgrammableException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return CompletableFuture.completedFuture(written.withFinalCounts(counts));
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        if (mem.holds(entity)) {
            log.add("delete " + entity.type());
        }
        mem.delete(entity);
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return mem.readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        singleReads.incrementAndGet();
        return mem.readCounter(cellId);
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        bulkReads.incrementAndGet();
        if (failReads) {
            throw new UpfProgrammableException("injected read failure");
        }
        // Read first, then wait: what the reader gets is what the device held when it read.
        Collection<UpfCounter> cells = mem.readCounters(maxCounterId);
        if (holding) {
            holding = false;
            reading.countDown();
            try {
                assertTrue("held bulk read released", release.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return cells;
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        cellSetReads.incrementAndGet();
        if (failReads) {
            throw new UpfProgrammableException("injected read failure");
        }
        Map<Integer, UpfCounter> out = new HashMap<>();
        for (int c : cells) {
            out.put(c, mem.readCounter(c));
        }
        return out;
    }

    /** As the agent: the cells that differ from the snapshot the token names, else every non-zero cell. */
    @Override
    public synchronized CellChanges readChangedCells(int maxCell, CellChanges since) throws UpfProgrammableException {
        if (!changedReads) {
            return null;
        }
        if (failReads) {
            throw new UpfProgrammableException("injected read failure");
        }
        boolean complete = since == null || !Long.valueOf(snapshotToken).equals(since.token());
        if (complete) {
            snapshot.clear();
        }
        List<UpfCounter> out = new ArrayList<>();
        for (UpfCounter c : mem.readCounters(-1)) {
            UpfCounter last = snapshot.get(c.cellId());
            long[] was = last == null ? new long[4] : SwitchCounts.values(last);
            if (!Arrays.equals(was, SwitchCounts.values(c))) {
                out.add(c);
                snapshot.put(c.cellId(), c);
            }
        }
        changedCellsReturned.addAndGet(out.size());
        return new CellChanges(complete, out, ++snapshotToken);
    }

    /** Makes the next bulk counter read wait, after reading, until {@link #releaseBulkRead}. */
    public void holdNextBulkRead() {
        reading = new CountDownLatch(1);
        release = new CountDownLatch(1);
        holding = true;
    }

    /** Waits until the held bulk read has read. */
    public void awaitBulkRead() throws InterruptedException {
        assertTrue("a bulk counter read", reading.await(10, TimeUnit.SECONDS));
    }

    public void releaseBulkRead() {
        release.countDown();
    }

    @Override
    public long tableSize(UpfEntityType type) {
        return mem.tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        mem.deleteAll(type);
    }

    public int count(UpfEntityType type) {
        return mem.count(type);
    }

    public boolean holds(UpfEntity keyOf) {
        return mem.holds(keyOf);
    }

    /** One uplink packet; false on a session miss (the switch would steer it to the backend). */
    public boolean countUplink(UpfSessionUplink key, Ip4Address ue, long bytes) {
        return mem.countUplink(key, ue, 1, bytes);
    }

    public void setCounter(int cell, long pkts, long bytes) {
        mem.setCounter(UpfCounter.builder().withCellId(cell).setIngress(pkts, bytes).setEgress(pkts, bytes).build());
    }
}
