package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import java.util.Arrays;
import java.util.Collection;
import java.util.function.IntFunction;

/**
 * The {@link OffloadManager}'s sessions, found by their UE address's 32 bits and by each backend counter cell
 * they hold (a cell's switch counts, a poll's changed cell, without a scan): one record per session in two
 * int-keyed tables, no box per key. Under the manager's lock.
 */
final class OffloadEntries {

    private final IntMap<OffloadEntry> byUe = new IntMap<>();
    private final IntMap<OffloadEntry> byCounter = new IntMap<>();

    /** @return the session of a UE, by its address's bits, or null */
    OffloadEntry get(int ue) {
        return byUe.get(ue);
    }

    /** @return the session of a UE, made by {@code make} if it has none */
    OffloadEntry getOrAdd(int ue, IntFunction<OffloadEntry> make) {
        return byUe.computeIfAbsent(ue, make);
    }

    /** Indexes the session by its counter cells, in place of those it held. */
    void holdCounters(OffloadEntry e, int[] counters) {
        if (Arrays.equals(e.counters, counters)) {
            return;   // a modification that keeps the session's cells (most do): indexed already
        }
        if (e.counters != null) {
            for (int c : e.counters) {
                byCounter.remove(c, e);
            }
        }
        e.counters = counters;
        for (int c : counters) {
            byCounter.put(c, e);
        }
    }

    /** Forgets a session and its cells. */
    void remove(int ue, OffloadEntry e) {
        byUe.remove(ue, e);
        for (int c : e.counters) {
            byCounter.remove(c, e);
        }
    }

    /** @return the session holding a backend counter cell, or null */
    OffloadEntry holderOf(int cell) {
        return byCounter.get(cell);
    }

    int size() {
        return byUe.size();
    }

    /** @return every session (a live view) */
    Collection<OffloadEntry> all() {
        return byUe.values();
    }
}
