package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.PiWrites;

import org.hupf.pipeconf.upf.UpfTranslator;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateResponse;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.EntityUpdateStatus;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.UpdateType;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.WriteRequest;
import org.onosproject.p4runtime.api.P4RuntimeWriteClient.WriteResponse;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.TABLE_EXHAUSTED;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.UNKNOWN;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.UNSUPPORTED_OPERATION;

/**
 * One batch of UPF entities as P4Runtime writes through ONOS's P4Runtime client: every PI entity of the batch
 * in one WriteRequest (CONTINUE_ON_ERROR), in order; an install is an INSERT, or a MODIFY for what always
 * exists (meter cells, default entries); the INSERTs the device answers ALREADY_EXIST go again as MODIFYs in a
 * second WriteRequest ("install or overwrite"); a DELETE answered NOT_FOUND is done. An entity's outcome is
 * that of all the P4Runtime updates it became. A batch the device refuses whole because this client is not
 * its primary one ({@link NotPrimary}) is written again within a budget: nothing of it was applied, and
 * writing it again is harmless (install or overwrite, deletes of what is gone). For the same reason a batch
 * whose RPC passed ONOS's fixed deadline ({@link TimedOut}) is written again while the device answers a probe.
 */
final class P4RuntimeBatch {

    private final UpfTranslator translator;
    private final DeviceId deviceId;
    private final Supplier<WriteRequest> requests;
    private final Supplier<CompletableFuture<Boolean>> probe;
    private final long deniedBudgetMs;
    private final long timedOutBudgetMs;

    /**
     * @param translator     UPF entity to PI translator of the device's pipeline
     * @param deviceId       device, for the handles of deletions
     * @param requests         a new WriteRequest to the device on every call
     * @param probe            whether the device answers (ONOS's P4RuntimeClient.probeService)
     * @param deniedBudgetMs   how long a batch refused for want of primacy is written again
     * @param timedOutBudgetMs how long a batch that timed out on a device that answers the probe is written again
     */
    P4RuntimeBatch(UpfTranslator translator, DeviceId deviceId, Supplier<WriteRequest> requests,
                   Supplier<CompletableFuture<Boolean>> probe, long deniedBudgetMs, long timedOutBudgetMs) {
        this.translator = translator;
        this.deviceId = deviceId;
        this.requests = requests;
        this.probe = probe;
        this.deniedBudgetMs = deniedBudgetMs;
        this.timedOutBudgetMs = timedOutBudgetMs;
    }

    /** The PI updates of a batch and the entity each comes from. */
    private final class Updates {
        final WriteRequest request = requests.get();
        final List<Integer> owners = new ArrayList<>();

        void add(int owner, PiEntity entity, UpdateType type) {
            if (type == UpdateType.DELETE) {
                request.delete(entity.handle(deviceId));
            } else {
                request.entity(entity, type);
            }
            owners.add(owner);
        }
    }

    /**
     * Writes a batch (see {@link HupfBackendUpf#write}).
     *
     * @param entities entities in order
     * @param removals indexes of the entities to remove
     * @return per entity null or its failure; exceptionally an {@link UpfProgrammableException} when the
     *         device was not reached
     */
    CompletableFuture<List<UpfProgrammableException>> write(List<UpfEntity> entities, BitSet removals) {
        long now = System.nanoTime();
        return writeUntil(entities, removals, now + deniedBudgetMs * 1_000_000L, now + timedOutBudgetMs * 1_000_000L);
    }

