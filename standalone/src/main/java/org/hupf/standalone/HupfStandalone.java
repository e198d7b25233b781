package org.hupf.standalone;

import org.hupf.api.DeviceStatusService;
import org.hupf.api.HupfService;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.impl.SessionManagerService;
import org.hupf.core.offload.ControlPlane;
import org.hupf.core.pfcp.PfcpAgent;
import org.hupf.core.pfcp.PfcpConfig;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.site.Site;
import org.hupf.core.site.SiteIndex;
import org.hupf.core.site.SitePlacement;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.standalone.store.DurableState;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.standalone.rest.ControlApi;
import org.hupf.standalone.rest.InMemorySites;
import org.hupf.standalone.rest.ServiceRegistry;
import org.hupf.standalone.systemd.ServiceManager;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs hupf's PFCP agent and session core outside ONOS, with an in-memory session store and an
 * {@link InMemoryUpfDevice} in place of real devices, plus the app's REST API on a loopback port
 * ({@link ControlApi}). Used by the SMF-emulator tests and the backend-less mode.
 *
 * <p>Options: {@code --listen ADDR --port N --node-id ID --allow PEER[,PEER...] --n3 ADDR --ue-pool PREFIX
 * --control-port N --control-token TOKEN --control-idle-ms N --capacity N --heartbeat-ms N --t1-ms N --n1 N
 * --report-tick-ms N --reconcile-s N --state-dir DIR --state-sync-ms N --tenants FILE --network-instances
 * NAME[,NAME...] --sites FILE}. A session is refused when a rule names a Network Instance that is neither a tenant's nor in
 * {@code --network-instances} (default {@code internet}), or a UE address outside {@code --ue-pool}.
 * {@code --tenants} gives the VXLAN tenants (a JSON object with the {@code "tenants"} block of hupf's netcfg,
 * see {@link TenantsFile}): sessions are bound to them as in ONOS, and {@code GET /tenants} lists them (without
 * counters: the in-memory device counts none). {@code --sites} gives the UPF sites (the {@code "sites"} block of
 * hupf's netcfg, see {@link SitesFile}): sessions are placed as in ONOS (their sites' N3 Network Instances served),
 * and one no site serves is refused; each site's sessions are written to an in-memory device of its own
 * ({@code GET /lab/entities?site=ID}); {@code GET /sites} lists them. With {@code --state-dir} sessions, associations and the
 * Recovery Time Stamp are kept in {@link DurableState} (fsync per commit, or every N ms); without, in memory.
 * Without {@code --control-token} (default: the environment's {@code HUPF_CONTROL_TOKEN}) the REST API is
 * read-only. An
 * allowed PEER is {@code NODE-ID@ADDRESS} (that Node ID from that source address; repeat for more
 * addresses) or a plain {@code NODE-ID} (see {@link org.hupf.core.pfcp.PeerAllowlist}).
 */
public final class HupfStandalone {

    private HupfStandalone() {
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>(Map.of(
                "listen", "127.0.0.1", "port", String.valueOf(PfcpConfig.PFCP_PORT), "node-id", "127.0.0.1",
                "allow", "127.0.0.1", "n3", "192.168.0.1", "ue-pool", "10.250.0.0/16", "control-port", "0",
                "capacity", "65536", "heartbeat-ms", "0", "t1-ms", "3000"));
        o.put("n1", "3");
        o.put("report-tick-ms", "1000");
        o.put("reconcile-s", "30");
        o.put("state-dir", "");
        o.put("state-sync-ms", "100");
        o.put("tenants", "");
        o.put("sites", "");
        o.put("control-idle-ms", "30000");
        o.put("network-instances", String.join(",", SessionTranslator.DEFAULT_NETWORK_INSTANCES));
        o.put("control-token", System.getenv().getOrDefault("HUPF_CONTROL_TOKEN", ""));
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            String key = args[i].substring(2);
            if (!o.containsKey(key)) {
                throw new IllegalArgumentException("unknown option --" + key);
            }
            o.put(key, args[i + 1]);
        }
        return o;
    }

    /** Runs the host; a bad option or value (a number, an address, an allowed peer) ends it with its message. */
    public static void main(String[] args) throws Exception {
        try {
            run(options(args));
        } catch (IllegalArgumentException e) {
            System.err.println("hupf-standalone: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void run(Map<String, String> o) throws Exception {
        long mainMs = uptimeMs();
        // The REST API starts beside the state load and the session core (Jetty's start is seconds of class loading
        // on a busy machine); until the services are registered its resources answer 503.
        ServiceRegistry services = new ServiceRegistry();
        CompletableFuture<ControlApi> controlStarted = new CompletableFuture<>();
        Thread starter = new Thread(() -> {
            try {
                controlStarted.complete(new ControlApi(Integer.parseInt(o.get("control-port")),
                        Long.parseLong(o.get("control-idle-ms")), o.get("control-token"), services));
            } catch (IOException | RuntimeException e) {
                controlStarted.completeExceptionally(e);
            }
        }, "hupf-control-start");
        starter.setDaemon(true);
        starter.start();
        try {
            serve(o, services, controlStarted, mainMs);
        } catch (Exception e) {
            // Jetty's threads would keep a host that failed to start alive.
            controlStarted.thenAccept(ControlApi::close);
            throw e;
        }
    }

    private static void serve(Map<String, String> o, ServiceRegistry services,
                              CompletableFuture<ControlApi> controlStarted, long mainMs) throws Exception {
        int capacity = Integer.parseInt(o.get("capacity"));
        Ip4Address n3 = Ip4Address.valueOf(o.get("n3"));
        DurableState state = o.get("state-dir").isEmpty() ? null
                : DurableState.open(Path.of(o.get("state-dir")), Long.parseLong(o.get("state-sync-ms")),
                                    PfcpAgent.startTimeStamp());
        long stateMs = uptimeMs();
        TenantsFile tenants = o.get("tenants").isEmpty() ? TenantsFile.none()
                : TenantsFile.load(Path.of(o.get("tenants")));
        List<Site> sites = o.get("sites").isEmpty() ? List.of() : SitesFile.load(Path.of(o.get("sites")));
        // One in-memory device per site, named by it: a site's sessions are on its device only.
        Map<String, InMemoryUpfDevice> bySite = new LinkedHashMap<>();
        if (sites.isEmpty()) {
            bySite.put(Site.IMPLICIT_ID, new InMemoryUpfDevice("in-memory", capacity));
        }
        sites.forEach(site -> bySite.put(site.id, new InMemoryUpfDevice("in-memory-" + site.id, capacity)));
        InMemoryUpfDevice device = bySite.values().iterator().next();
        List<HupfUpfDevice> devices = List.copyOf(bySite.values());
        Set<String> networkInstances = new HashSet<>(Set.of(o.get("network-instances").split(",")));
        sites.forEach(site -> networkInstances.addAll(site.n3NetworkInstances));
        SessionManager manager = ControlPlane.builder()
                .store(state == null ? new InMemorySessionStore() : state.sessions())
                .pool(new ResourcePool(capacity, capacity)).devices(() -> devices)
                .siteDevices(site -> List.of(bySite.get(site)))
                .n3Addresses(List.of(n3)).uePools(List.of(Ip4Prefix.valueOf(o.get("ue-pool"))))
                .tenants(() -> tenants.bindable).networkInstances(networkInstances).sites(sites)
                .build().sessionManager();
        long coreMs = uptimeMs();
        PfcpConfig cfg = new PfcpConfig(o.get("listen"), Integer.parseInt(o.get("port")), o.get("node-id"),
                                        Set.of(o.get("allow").split(",")), Long.parseLong(o.get("heartbeat-ms")),
                                        Long.parseLong(o.get("t1-ms")), Integer.parseInt(o.get("n1")), 60_000,
                                        Long.parseLong(o.get("report-tick-ms")));
        PfcpAgent agent = state == null ? new PfcpAgent(cfg, manager)
                : new PfcpAgent(cfg, manager, state.associations(), state.recoveryTimeStamp());
        long pfcpMs = uptimeMs();
        // PFCP is answered meanwhile; a session request that comes first waits for this, behind the manager's lock:
        // started as soon as PFCP is bound, not after the control API's start and the readiness notice.
        CompletableFuture<Long> trackedMs = new CompletableFuture<>();
        Thread tracking = new Thread(() -> {
            manager.trackStoredSessions();
            trackedMs.complete(uptimeMs());
        }, "hupf-track-stored");
        tracking.setDaemon(true);
        tracking.start();
        SiteIndex siteIndex = sites.isEmpty() ? null : new SiteIndex(new SitePlacement(sites));
        services.register(HupfService.class,
                          new SessionManagerService(manager, List.of(Ip4Prefix.valueOf(o.get("ue-pool"))), agent,
                                                    tenants.entries, tenants.bindable) {
                              @Override
                              protected SiteIndex siteIndex() {
                                  return siteIndex;
                              }
                          })
                .register(DeviceStatusService.class, new InMemoryDeviceStatus(device.toString(), device))
                .register(InMemoryUpfDevice.class, device)
                .register(InMemorySites.class, new InMemorySites(bySite));
        ControlApi control = started(controlStarted);
        // One line the tests wait for, with the ports actually bound.
        System.out.println("hupf-standalone ready pfcp=" + agent.port() + " control=" + control.port());
        System.out.flush();
        ServiceManager.ready("PFCP on " + o.get("listen") + ":" + agent.port() + ", "
                                     + manager.store().size() + " sessions");
        System.out.println("hupf-standalone: " + manager.store().size() + " stored sessions; ms since the JVM started: "
                                   + "main " + mainMs + ", state " + stateMs + ", session core " + coreMs
                                   + ", PFCP answered " + pfcpMs + ", control API " + uptimeMs());
        System.out.flush();
        // Logged after the lines above, which the tests read first.
        trackedMs.thenAccept(ms -> {
            System.out.println("hupf-standalone: stored sessions' entities tracked; ms since the JVM started: " + ms);
            System.out.flush();
        });
        ScheduledExecutorService reconciler = Executors.newSingleThreadScheduledExecutor();
        long period = Long.parseLong(o.get("reconcile-s"));
        reconciler.scheduleWithFixedDelay(manager::reconcile, period, period, TimeUnit.SECONDS);
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            reconciler.shutdownNow();
            control.close();
            agent.close();
            if (state != null) {
                state.close();
            }
            stop.countDown();
        }));
        stop.await();
    }

    private static ControlApi started(CompletableFuture<ControlApi> control) throws IOException, InterruptedException {
        try {
            return control.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException ? (IOException) e.getCause()
                    : new IOException("the control API did not start", e.getCause());
        }
    }

    private static long uptimeMs() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }
}
