package org.hupf.core.offload;

import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfCounter;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * What the {@link OffloadManager}'s sessions counted over both targets, read when asked (a usage query, a
 * deletion's final usage, a backend cell read through the hybrid device) rather than by the poll: the backend's
 * cells, from counts already read where the caller has them, plus what the switch counted for them. Called under
 * the manager's lock.
 */
final class UsageReads {

    private static final Logger log = LoggerFactory.getLogger(UsageReads.class);

    private final OffloadEntries entries;
    private final HupfUpfDevice backend;
    private final SwitchCounts counts;
    private final OffloadEvents events;

    UsageReads(OffloadEntries entries, HupfUpfDevice backend, SwitchCounts counts, OffloadEvents events) {
        this.entries = entries;
        this.backend = backend;
        this.counts = counts;
        this.events = events;
    }

    /** A session's usage: its backend cells' counts (from {@code backendCells}, else read now) and the switch's. */
    SessionUsage usage(OffloadEntry e, CellCounts backendCells) throws UpfProgrammableException {
        if (e.offloaded()) {
            counts.fold(e);
        }
        long[] total = new long[4];
        for (int ctr : e.counters) {
            int i = backendCells.indexOf(ctr);
            if (i >= 0) {
                for (int k = 0; k < 4; k++) {
                    total[k] += backendCells.count(i, k);
                }
            } else {
                UpfCounter c = backend.readCounter(ctr);
                total[0] += c.ingressPkts();
                total[1] += c.ingressBytes();
                total[2] += c.egressPkts();
                total[3] += c.egressBytes();
            }
        }
        return SwitchCounts.withHardware(e, total);
    }

    /** @return what the switch counted for a backend cell over all episodes (its cells read now if on it), or null */
    long[] hardwareCounts(int backendCell) {
        OffloadEntry e = entries.holderOf(backendCell);
        if (e == null) {
            return null;
        }
        if (e.offloaded() && e.cells.counterMap().containsKey(backendCell)) {
            try {
                counts.fold(e);
            } catch (UpfProgrammableException ex) {
                events.switchError();
                log.warn("Cannot read switch counters of UE {}: {}", e.session.ueAddress(), ex.getMessage());
            }
        }
        long[] acc = e.hwAccum().get(backendCell);
        return acc == null ? null : acc.clone();
    }

    /** @return the backend counter cells of the sessions of these UEs (unknown ones skipped) */
    Set<Integer> cells(Collection<Ip4Address> ues) {
        Set<Integer> cells = new HashSet<>();
        for (Ip4Address ue : ues) {
            OffloadEntry e = entries.get(Ip4Bits.of(ue));
            if (e != null) {
                for (int c : e.counters) {
                    cells.add(c);
                }
            }
        }
        return cells;
    }

    /** @return whether the sessions of the first n UEs (by address bits) hold a cell and {@code counts} has each */
    boolean countsAll(int[] ues, int n, CellCounts counts) {
        boolean any = false;
        for (int i = 0; i < n; i++) {
            OffloadEntry e = entries.get(ues[i]);
            if (e != null) {
                for (int c : e.counters) {
                    if (counts.indexOf(c) < 0) {
                        return false;
                    }
                    any = true;
                }
            }
        }
        return any;
    }
}
