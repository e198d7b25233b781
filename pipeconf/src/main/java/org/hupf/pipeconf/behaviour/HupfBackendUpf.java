package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.HupfBatchUpf;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.upf.PiTargetException;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.p4runtime.api.P4RuntimeController;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The backend's {@link HupfBatchUpf} inside ONOS: UPF entities are written in batches straight through ONOS's
 * P4Runtime client ({@link P4RuntimeBatch}), and read back with bulk P4Runtime reads; none is an ONOS flow
 * rule ({@link HupfBackendFlowRules}). Only the device's master writes: its P4Runtime client is the primary
 * one, the device refuses the others. ONOS's driver set-up is kept between writes ({@link BackendWriteSetups}).
 */
public class HupfBackendUpf extends HupfUpfProgrammable implements HupfBatchUpf {

    /**
     * Writes the batch as one P4Runtime WriteRequest (and the retries of what it refused). Every update fails, and
     * the result is unreachable, when the device was not reached: nothing is known of what it applied.
     */
    @Override
    public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        List<UpfEntity> entities = new ArrayList<>(updates.size());
        BitSet removals = new BitSet(updates.size());
        for (int i = 0; i < updates.size(); i++) {
            entities.add(updates.get(i).entity());
            removals.set(i, updates.get(i).kind() == DeviceUpdate.Kind.DELETE);
        }
        CompletableFuture<List<UpfProgrammableException>> written;
        try {
            DeviceId device = handler().data().deviceId();
            BackendWriteSetups.Setup s = writeSetup(device);
            awaitMastership(s.mastership, device, MASTERSHIP_WAIT_MS);
            written = new P4RuntimeBatch(s.translator, device, () -> s.client.write(s.p4DeviceId, s.pipeconf),
                                         s.client::probeService, NotPrimary.BUDGET_MS, TimedOut.BUDGET_MS)
                    .write(entities, removals);
        } catch (UpfProgrammableException e) {
            written = CompletableFuture.failedFuture(e);
        } catch (PiTargetException | RuntimeException e) {
            written = CompletableFuture.failedFuture(new UpfProgrammableException(String.valueOf(e.getMessage())));
        }
        return written.handle((failures, error) -> {
            if (error == null) {
                return WriteResult.of(failures);
            }
            Throwable why = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            return WriteResult.unreachable(updates.size(), why instanceof UpfProgrammableException
                    ? (UpfProgrammableException) why : new UpfProgrammableException(String.valueOf(why)));
        });
    }

    /** The device's kept write set-up, or ONOS's driver set-up done now and kept. */
    private BackendWriteSetups.Setup writeSetup(DeviceId device) throws UpfProgrammableException {
        BackendWriteSetups.Setup kept = BackendWriteSetups.current(device);
        if (kept != null) {
            return kept;
        }
        long epoch = BackendWriteSetups.epoch();
        if (!setupBehaviour("write")) {
            throw new UpfProgrammableException("device " + device + " has no P4Runtime client or pipeconf (write)");
        }
        BackendWriteSetups.Setup fresh = new BackendWriteSetups.Setup(
                epoch, handler().get(P4RuntimeController.class), client, p4DeviceId, pipeconf,
                handler().get(MastershipService.class));
        BackendWriteSetups.keep(device, fresh);
        return fresh;
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        return upfDevice("readCounterCells").readCounterCells(cells);
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        writeOne(DeviceUpdate.apply(entity));
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        writeOne(DeviceUpdate.remove(entity));
    }

    private void writeOne(DeviceUpdate update) throws UpfProgrammableException {
        WriteResult written = write(List.of(update)).join();
        if (!written.ok()) {
            throw written.firstFailure();
        }
    }
}
