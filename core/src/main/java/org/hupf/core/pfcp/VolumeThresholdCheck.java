package org.hupf.core.pfcp;

import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Urr;
import org.hupf.core.session.SessionManager;
import org.onlab.packet.Ip4Address;

import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Which sessions' volume thresholds the {@link PfcpAgent}'s timer checks: those whose usage changed, once a
 * counter poll tells them ({@link #usageChanges}), else every session against one bulk counter read, not one
 * Read each (nothing read with no volume threshold anywhere). That full check's cost grows with the sessions:
 * it runs again after nine times its duration at least. The first check after the feed starts is a full one:
 * it covers what changed before. After a restart the first full check waits until the stored sessions are tracked
 * (every host tracks them as it starts): a session request waits for that tracking, and a scan of every session
 * beside it (its bulk counter read, a map per session) only delays it.
 */
final class VolumeThresholdCheck {

    /** Full checks run again after this many times the last one's duration at least. */
    private static final int IDLE_FACTOR = 9;

    private final SessionManager sessions;
    private final UsageReporter usage;
    /** UEs whose usage changed since the last check, from whoever polls the counters. */
    private final Set<Ip4Address> usageChanged = ConcurrentHashMap.newKeySet();
    /** Set once a counter poll tells {@link #usageChanges}: thresholds are then checked for those only. */
    private volatile boolean usageChangesFed;
    /** Touched by the timer thread only. */
    private boolean checkedAllSinceFed;
    private long checkedAt;
    private long checkMillis;

    VolumeThresholdCheck(SessionManager sessions, UsageReporter usage) {
        this.sessions = sessions;
        this.usage = usage;
    }

    /** @return where to send the UEs whose usage changed; from then on only their sessions are checked */
    Consumer<Collection<Ip4Address>> usageChanges() {
        usageChangesFed = true;
        return usageChanged::addAll;
    }

    /** @return the volume-threshold reports due now (on the timer thread) */
    List<UsageReporter.Due> due(long now) {
        if (checkedAllSinceFed) {
            Map<Long, PfcpSession> changed = new HashMap<>();
            for (Iterator<Ip4Address> it = usageChanged.iterator(); it.hasNext(); ) {
                PfcpSession s = sessions.sessionOfUe(it.next());
                it.remove();
                if (s != null) {
                    changed.put(s.upSeid, s);
                }
            }
            return changed.isEmpty() ? List.of() : usage.thresholdsDue(changed.values());
        }
        if (now - checkedAt < IDLE_FACTOR * checkMillis || !sessions.storedSessionsTracked()) {
            return List.of();
        }
        checkedAt = now;
        boolean fed = usageChangesFed;
        Collection<PfcpSession> all = sessions.store().all();
        boolean thresholds = all.stream().anyMatch(s -> s.urrs.values().stream().anyMatch(Urr::volumeThreshold));
        List<UsageReporter.Due> due = thresholds ? sessions.withCounterSnapshot(() -> usage.thresholdsDue(all))
                : List.of();
        checkMillis = System.currentTimeMillis() - now;
        checkedAllSinceFed = fed;
        return due;
    }
}
