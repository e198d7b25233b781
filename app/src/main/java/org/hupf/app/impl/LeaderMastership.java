package org.hupf.app.impl;

import org.hupf.core.HupfApp;
import org.hupf.app.LeaderLease;
import org.hupf.app.config.HupfConfig;
import org.hupf.app.config.HupfConfigListener;
import org.hupf.core.device.Shutdowns;
import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.LeadershipEventListener;
import org.onosproject.cluster.LeadershipService;
import org.onosproject.cluster.NodeId;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipAdminService;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.MastershipRole;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Makes the node that leads hupf the master of the devices in hupf's netcfg. The leader writes those devices
 * through its own P4Runtime client, and a P4Runtime device takes writes only from its primary client, which
 * ONOS makes of the device's master: a leader that is not the master has every write refused
 * (PERMISSION_DENIED), as happens whenever ONOS elects another master, e.g. when the old one dies.
 * <p>
 * This is the only place hupf asks for a mastership, and it asks once per device until the answer has had
 * {@link #CLAIM_RETRY_MS} to come: every request starts a new mastership term, and ONOS 2.7's flow rule store
 * ({@code DeviceFlowTable}) synchronises each term asynchronously and activates them in the order the syncs
 * end, so terms started in quick succession on one node can leave it on an older term, where every later flow
 * rule operation is queued for good (seen in the cluster test: removals of switch entries never made, routes
 * written again every 5 s). Requests made on every mastership event did exactly that.
 */
@Component(immediate = true)
public class LeaderMastership {

    private static final Logger log = LoggerFactory.getLogger(LeaderMastership.class);

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigService cfgService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected LeadershipService leadershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected ClusterService clusterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipAdminService mastershipAdminService;

    private final LeaderLease lease =
            new LeaderLease(() -> leadershipService, () -> clusterService.getLocalNode().id());
    private final LeadershipEventListener leadershipListener =
            lease.listener(command -> this.executor.execute(command), this::align);
    private volatile long term = LeaderLease.NOT_LEADER;
    private final MastershipListener mastershipListener = event -> this.executor.execute(this::align);
    private final NetworkConfigListener cfgListener =
            new HupfConfigListener(event -> this.executor.execute(this::align));
    private ScheduledExecutorService executor;
    /** When this node last asked to master each device it does not master yet (executor thread only). */
    private final Map<DeviceId, Long> claimedAt = new HashMap<>();
    /** Milliseconds, monotonic. */
    LongSupplier clock = () -> System.nanoTime() / 1_000_000L;

    /** How long an unanswered mastership request is left before it is made again. */
    static final long CLAIM_RETRY_MS = 10_000;

    @Activate
    protected void activate() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "hupf-mastership"));
        leadershipService.addListener(leadershipListener);
        mastershipService.addListener(mastershipListener);
        cfgService.addListener(cfgListener);
        executor.execute(this::align);
        // A leadership this node gained with no event to tell it is found here.
        lease.watch(executor, () -> term, t -> align());
        // A request ONOS did not grant is made again (a periodic task that throws is never run again).
        executor.scheduleWithFixedDelay(() -> {
            try {
                align();
            } catch (RuntimeException e) {
                log.warn("Aligning the devices' mastership with hupf's leadership failed: {}", e.toString());
            }
        }, CLAIM_RETRY_MS, CLAIM_RETRY_MS, TimeUnit.MILLISECONDS);
    }

    @Deactivate
    protected void deactivate() {
        cfgService.removeListener(cfgListener);
        mastershipService.removeListener(mastershipListener);
        leadershipService.removeListener(leadershipListener);
        Shutdowns.interrupt(executor, "hupf-mastership");
    }

    /**
     * On the leader: asks to master every hupf device that has a master and it is another node, unless it
     * asked less than {@link #CLAIM_RETRY_MS} ago.
     */
    void align() {
        term = lease.term();
        if (term == LeaderLease.NOT_LEADER || term == LeaderLease.UNKNOWN) {
            term = LeaderLease.NOT_LEADER;
            claimedAt.clear();
            return;
        }
        NodeId local = clusterService.getLocalNode().id();
        ApplicationId appId = coreService.getAppId(HupfApp.APP_NAME);
        HupfConfig cfg = appId == null ? null : cfgService.getConfig(appId, HupfConfig.class);
        Set<DeviceId> devices = cfg == null || !cfg.isValid() ? Set.of() : cfg.devices().keySet();
        long now = clock.getAsLong();
        claimedAt.keySet().retainAll(devices);
        for (DeviceId id : devices) {
            NodeId master = mastershipService.getMasterFor(id);
            if (local.equals(master)) {
                claimedAt.remove(id);  // granted: losing it later is asked back at once
                continue;
            }
            // No master yet: the device is not connected, and its first MASTER_CHANGED brings us back here.
            if (master == null) {
                continue;
            }
            Long asked = claimedAt.get(id);
            if (asked == null || now - asked >= CLAIM_RETRY_MS) {
                log.info("Leading hupf: taking mastership of {} from {}", id, master);
                claimedAt.put(id, now);
                mastershipAdminService.setRole(local, id, MastershipRole.MASTER);
            }
        }
    }
}