    private CompletableFuture<List<UpfProgrammableException>> writeUntil(List<UpfEntity> entities, BitSet removals,
                                                                         long deniedDeadline, long timedOutDeadline) {
        return writeOnce(entities, removals).handle((failures, e) -> {
            Throwable cause = e instanceof CompletionException ? e.getCause() : e;
            if (e == null) {
                return CompletableFuture.completedFuture(failures);
            }
            if (cause instanceof NotPrimary
                    && System.nanoTime() + NotPrimary.RETRY_PAUSE_MS * 1_000_000L < deniedDeadline) {
                return CompletableFuture.supplyAsync(() -> null, CompletableFuture.delayedExecutor(
                        NotPrimary.RETRY_PAUSE_MS, TimeUnit.MILLISECONDS))
                        .thenCompose(v -> writeUntil(entities, removals, deniedDeadline, timedOutDeadline));
            }
            if (cause instanceof TimedOut && System.nanoTime() < timedOutDeadline) {
                return TimedOut.alive(probe).thenCompose(alive -> alive
                        ? writeUntil(entities, removals, deniedDeadline, timedOutDeadline)
                        : CompletableFuture.<List<UpfProgrammableException>>failedFuture(new UpfProgrammableException(
                                cause.getMessage() + "; the device does not answer a probe: unreachable")));
            }
            return CompletableFuture.<List<UpfProgrammableException>>failedFuture(cause);
        }).thenCompose(f -> f);
    }

    private CompletableFuture<List<UpfProgrammableException>> writeOnce(List<UpfEntity> entities, BitSet removals) {
        List<UpfProgrammableException> failures = new ArrayList<>(entities.size());
        Updates first = new Updates();
        for (int i = 0; i < entities.size(); i++) {
            failures.add(null);
            try {
                encode(first, i, entities.get(i), removals.get(i));
            } catch (PiCodecException e) {
                failures.set(i, new UpfProgrammableException("cannot express " + entities.get(i) + ": "
                                                                     + e.getMessage(), UNSUPPORTED_OPERATION));
            }
        }
        if (first.owners.isEmpty()) {
            return CompletableFuture.completedFuture(failures);
        }
        return first.request.submit().thenCompose(resp -> {
            Updates again = new Updates();
            int j = 0;
            for (EntityUpdateResponse r : checkReached(resp)) {
                int owner = first.owners.get(j++);
                if (r.status() == EntityUpdateStatus.ALREADY_EXIST && r.updateType() == UpdateType.INSERT) {
                    again.add(owner, r.entity(), UpdateType.MODIFY);
                } else if (!r.isSuccess()
                        && !(r.status() == EntityUpdateStatus.NOT_FOUND && r.updateType() == UpdateType.DELETE)) {
                    failures.set(owner, refusal(r));
                }
            }
            if (again.owners.isEmpty()) {
                return CompletableFuture.completedFuture(failures);
            }
            return again.request.submit().thenApply(resp2 -> {
                int k = 0;
                for (EntityUpdateResponse r : checkReached(resp2)) {
                    int owner = again.owners.get(k++);
                    if (!r.isSuccess()) {
                        failures.set(owner, refusal(r));
                    }
                }
                return failures;
            });
        });
    }

    private void encode(Updates updates, int owner, UpfEntity entity, boolean removal) throws PiCodecException {
        if (removal && entity instanceof UpfMeter) {
            updates.add(owner, translator.meterReset((UpfMeter) entity), UpdateType.MODIFY);
            return;
        }
        for (PiEntity pi : translator.toPi(entity)) {
            UpdateType type = removal ? UpdateType.DELETE : PiWrites.isModifyOnly(pi) ? UpdateType.MODIFY : UpdateType.INSERT;
            updates.add(owner, pi, type);
        }
    }

    /**
     * Returns the per-update responses of a WriteRequest the device answered; throws when the request itself
     * failed (ONOS's client then fails every update with the RPC's exception).
     */
    private static List<EntityUpdateResponse> checkReached(WriteResponse resp) {
        Throwable rpc = NotPrimary.rpcError(resp);
        if (rpc != null) {
            String why = "P4Runtime write not answered: " + rpc;
            throw new CompletionException(NotPrimary.isPermissionDenied(rpc) ? new NotPrimary(why)
                    : TimedOut.isDeadlineExceeded(rpc) ? new TimedOut(why) : new UpfProgrammableException(why));
        }
        return new ArrayList<>(resp.all());
    }

    private static UpfProgrammableException refusal(EntityUpdateResponse r) {
        String why = r.updateType() + " " + r.entityType() + ": " + r.status() + " " + r.explanation();
        return new UpfProgrammableException(why, why.contains("RESOURCE_EXHAUSTED") ? TABLE_EXHAUSTED : UNKNOWN);
    }
}
