package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.UpfEntity;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link OffloadManager}'s state of one session: where it is, its rate and what each target counted for it.
 * Hardware counters are kept per backend counter index: {ip, ib, ep, eb}. Read and written under the manager's lock.
 */
final class OffloadEntry {
    OffloadSession session;
    int[] counters;
    OffloadPolicy.Pin pin;
    SwitchCells cells;
    List<UpfEntity> switchEntities;
    long offloadedAt;
    Long coldSince;
    Long reportedAt;
    double rateBps;
    long lastBytes;
    long lastPollMillis = -1;
    SessionUsage lastUsage = new SessionUsage(0, 0, 0, 0, 0);
    final Map<Integer, long[]> hwAccum = new HashMap<>();
    final Map<Integer, long[]> hwLast = new HashMap<>();
    /** Switch reads under the lock ({@link SwitchCounts#reads}) when hwLast was last read from the switch. */
    long hwReadAt;
    /** Taken off the switch while its session changes or goes ({@link OffloadManager#fallBack}): not promoted again
     *  before it is tracked again. */
    boolean changing;
    /** Untracked: a poll that noted it leaves it alone. */
    boolean gone;
    /** When last tracked, in the poll's count of tracks: a poll that started before leaves it to the next. */
    long trackedAt;
    /** Not among the poll's active sessions: its usage is lastUsage as of the last poll, its rate 0. */
    boolean quiet;

    boolean offloaded() {
        return cells != null;
    }
}
