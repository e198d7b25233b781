package org.hupf.standalone.p4rt;

import org.hupf.core.device.BatchDevices;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.core.device.CellChanges;
import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.runtime.PiEntity;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link P4RuntimeUpfDevice} whose applies can be gathered into large Writes: inside {@link #batched},
 * the calling thread's applies are queued and written {@value #BATCH} entities per Write, one entity type at
 * a time (a read, a delete or another type first writes what is queued). Putting 10,000 sessions back on a
 * restarted device is then tens of Writes instead of tens of thousands. Other threads, and every call
 * outside {@link #batched}, go straight to the device.
 */
public final class BatchingUpfDevice implements HupfUpfDevice, BatchUpfDevice, CounterCellReader {

    static final int BATCH = 1000;

    /** Work whose device calls are batched. */
    public interface Work {
        /**
         * Runs the work.
         *
         * @throws Exception on failure
         */
        void run() throws Exception;
    }

    private final P4RuntimeUpfDevice device;
    private final UpfTranslator translator;
    private final List<PiEntity> queued = new ArrayList<>();
    private volatile Thread batching;
    private UpfEntityType queuedType;
    private long queuedFailures;
    private String firstFailure;

    /**
     * Wraps a device.
     *
     * @param device device
     */
    public BatchingUpfDevice(P4RuntimeUpfDevice device) {
        this.device = device;
        this.translator = new UpfTranslator(device.model());
    }

    /**
     * Runs work with this thread's applies batched, then writes what is still queued.
     *
     * @param work work
     * @throws Exception what the work threw, or an {@link UpfProgrammableException} if a batched Write failed
     */
    public synchronized void batched(Work work) throws Exception {
        batching = Thread.currentThread();
        queuedFailures = 0;
        firstFailure = null;
        try {
            work.run();
            flush();
        } finally {
            batching = null;
            queued.clear();
            queuedType = null;
        }
        if (queuedFailures > 0) {
            throw new UpfProgrammableException(queuedFailures + " batched entities not written: " + firstFailure);
        }
    }

    private boolean isBatching() {
        return batching == Thread.currentThread();
    }

    /** Writes what is queued; a failure is remembered for {@link #batched} to report. */
    private void flush() {
        if (queued.isEmpty()) {
            return;
        }
        try {
            device.target().write(queued);
        } catch (PiTargetException e) {
            queuedFailures += queued.size();
            if (firstFailure == null) {
                firstFailure = e.getMessage();
            }
        }
        queued.clear();
        queuedType = null;
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        if (!isBatching()) {
            device.apply(entity);
            return;
        }
        if (entity.type() != queuedType) {
            flush();
            queuedType = entity.type();
        }
        try {
            queued.addAll(translator.toPi(entity));
        } catch (PiCodecException e) {
            throw new UpfProgrammableException("cannot express " + entity + ": " + e.getMessage());
        }
        if (queued.size() >= BATCH) {
            flush();
        }
    }

    /**
     * A session change's batch goes to the device as it is (one Write); inside {@link #batched}, the
     * calling thread's updates join the queue like its applies (the work reports a failed Write).
     */
    @Override
    public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        if (isBatching()) {
            return CompletableFuture.completedFuture(BatchDevices.writeEach(this, updates));
        }
        return device.write(updates);
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        if (isBatching()) {
            flush();
        }
        device.delete(entity);
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        if (isBatching()) {
            flush();
        }
        return device.readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        return device.readCounter(cellId);
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        return device.readCounters(maxCounterId);
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        return device.readCounterCells(cells);
    }

    @Override
    public CellChanges readChangedCells(int maxCell, CellChanges since) throws UpfProgrammableException {
        return device.readChangedCells(maxCell, since);
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        return device.tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        if (isBatching()) {
            flush();
        }
        device.deleteAll(type);
    }

    @Override
    public String toString() {
        return device.toString();
    }
}
