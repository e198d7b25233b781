package org.hupf.app.offload;

import org.hupf.core.live.LiveRecorder;
import org.hupf.core.live.LiveSite;
import org.hupf.core.offload.Hybrid;
import org.hupf.core.offload.OffloadManager;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The leader's poll of its sites, once a period on the offload thread: each site's offload manager reads its
 * counters when its {@link PollPacing} lets it (paced on its last complete poll's duration), then what the polls read is sampled, site by site, into the live
 * view's {@link LiveRecorder} (sampled without a hybrid too: its backends went down, which the view shows). A
 * site whose poll fails backs off ({@link PollPacing}); its first failure and its recovery are logged once each.
 */
final class HybridPoll implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(HybridPoll.class);
    static final long PERIOD_MS = 1000;
    /** The live view's history: 10 minutes of samples at the poll's period, and the last events. */
    private static final int LIVE_SAMPLES = 600;
    private static final int LIVE_EVENTS = 500;

    private final LiveRecorder live = new LiveRecorder(PERIOD_MS, LIVE_SAMPLES, LIVE_EVENTS);
    private final PollPacing pacing = new PollPacing();
    private final Supplier<Collection<Hybrid>> hybrids;
    private final Supplier<Map<String, long[]>> backendTotals;
    private final Supplier<Map<String, String>> drains;
    private final LongSupplier clock;

    /**
     * @param hybrids       the sites' hybrids this node drives now
     * @param backendTotals every backend's byte and packet totals, for the live view
     * @param drains        the backends being drained and their state
     */
    HybridPoll(Supplier<Collection<Hybrid>> hybrids, Supplier<Map<String, long[]>> backendTotals,
               Supplier<Map<String, String>> drains) {
        this(hybrids, backendTotals, drains, System::currentTimeMillis);
    }

    /** As above, on a given clock, ms (a test's). */
    HybridPoll(Supplier<Collection<Hybrid>> hybrids, Supplier<Map<String, long[]>> backendTotals,
               Supplier<Map<String, String>> drains, LongSupplier clock) {
        this.hybrids = hybrids;
        this.backendTotals = backendTotals;
        this.drains = drains;
        this.clock = clock;
    }

    /** The live view's recorder (the offload events of each site go into it too). */
    LiveRecorder live() {
        return live;
    }

    @Override
    public void run() {
        List<OffloadManager> managers = new ArrayList<>();
        for (Hybrid h : hybrids.get()) {
            managers.add(h.manager);
            if (!pacing.due(h.manager, clock.getAsLong())) {
                continue;
            }
            boolean read = false;
            try {
                read = h.manager.poll();
            } catch (RuntimeException e) {
                log.warn("Offload poll at site {} failed: {}", h.siteId, e.getMessage());
            }
            // Paced on the last complete poll: one that waited out a read's deadline on a starved device would
            // otherwise put the next off by GAP_FACTOR deadlines (90 s), and an HH report that a poll's rate
            // confirms would wait as long.
            int failedBefore = pacing.failures(h.manager);
            int failed = pacing.polled(h.manager, clock.getAsLong(), h.manager.pollDurationMillis(), read);
            if (failedBefore == 0 && failed > 0) {
                log.warn("Offload poll at site {} (backends {}, switch {}) failed: tried again after {} ms, the "
                                 + "pause doubling up to {} ms while it fails", h.siteId, h.backendIds,
                         h.switchId == null ? "none" : h.switchId, PollPacing.backoff(1), PollPacing.BACKOFF_MAX_MS);
            } else if (failedBefore > 0 && failed == 0) {
                log.info("Offload poll at site {} succeeded after {} failed polls: paced as before", h.siteId,
                         failedBefore);
            }
        }
        pacing.retain(managers);
        sample();
    }

    private void sample() {
        Map<String, LiveSite> sites = new LinkedHashMap<>();
        for (Hybrid h : hybrids.get()) {
            sites.put(h.siteId, new LiveSite(h.manager.metrics(), h.backendIds.stream().map(DeviceId::toString)
                    .collect(Collectors.toList())));
        }
        try {
            live.sample(clock.getAsLong(), sites, backendTotals.get(),
                        sites.isEmpty() ? Map.of() : drains.get());
        } catch (RuntimeException e) {
            log.warn("Sampling the hybrid for the live view failed: {}", e.toString());
        }
    }
}
