package org.hupf.core.live;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.LiveService;
import org.hupf.api.OffloadEvent;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The hybrid's counts over time and its event stream, both bounded, fed by the offload poll: after each poll its
 * host hands {@link #sample} what the poll already read (the offload manager's metrics, each backend's counts
 * from the usage ledger, the drains), so sampling reads no device. Backends coming and going and drains starting,
 * ending and being undone are told apart from the previous sample; the offload manager's own events come through
 * {@link #atSite} (heavy-hitter reports are only counted: thousands a second would push everything else out).
 */
public final class LiveRecorder implements LiveService {

    private final long intervalMs;
    private final int keptSamples;
    private final int keptEvents;
    private final Deque<LiveSample> samples = new ArrayDeque<>();
    private final Deque<StreamEvent> events = new ArrayDeque<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private long lastSeq;
    private Set<String> lastBackends = Set.of();
    /** Backend id to the site whose hybrid drove it at the last sample. */
    private Map<String, String> lastSiteOf = Map.of();
    private Map<String, String> lastDrains = Map.of();

    /**
     * @param intervalMs  the poll's period, what the view expects between samples
     * @param keptSamples samples kept
     * @param keptEvents  events kept
     */
    public LiveRecorder(long intervalMs, int keptSamples, int keptEvents) {
        if (intervalMs < 1 || keptSamples < 1 || keptEvents < 1) {
            throw new IllegalArgumentException("a live recorder needs an interval and keeps at least one sample and "
                                                       + "one event: " + intervalMs + " ms, " + keptSamples
                                                       + " samples, " + keptEvents + " events");
        }
        this.intervalMs = intervalMs;
        this.keptSamples = keptSamples;
        this.keptEvents = keptEvents;
    }

    /**
     * Records what a poll left, then tells the listeners.
     *
     * @param nowMs    when, ms since the epoch
     * @param sites    each site's hybrid: its offload manager's metrics and backends; empty while no backend is
     *                 driven
     * @param backends each backend driven to its {packets, bytes}
     * @param drains   each backend drained or draining to DRAINING or DRAINED
     */
    public void sample(long nowMs, Map<String, LiveSite> sites, Map<String, long[]> backends,
                       Map<String, String> drains) {
        LiveSample s = LiveSample.of(nowMs, sites, backends);
        Map<String, String> siteOf = new HashMap<>();
        sites.forEach((id, site) -> site.backends.forEach(b -> siteOf.put(b, id)));
        synchronized (this) {
            if (samples.size() == keptSamples) {
                samples.removeFirst();
            }
            samples.addLast(s);
            for (String b : new TreeSet<>(backends.keySet())) {
                if (!lastBackends.contains(b)) {
                    record(nowMs, "BACKEND_UP", b, siteOf.get(b));
                }
            }
            for (String b : new TreeSet<>(lastBackends)) {
                if (!backends.containsKey(b)) {
                    record(nowMs, "BACKEND_DOWN", b, lastSiteOf.get(b));
                }
            }
            for (String b : new TreeSet<>(drains.keySet())) {
                if (!drains.get(b).equals(lastDrains.get(b))) {
                    record(nowMs, drains.get(b), b, siteOf.getOrDefault(b, lastSiteOf.get(b)));
                }
            }
            for (String b : new TreeSet<>(lastDrains.keySet())) {
                if (!drains.containsKey(b)) {
                    record(nowMs, "RESTORED", b, siteOf.getOrDefault(b, lastSiteOf.get(b)));
                }
            }
            lastBackends = Set.copyOf(backends.keySet());
            if (!siteOf.isEmpty()) {
                lastSiteOf = Map.copyOf(siteOf);
            }
            lastDrains = Map.copyOf(drains);
        }
        for (Runnable l : listeners) {
            l.run();
        }
    }

    /**
     * @param site the site whose offload manager tells its events
     * @return the listener of that manager's events (called under the manager's lock: quick); each but the
     *         heavy-hitter reports joins the stream with its site
     */
    public Consumer<OffloadEvent> atSite(String site) {
        return e -> {
            if (e.kind() != OffloadEvent.Kind.HH_REPORT) {
                synchronized (this) {
                    record(e.timeMillis(), e.kind().name(), e.ue().toString(), site);
                }
            }
        };
    }

    private void record(long timeMs, String kind, String subject, String site) {
        if (events.size() == keptEvents) {
            events.removeFirst();
        }
        events.addLast(new StreamEvent(++lastSeq, timeMs, kind, subject, site));
    }

    @Override
    public synchronized void history(ObjectNode root, long afterMs) {
        root.put("intervalMs", intervalMs);
        ArrayNode out = root.putArray("samples");
        for (LiveSample s : samples) {
            if (s.timeMs > afterMs) {
                s.into(out.addObject());
            }
        }
    }

    @Override
    public synchronized void events(ObjectNode root, long afterSeq) {
        ArrayNode out = root.putArray("events");
        for (StreamEvent e : events) {
            if (e.seq > afterSeq) {
                ObjectNode o = out.addObject().put("seq", e.seq).put("time", e.timeMs).put("kind", e.kind)
                        .put("subject", e.subject);
                if (e.site != null) {
                    o.put("site", e.site);
                }
            }
        }
    }

    @Override
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    /** @return how many listeners are registered (a test checks a closed view leaves none) */
    public int listeners() {
        return listeners.size();
    }

    /** One entry of the stream: what happened to which UE or backend, when. */
    private static final class StreamEvent {
        final long seq;
        final long timeMs;
        final String kind;
        final String subject;
        /** The site of the UE's offload manager or of the backend, null where unknown. */
        final String site;

        StreamEvent(long seq, long timeMs, String kind, String subject, String site) {
            this.seq = seq;
            this.timeMs = timeMs;
            this.kind = kind;
            this.subject = subject;
            this.site = site;
        }
    }
}
