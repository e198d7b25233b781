package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.HupfBatchUpf;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

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
 * one, the device refuses the others.
 */
public class HupfBackendUpf extends HupfUpfProgrammable implements HupfBatchUpf {

    @Override
    public CompletableFuture<List<UpfProgrammableException>> write(List<UpfEntity> entities, BitSet removals) {
        try {
            piTarget("write");
            awaitMastership(handler().get(MastershipService.class), deviceId, MASTERSHIP_WAIT_MS);
            return new P4RuntimeBatch(new UpfTranslator(pipeconf.pipelineModel()), deviceId,
                                      () -> client.write(p4DeviceId, pipeconf), client::probeService,
                                      NotPrimary.BUDGET_MS, TimedOut.BUDGET_MS)
                    .write(entities, removals);
        } catch (UpfProgrammableException e) {
            return CompletableFuture.failedFuture(e);
        } catch (PiTargetException e) {
            return CompletableFuture.failedFuture(new UpfProgrammableException(e.getMessage()));
        }
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        return upfDevice("readCounterCells").readCounterCells(cells);
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        writeOne(entity, false);
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        writeOne(entity, true);
    }

    private void writeOne(UpfEntity entity, boolean removal) throws UpfProgrammableException {
        BitSet removals = new BitSet(1);
        removals.set(0, removal);
        UpfProgrammableException failure;
        try {
            failure = write(List.of(entity), removals).join().get(0);
        } catch (CompletionException e) {
            throw e.getCause() instanceof UpfProgrammableException ? (UpfProgrammableException) e.getCause()
                    : new UpfProgrammableException(String.valueOf(e.getCause()));
        }
        if (failure != null) {
            throw failure;
        }
    }
}
