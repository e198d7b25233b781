package org.hupf.app.offload;

import org.hupf.core.device.Shutdowns;
import org.hupf.core.offload.BackendDrain;
import org.hupf.core.offload.Hybrid;
import org.hupf.api.DrainReport;
import org.hupf.app.LeaderLease;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.hupf.api.OffloadService.DRAIN_MAX_MS;
import static org.hupf.api.OffloadService.DRAIN_QUIET_MS;

/**
 * A backend's planned removal inside ONOS, one at a time on this node: the switch steers its UEs to the other
 * backends, its counts are read until quiet ({@link BackendDrain}), then it leaves the hybrid; a restore takes it
 * back. Drains a previous leader left unfinished are resumed once per term.
 */
final class DrainCoordinator {

    private static final Logger log = LoggerFactory.getLogger(DrainCoordinator.class);
    /** A draining backend's counts are read this often. */
    private static final long DRAIN_READ_MS = 50;

    private final DistributedBackendDrains drains;
    private final HybridTakeover takeover;
    private final SwitchProgrammer switchProgrammer;
    /** The component's thread, where the devices are taken over and the switch programmed. */
    private final ScheduledExecutorService executor;
    /** Resumes drains a previous leader left unfinished (a drain waits on the component's thread). */
    private final ExecutorService drainResumer =
            Executors.newSingleThreadExecutor(r -> new Thread(r, "hupf-drain-resume"));
    /** One drain at a time on this node; the backend being drained, or null. */
    private final Object drainLock = new Object();
    private volatile String drainingNow;
    /** The term in which this node last looked for unfinished drains. */
    private long drainsCheckedTerm = LeaderLease.NOT_LEADER;

    DrainCoordinator(DistributedBackendDrains drains, HybridTakeover takeover, SwitchProgrammer switchProgrammer,
                     ScheduledExecutorService executor) {
        this.drains = drains;
        this.takeover = takeover;
        this.switchProgrammer = switchProgrammer;
        this.executor = executor;
    }

    /** Stops resuming drains and waits for the resumer's thread (the component stops). */
    void close() {
        Shutdowns.interrupt(drainResumer, "hupf-drain-resume");
    }

    DrainReport drain(String backend, long quietMs, long maxMs) throws UpfProgrammableException, InterruptedException {
        BackendDrain drain = new BackendDrain(quietMs, maxMs, DRAIN_READ_MS, System::currentTimeMillis, Thread::sleep);
        synchronized (drainLock) {
            if (takeover.hybrids().isEmpty()) {
                throw new IllegalStateException("this node drives no backend (another node leads hupf, or no "
                                                        + "backend is available)");
            }
            DeviceId id = DeviceId.deviceId(backend);
            if (drains.is(backend, DistributedBackendDrains.DRAINED)) {
                throw new IllegalStateException(backend + " is drained already");
            }
            // A backend's UEs go to the other backends of its site: its switch steers among them only.
            Hybrid h = takeover.driving(id);
            if (h == null || !h.backendIds.contains(id)) {
                List<DeviceId> driven = new ArrayList<>();
                takeover.hybrids().forEach(x -> driven.addAll(x.backendIds));
                throw new IllegalArgumentException(backend + " is not a backend hupf drives (backends: "
                                                           + driven + ")");
            }
            if (h.steeredTo.stream().noneMatch(b -> !b.equals(backend))) {
                throw new IllegalStateException("no other backend is steered to that could take " + backend
                                                        + "'s UEs (steered to: " + h.steeredTo + ")");
            }
            drainingNow = backend;
            try {
                DrainReport r = drain.drain(() -> steerAway(h, backend, quietMs, maxMs),
                                            BackendDrain.packets(h.ledgered.get(id), () -> h.manager.counterCells(
                                                    h.manager.lastUsages().keySet())),
                                            () -> leave(backend));
                log.info("Backend {} drained: {}; it may stop", backend, r.summary());
                return r;
            } catch (InterruptedException e) {
                restore(backend, true);
                throw e;
            } catch (UpfProgrammableException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                drainingNow = null;
            }
        }
    }

    /**
     * Once per term, on the hybrid's first build: a backend marked DRAINING that no drain on this node is running
     * was left so by a leader that stopped mid-drain (held, not steered to); its drain is finished here, as the
     * operator asked and with the limits the operator gave (kept with the mark), rather than leaving it held until
     * someone acts. A drain that failed on this node in this term stays as it is: its caller got the error.
     */
    void resumeUnfinishedDrains() {
        long term = takeover.term();
        if (drainsCheckedTerm == term) {
            return;
        }
        drainsCheckedTerm = term;
        drains.all().forEach((backend, state) -> {
            if (DistributedBackendDrains.DRAINING.equals(state) && !backend.equals(drainingNow)) {
                log.warn("Backend {} was left DRAINING by a previous leader: resuming its drain", backend);
                drainResumer.execute(() -> resumeDrain(backend));
            }
        });
    }

    private void resumeDrain(String backend) {
        long[] limits = drains.limits(backend);
        if (limits == null) {
            log.warn("Backend {}: its DRAINING mark has no limits: resumed with {} ms quiet within {} ms", backend,
                     DRAIN_QUIET_MS, DRAIN_MAX_MS);
            limits = new long[]{DRAIN_QUIET_MS, DRAIN_MAX_MS};
        }
        try {
            drain(backend, limits[0], limits[1]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (UpfProgrammableException | RuntimeException e) {
            log.warn("Backend {}: the resumed drain did not complete ({}): drain or restore it", backend,
                     e.getMessage());
        }
    }

    /** The drain's first step: the switch steers the backend's UEs to the others, acknowledged. */
    private void steerAway(Hybrid h, String backend, long quietMs, long maxMs)
            throws UpfProgrammableException, InterruptedException {
        drains.setDraining(backend, quietMs, maxMs);
        String refused = onExecutor(() -> {
            if (takeover.ofSite(h.siteId) != h) {
                return "the hybrid changed meanwhile (devices came or went)";
            }
            switchProgrammer.program(h);
            return !h.switchProgrammed ? "switch " + h.switchId + " refused an entry (see the log)"
                    : h.steeredTo.contains(backend) ? "still steered to" : null;
        });
        if (refused != null) {
            restore(backend, true);
            throw new UpfProgrammableException("the switch did not take the steering without " + backend + ": "
                                                       + refused);
        }
    }

    /** The drain's last step: the backend leaves the hybrid (the ledger keeps its last counts as away). */
    private void leave(String backend) {
        drains.setDrained(backend);
        try {
            onExecutor(() -> {
                takeover.rebuild();
                return null;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean restore(String backend) {
        if (backend.equals(drainingNow)) {
            throw new IllegalStateException(backend + " is being drained: restore it once the drain returned");
        }
        return restore(backend, false);
    }

    /** Takes a backend back: the hybrid rebuilt with it (sessions first), then the switch steers to it again. */
    private boolean restore(String backend, boolean unfinished) {
        if (!drains.clear(backend)) {
            return false;
        }
        log.info("Backend {} restored{}", backend, unfinished ? " (its drain did not complete)" : "");
        executor.execute(() -> {
            takeover.rebuild();
            Hybrid h = takeover.driving(DeviceId.deviceId(backend));
            if (h != null) {
                switchProgrammer.program(h);
            }
        });
        return true;
    }

    Map<String, String> drains() {
        return drains.all();
    }

    /** Runs work on the component's thread (where the devices are taken over and the switch programmed). */
    private <T> T onExecutor(Callable<T> work) throws InterruptedException {
        try {
            return executor.submit(work).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
