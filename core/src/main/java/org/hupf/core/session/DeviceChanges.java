package org.hupf.core.session;

import org.hupf.api.session.Cause;
import org.hupf.api.session.RuleException;
import org.hupf.core.device.BatchDevices;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.core.device.DeviceWriter;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfInterface;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The device side of {@link SessionManager}'s changes: each change queued as one batch per device of the session's
 * site to the {@link DeviceWriter} (which keeps the order in which changes were settled), its outcome turned into
 * the cause to answer, and a refused change rolled back. Its methods that queue are called under the manager's lock.
 */
final class DeviceChanges implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeviceChanges.class);

    /**
     * Changes under way at once before requests wait to be admitted. Each queues at most three batches (its own,
     * the counter resets for the other sites, a rollback), so the writer's queue holds at most three times this
     * many beside a CP function's bulk deletion (one batch per chunk of its sessions).
     */
    static final int ADMITTED_CHANGES = 4096;
    /** Updates beyond which the writer sends what it merged: bounds one P4Runtime WriteRequest. */
    private static final int MAX_UPDATES_PER_WRITE = 2048;

    private final Supplier<Collection<HupfUpfDevice>> devices;
    private final SessionSites sites;
    private final SiteRefs held;
    private final AtomicLong deviceErrors;
    private final DeviceWriter writer;

    /** @param lock the manager's lock, which settlements take: a write's completions take it once for all */
    DeviceChanges(Object lock, Supplier<Collection<HupfUpfDevice>> devices, SessionSites sites, SiteRefs held,
                  AtomicLong deviceErrors) {
        this.writer = new DeviceWriter("hupf-device-writer", ADMITTED_CHANGES, MAX_UPDATES_PER_WRITE, lock);
        this.devices = devices;
        this.sites = sites;
        this.held = held;
        this.deviceErrors = deviceErrors;
    }

    /**
     * Queues the change from {@code previous} to {@code wanted} of a session at {@code site}, the site's reference
     * counts already moved, as one batch per device of the site (see {@link EntityRefs#updates}). The counter
     * resets also go to every other site's devices, and the change completes once they landed, though they do not
     * decide its outcome (a failure is counted): a session's usage is summed over every device, and another site's
     * device must read 0 in a cell this session took over.
     */
    CompletableFuture<List<WriteResult>> program(String site, Set<? extends UpfEntity> wanted,
                                                 Set<? extends UpfEntity> previous, List<UpfCounter> resets,
                                                 Set<UpfInterface> interfaces) {
        Collection<HupfUpfDevice> own = sites.devices(site);
        List<BatchUpfDevice> targets = new ArrayList<>(own.size());
        for (HupfUpfDevice d : own) {
            targets.add(BatchDevices.of(d));
        }
        CompletableFuture<List<WriteResult>> written =
                writer.submit(targets, held.site(site).updates(wanted, previous, resets, interfaces));
        if (!resets.isEmpty()) {
            List<BatchUpfDevice> others = new ArrayList<>();
            for (HupfUpfDevice d : devices.get()) {
                if (!own.contains(d)) {
                    others.add(BatchDevices.of(d));
                }
            }
            if (!others.isEmpty()) {
                List<DeviceUpdate> cleared = new ArrayList<>();
                resets.forEach(c -> cleared.add(DeviceUpdate.apply(c)));
                return written.thenCombine(writer.submit(others, cleared), (ownResults, othersResults) -> {
                    countFailures(othersResults);
                    return ownResults;
                });
            }
        }
        return written;
    }

    /** The cause to answer for a batch some device refused, null if every device took all of it. */
    RuleException refusal(List<WriteResult> results, long upSeid) {
        RuleException refused = null;
        for (WriteResult r : results) {
            if (r.ok()) {
                continue;
            }
            deviceErrors.incrementAndGet();
            UpfProgrammableException why = r.firstFailure();
            int cause = r.unreachable() ? Cause.SYSTEM_FAILURE
                    : why.getType() == UpfProgrammableException.Type.TABLE_EXHAUSTED ? Cause.NO_RESOURCES_AVAILABLE
                    : Cause.RULE_CREATION_MODIFICATION_FAILURE;
            if (refused == null || cause == Cause.SYSTEM_FAILURE) {
                refused = new RuleException(cause, -1, 0, "session " + upSeid + ": device refused the change: "
                        + why.getMessage());
            }
        }
        return refused;
    }

    /**
     * Takes the devices back from {@code undone} to {@code restored} after a refused batch (the reference
     * counts already went back). Updates of the refused batch that never landed make some of these no-ops.
     * The refusal is answered once the devices acknowledged the rollback, so a retry finds them clean.
     */
    CompletableFuture<Void> rollBack(String site, Set<UpfEntity> restored, Set<UpfEntity> undone,
                                     Set<UpfInterface> interfaces) {
        return program(site, restored, undone, List.of(), interfaces).thenAccept(results -> {
            if (countFailures(results) > 0) {
                log.warn("rolling back a refused change left devices out of line: reconciliation will repair them");
            }
        });
    }

    /** Counts and logs the devices that did not take a whole batch; reconciliation repairs them. */
    int countFailures(List<WriteResult> results) {
        int failed = 0;
        for (WriteResult r : results) {
            if (!r.ok()) {
                failed++;
                deviceErrors.incrementAndGet();
                log.warn("device write failed (reconciliation will retry): {}", r.firstFailure().getMessage());
            }
        }
        return failed;
    }

    /**
     * Starts a change under {@code lock} (the manager's) once the device writer admitted it (see {@link
     * DeviceWriter#admit}): the caller waits here, holding no lock, while as many changes as the writer admits are
     * under way. The admission is given back when the change settled.
     */
    <T> CompletableFuture<T> admitted(Object lock, Supplier<CompletableFuture<T>> start) {
        if (Thread.holdsLock(lock)) {
            throw new IllegalStateException("a change is started holding the session manager's lock: its wait to"
                    + " be admitted would stop the settlements that make room");
        }
        try {
            writer.admit();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(new RuleException(Cause.SYSTEM_FAILURE, -1, 0,
                    "interrupted while waiting for the device writer to admit the change"));
        }
        CompletableFuture<T> started;
        try {
            synchronized (lock) {
                started = start.get();
            }
        } catch (RuntimeException | Error e) {
            writer.settled();
            throw e;
        }
        started.whenComplete((result, failure) -> writer.settled());
        return started;
    }

    /** @return batches waiting for the device writer */
    int queued() {
        return writer.queued();
    }

    /** @return device writes sent and the batches they carried: {writes, batches} */
    long[] counts() {
        return writer.counts();
    }

    /** Stops the device writer once it has written the changes queued ({@link DeviceWriter#close}). */
    @Override
    public void close() {
        writer.close();
    }
}
