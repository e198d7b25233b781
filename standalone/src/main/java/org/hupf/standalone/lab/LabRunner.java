package org.hupf.standalone.lab;

import org.hupf.api.DrainReport;
import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.core.session.SessionManager;
import org.hupf.core.offload.BackendDrain;
import org.hupf.core.offload.BackendUsageLedger;
import org.hupf.core.offload.ControlPlane;
import org.hupf.core.offload.HybridUpfDevice;
import org.hupf.core.offload.OffloadManager;
import org.hupf.core.pfcp.PfcpAgent;
import org.hupf.core.pfcp.PfcpConfig;
import org.hupf.core.rps.RpsIntake;
import org.hupf.core.rps.RpsSettings;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.standalone.p4rt.BatchingUpfDevice;
import org.hupf.standalone.p4rt.DeviceState;
import org.hupf.standalone.p4rt.P4RuntimeException;
import org.hupf.standalone.p4rt.P4RuntimeUpfDevice;
import org.hupf.standalone.p4rt.P4rtClient;
import org.hupf.standalone.rest.BackendControl;
import org.hupf.standalone.rest.BackendsResource;
import org.hupf.standalone.rest.ControlApi;
import org.hupf.standalone.rest.ServiceRegistry;
import org.hupf.standalone.store.DurableState;
import org.hupf.standalone.systemd.ServiceManager;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The lab runner: hupf's core outside ONOS. The same classes the ONOS app runs (PFCP handler, session
 * manager and translator, offload manager) drive the backend and, when there is one, the bmv2 switch
 * through direct P4Runtime; HH reports come from the switch's stream. Its state goes to a status file
 * every half second for the lab's live view and checks.
 *
 * <p>Sessions, associations and the Recovery Time Stamp are kept in {@link DurableState} when the config
 * names a {@code state_dir} (else in memory). A restarted runner keeps the devices' pipelines (same cookie)
 * and reconciles by read-and-diff, so forwarding goes on; a restarted device is reconnected, given its
 * pipeline, routes and every session again ({@link P4rtClient.Recovery}).
 *
 * <p>With a {@code control} block ({@code port}, {@code token}) the runner serves {@link BackendsResource} on
 * loopback: {@code GET /lab/backends}, and {@code POST /lab/backends/NAME/drain} for a backend's planned removal
 * ({@link #drain}).
 *
 * <pre>usage: LabRunner CONFIG.json   (written by tools/hupf_tools/lab/run.py)</pre>
 */
public final class LabRunner implements AutoCloseable, BackendControl {

    private static final long STATUS_MS = 500;
    /**
     * A poll costs what the backend scans, the cells in use: the next one waits nineteen times its duration at
     * least, so that polls take at most a twentieth of the time (poll_ms up to ~100k sessions, ~1 s at 1M). The
     * duration is the shortest of the last {@value #POLL_DURATIONS} polls': one poll that waited (for a backend being
     * reconciled after it joined or came back, or for a CPU) must not stop the polls for nineteen times its wait,
     * which froze the heavy UEs' rates for seconds and left them on the switch after their traffic ended.
     */
    private static final int POLL_IDLE_FACTOR = 19;
    private static final int POLL_DURATIONS = 5;
    /** A draining backend's counts are read this often. */
    private static final long DRAIN_READ_MS = 50;

    private final LabConfig cfg;
    private final List<AutoCloseable> closers = new ArrayList<>();
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
    /** The backends, in the config's order; the first is the hybrid's (its tables are the sessions' index). */
    private final List<LabBackend> backends = new ArrayList<>();
    /** Serialises the switch's steering updates (each backend's state changes on its own thread). */
    private final ExecutorService steerer = Executors.newSingleThreadExecutor();
    /** Orders which backends hold the sessions against a drained backend's departure. */
    private final Object membership = new Object();
    /** One drain at a time. */
    private final Object draining = new Object();
    /** What each backend counted: a session's usage keeps a stopped or restarted backend's share. */
    private final BackendUsageLedger usageLedger = new BackendUsageLedger();
    private P4RuntimeUpfDevice hardware;
    private LabSwitch labSwitch;
    private OffloadManager manager;
    private SessionManager sessions;
    private PfcpAgent agent;
    private HhReports hh;
    /** The switch's RPS records, to the monitor of the config's rps block. */
    private final RpsIntake rps = new RpsIntake();
    private LabStatus status;
    /** When the last poll started (the poll timer's thread only). */
    private long lastPollAt;
    /** The last polls' durations in ms, newest last (the poll timer's thread only). */
    private final ArrayDeque<Long> pollDurations = new ArrayDeque<>();

    private LabRunner(LabConfig cfg) {
        this.cfg = cfg;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: LabRunner CONFIG.json");
            System.exit(2);
        }
        LabRunner r = new LabRunner(LabConfig.load(Path.of(args[0])));
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            r.close();
            stop.countDown();
        }));
        try {
            r.start();
        } catch (Exception e) {
            System.err.println("lab runner: " + e);
            r.close();
            System.exit(1);
        }
        stop.await();
    }

    private void start() throws Exception {
        long mainMs = uptimeMs();
        for (JsonNode b : cfg.node("backends")) {
            String name = b.path("name").asText();
            // Connected once PFCP is answered (connectBackends); one that joins later (under traffic) gets pipeline,
            // routes and sessions from its connection's recovery, as one that came back, then its share of the UEs.
            LabDevice d = LabDevice.unconnected(b, name);
            closers.add(d.upf);
            Backend steering = cfg.has("switch") ? new Backend(b.path("port").asLong(),
                    LabConfig.mac(b.get("mac"), name + ".mac"), b.path("weight").asInt(1)) : null;
            backends.add(new LabBackend(name, d, steering, usageLedger, backends.isEmpty(),
                                        !backends.isEmpty() && b.path("joins_later").asBoolean(false)));
        }
        LabBackend first = backends.get(0);
        // The netcfg's rps block, same format; the exporter runs from here on.
        rps.configure(RpsSettings.parse(cfg.has("rps") ? cfg.node("rps") : null));
        closers.add(rps);
        LabDevice sw = null;
        if (cfg.has("switch")) {
            sw = LabDevice.open(cfg.node("switch"), "switch");
            hardware = sw.upf;
            closers.add(hardware);
            Routes.write(hardware, cfg, "switch");
        }
        labSwitch = new LabSwitch(cfg, hardware, backends, rps);
        if (labSwitch.present()) {
            labSwitch.configure();
        }
        long switchMs = uptimeMs();
        DurableState state = !cfg.has("state_dir") ? null : DurableState.open(Path.of(cfg.text("state_dir")),
                cfg.has("state_sync_ms") ? cfg.number("state_sync_ms") : 0, PfcpAgent.startTimeStamp());
        if (state != null) {
            closers.add(state);
        }
        SessionStore store = state == null ? new InMemorySessionStore() : state.sessions();
        // What the start line reports: a session request answered once the reconciliation ends may change the store
        // before that line is written.
        int stored = store.all().size();
        long stateMs = uptimeMs();
        // Putting thousands of sessions back on a restarted backend takes large Writes, not one per entity.
        // Each backend holds every session; one that is down is left out until its recovery reconciles it.
        ControlPlane.Hybrid assembled = ControlPlane.hybrid(first.counted, this::sessionBackends, backends.size() == 1,
                hardware, LabConfig.policy(cfg.node("policy")), System::currentTimeMillis);
        manager = assembled.offload;
        HybridUpfDevice hybrid = assembled.device;
        sessions = ControlPlane.builder().store(store)
                .pool(new ResourcePool((int) minTableSize(UpfEntityType.COUNTER),
                                       (int) minTableSize(UpfEntityType.SESSION_METER)))
                .devices(() -> {
                    List<HupfUpfDevice> devices = new ArrayList<>(sessionBackends());
                    devices.set(0, hybrid);
                    return devices;
                })
                .n3Addresses(List.of(LabConfig.addr(cfg.node("n3"), "n3")))
                .uePools(List.of(LabConfig.prefix(cfg.node("ue_pool"), "ue_pool")))
                .sliceId((int) cfg.number("slice")).networkInstances(cfg.networkInstances()).build().sessionManager();
        for (LabBackend b : backends) {
            b.device.upf.client().onRecovery(c -> {
                if (b.drained) {
                    return;
                }
                b.device.ensurePipeline();
                Routes.write(b.device.upf, cfg, b.name);
                batchedOnAll(this::reconcileAll, 0);
            });
            // Down: its UEs go to the others; UP (reconciled): it takes its share again.
            b.device.upf.client().onStateChange(s -> steerer.execute(labSwitch::steer));
        }
        long loadedMs = uptimeMs();
        // PFCP is answered while the backends are connected, read and diffed; session requests wait for that.
        String addr = cfg.text("pfcp", "address");
        // How long answers are kept for retransmissions: the SMF's N1 x T1 at most, 60 s unless the config says.
        long window = cfg.node("pfcp").hasNonNull("retransmission_window_ms")
                ? cfg.number("pfcp", "retransmission_window_ms") : 60_000;
        PfcpConfig pfcp = new PfcpConfig(addr, (int) cfg.number("pfcp", "port"), addr, Set.of(cfg.text("smf_node_id")),
                                         0, 3_000, 3, window, 1_000);
        long[] answeringMs = new long[1];
        int[] ops = new int[1];
        batchedOnAll(() -> ops[0] = sessions.reconcileAfter(() -> {
            agent = state == null ? new PfcpAgent(pfcp, sessions)
                    : new PfcpAgent(pfcp, sessions, state.associations(), state.recoveryTimeStamp());
            closers.add(agent);
            manager.addUsageListener(agent.usageChanges());
            answeringMs[0] = uptimeMs();
            ServiceManager.ready("PFCP on " + addr + ":" + agent.port() + ", " + store.all().size() + " sessions");
            connectBackends();
        }), 0);
        System.out.println("lab runner: " + stored + " stored sessions, devices reconciled with " + ops[0]
                                   + " writes" + (state != null && state.restored() ? " (restored state)" : "")
                                   + "; ms since the JVM started: main " + mainMs + ", switch " + switchMs
                                   + ", state " + stateMs + ", session core " + loadedMs + ", PFCP answered "
                                   + answeringMs[0] + ", reconciled " + uptimeMs());
        status = new LabStatus(Path.of(cfg.text("status")), manager, first.device.upf, hardware,
                               () -> programmed(first.device.upf.client()) + programmed(hardware));
        manager.addListener(status::event);
        for (LabBackend b : backends) {
            status.health(b.name, b.device.upf.client());
            if (b.state() == DeviceState.DOWN) {
                b.device.upf.client().connectInBackground();
            }
        }
        labSwitch.reportTo(status);
        if (sw != null) {
            LabDevice swDevice = sw;
            hardware.client().onRecovery(c -> {
                swDevice.ensurePipeline();
                Routes.write(hardware, cfg, "switch");
                labSwitch.configure();
                reconcileAll();
            });
        }
        if (hardware != null) {
            hh = new HhReports(hardware.client(), sw.p4info, manager, rps);
            Thread t = new Thread(hh, "hh-reports");
            t.setDaemon(true);
            t.start();
        }
        long pollMs = cfg.number("poll_ms");
        timers.scheduleAtFixedRate(this::poll, pollMs, pollMs, TimeUnit.MILLISECONDS);
        timers.scheduleAtFixedRate(this::writeStatus, 0, STATUS_MS, TimeUnit.MILLISECONDS);
        if (cfg.has("control")) {
            ControlApi control = new ControlApi((int) cfg.number("control", "port"), cfg.text("control", "token"),
                                                new ServiceRegistry().register(BackendControl.class, this),
                                                BackendsResource.class);
            closers.add(control);
            System.out.println("lab runner: control API on 127.0.0.1:" + control.port());
        }
        status.ready(true);
        writeStatus();
    }

    /**
     * The backends that hold the sessions now: the hybrid's (always), and the others unless down or drained.
     * Synchronized with a drain's departure: a list taken before it must not name the backend to the ledger after.
     */
    private List<HupfUpfDevice> sessionBackends() {
        synchronized (membership) {
            List<HupfUpfDevice> out = new ArrayList<>();
            List<String> present = new ArrayList<>();
            for (LabBackend b : backends) {
                if (out.isEmpty() || (b.state() != DeviceState.DOWN && !b.drained)) {
                    out.add(b.counted);
                    present.add(b.name);
                }
            }
            usageLedger.present(present);
            return out;
        }
    }

    @Override
    public Map<String, String> states() {
        Map<String, String> out = new LinkedHashMap<>();
        for (LabBackend b : backends) {
            out.put(b.name, b.drained ? "DRAINED" : b.leaving ? "DRAINING" : b.state().name());
        }
        return out;
    }

    /**
     * A planned removal ({@link BackendDrain}): the backend's UEs steered to the others, its counts read until
     * they stay still for quietMs (at most maxMs), then it is neither written nor read any more (the ledger keeps
     * its final counts) and its connection is closed; its process may then be stopped. One drain at a time.
     */
    @Override
    public DrainReport drain(String name, long quietMs, long maxMs) throws Exception {
        LabBackend b = backends.stream().filter(x -> x.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no backend " + name + " in this lab"));
        if (b == backends.get(0)) {
            throw new IllegalArgumentException(name + " is the hybrid's first backend (its tables index the"
                                                       + " sessions): it cannot leave");
        }
        BackendDrain drain = new BackendDrain(quietMs, maxMs, DRAIN_READ_MS, System::currentTimeMillis, Thread::sleep);
        synchronized (draining) {
            if (b.leaving || b.drained) {
                throw new IllegalStateException(name + " is drained already");
            }
            if (hardware == null || backends.stream().noneMatch(x -> x != b && !x.leaving
                    && x.state() == DeviceState.UP)) {
                throw new IllegalStateException("no other backend up to take " + name + "'s UEs");
            }
            DrainReport r = drain.drain(() -> {
                b.leaving = true;
                Future<Boolean> steered = steerer.submit(labSwitch::steer);
                if (!steered.get()) {
                    b.leaving = false;
                    throw new IllegalStateException("the switch did not take the steering without " + name);
                }
            }, BackendDrain.packets(b.counted, () -> manager.counterCells(manager.lastUsages().keySet())), () -> {
                synchronized (membership) {
                    b.drained = true;
                }
                sessionBackends();
            });
            b.device.upf.close();
            status.drained(name);
            System.out.println("lab runner: " + name + " drained: " + r.summary());
            return r;
        }
    }

    private long minTableSize(UpfEntityType type) throws UpfProgrammableException {
        long min = Long.MAX_VALUE;
        for (LabBackend b : backends) {
            min = Math.min(min, b.device.upf.tableSize(type));
        }
        return min;
    }

    private static long uptimeMs() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /**
     * Connects the backends (those that do not join later), pushes their pipelines where they run another one
     * and writes their routes. One that cannot be reached now stays DOWN and reconnects in the background: its
     * recovery puts everything back when it answers.
     */
    private void connectBackends() {
        for (LabBackend b : backends) {
            if (b.joinsLater) {
                continue;
            }
            try {
                b.device.connect();
                Routes.write(b.device.upf, cfg, b.name);
            } catch (P4RuntimeException | PiTargetException e) {
                System.err.println("lab runner: " + b.name + " not ready (" + e.getMessage() + "): reconnecting");
                b.device.upf.client().connectInBackground();
            }
        }
    }

    /** Runs work with every backend's writes from this thread batched. */
    private void batchedOnAll(BatchingUpfDevice.Work work, int from) throws Exception {
        if (from == backends.size()) {
            work.run();
        } else {
            backends.get(from).batched.batched(() -> batchedOnAll(work, from + 1));
        }
    }

    /** Puts every session back on the devices; a failed write fails the recovery, which is then retried. */
    private void reconcileAll() {
        long errorsBefore = sessions.deviceErrors();
        long started = System.currentTimeMillis();
        int ops = sessions.reconcile();
        long failed = sessions.deviceErrors() - errorsBefore;
        if (failed > 0) {
            throw new IllegalStateException(failed + " device operations failed while reconciling");
        }
        System.out.println("lab runner: device recovered, " + ops + " writes in "
                                   + (System.currentTimeMillis() - started) + " ms");
    }

    private void poll() {
        try {
            long started = System.currentTimeMillis();
            long shortest = pollDurations.stream().mapToLong(Long::longValue).min().orElse(0);
            if (started - lastPollAt < POLL_IDLE_FACTOR * shortest) {
                return;
            }
            lastPollAt = started;
            manager.poll();
            status.polled(started);
            pollDurations.addLast(manager.pollDurationMillis());
            if (pollDurations.size() > POLL_DURATIONS) {
                pollDurations.removeFirst();
            }
        } catch (RuntimeException e) {
            System.err.println("lab runner: poll failed: " + e);
        }
    }

    /** @return a number that moves whenever what the device holds may have changed; 0 without one */
    private static long programmed(P4RuntimeUpfDevice device) {
        return device == null ? 0 : programmed(device.client());
    }

    private static long programmed(P4rtClient c) {
        return c.writes() + c.reconnects() + c.sinceMillis();
    }

    private void writeStatus() {
        try {
            status.write(sessions.store().size(), hh, agent == null ? null : agent.stats());
        } catch (IOException | RuntimeException e) {
            System.err.println("lab runner: status not written: " + e);
        }
    }

    @Override
    public synchronized void close() {
        timers.shutdownNow();
        steerer.shutdownNow();
        if (hh != null) {
            hh.stop();
        }
        for (int i = closers.size() - 1; i >= 0; i--) {
            try {
                closers.get(i).close();
            } catch (Exception e) {
                System.err.println("lab runner: close: " + e);
            }
        }
        closers.clear();
    }
}
