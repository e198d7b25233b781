package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.UpfEntity;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link OffloadManager}'s state of one session: where it is, its rate and what each target counted for it.
 * Hardware counters are kept per backend counter index: {ip, ib, ep, eb}, in maps made only for a session the
 * switch carried: most never go there. Read and written under the manager's lock.
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
    SessionUsage lastUsage = SessionUsage.NONE;
    /** Backend cell to what the switch counted for it over all offload episodes; null until the switch counted. */
    private Map<Integer, long[]> hwAccum;
    /** Backend cell to its switch cell's value when last read; null while off the switch. */
    Map<Integer, long[]> hwLast;
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

    /** @return what the switch counted per backend cell (read only; empty for a session never offloaded) */
    Map<Integer, long[]> hwAccum() {
        return hwAccum == null ? Map.of() : hwAccum;
    }

    /** @return the switch's count of a backend cell, to add to, made zero if it had none */
    long[] hwAccumOf(int backendCell) {
        if (hwAccum == null) {
            hwAccum = new HashMap<>();
        }
        return hwAccum.computeIfAbsent(backendCell, k -> new long[4]);
    }

    /** @return the switch cells' values when last read, by backend cell (made while the session is offloaded) */
    Map<Integer, long[]> hwLast() {
        if (hwLast == null) {
            hwLast = new HashMap<>();
        }
        return hwLast;
    }
}
