package org.hupf.core.offload;

import org.hupf.pipeconf.api.UpfCounter;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Map;

/**
 * What the switch counted for each session, folded over all its offload episodes, and kept in an
 * {@link OffloadStore} so that it outlives the {@link OffloadManager} (a new leader's manager starts from it).
 * Switch cells are reused between sessions: a newly mapped cell's value is its baseline, not the session's.
 * Called under the manager's lock.
 */
final class SwitchCounts {

    private final DeviceTable hardware;
    private OffloadStore store = OffloadStore.NONE;
    /** Switch counter reads so far: a poll's unlocked read is stale for an entry read since. */
    private long reads;

    /** @param hardware the switch, or null when there is none */
    SwitchCounts(DeviceTable hardware) {
        this.hardware = hardware;
    }

    void useStore(OffloadStore offloadStore) {
        this.store = offloadStore;
    }

    /** @return switch counter reads so far */
    long reads() {
        return reads;
    }

    /** Records the current value of newly mapped switch counter cells, which may hold an earlier user's counts. */
    void baseline(OffloadEntry e, Map<Integer, Integer> counterMap) throws UpfProgrammableException {
        e.hwReadAt = ++reads;
        for (Map.Entry<Integer, Integer> c : counterMap.entrySet()) {
            if (!e.hwLast().containsKey(c.getKey())) {
                e.hwLast().put(c.getKey(), values(hardware.device().readCounter(c.getValue())));
            }
        }
    }

    /** Reads an offloaded session's switch cells and adds what they counted since the last read. */
    void fold(OffloadEntry e) throws UpfProgrammableException {
        e.hwReadAt = ++reads;
        for (Map.Entry<Integer, Integer> c : e.cells.counterMap().entrySet()) {
            accumulate(e, c.getKey(), values(hardware.device().readCounter(c.getValue())));
        }
        persist(e);
    }

    /** A new entry, with the switch counts a previous manager folded for the UE. */
    OffloadEntry restored(Ip4Address ue) {
        OffloadEntry e = new OffloadEntry();
        OffloadRecord r = store.get(ue);
        if (r != null) {
            r.hwAccum().forEach((cell, counted) -> add(e.hwAccumOf(cell), counted));
        }
        return e;
    }

    /** Stores what the switch counted for a session (and where it counts now) for whoever manages next. */
    void persist(OffloadEntry e) {
        if (store != OffloadStore.NONE) {
            store.put(e.session.ueAddress(), new OffloadRecord(
                    e.hwAccum(), e.offloaded() ? e.cells.counterMap() : Map.of(), e.offloaded() ? e.hwLast() : Map.of()));
        }
    }

    /** Forgets a session that is gone. */
    void forget(Ip4Address ue) {
        store.remove(ue);
    }

    /** Adds what a switch cell counted since it was last read to the session's hardware totals. */
    static void accumulate(OffloadEntry e, int backendCell, long[] now) {
        long[] last = e.hwLast().get(backendCell);
        long[] acc = e.hwAccumOf(backendCell);
        for (int i = 0; i < 4; i++) {
            acc[i] += Math.max(0, now[i] - last[i]);
        }
        e.hwLast().put(backendCell, now);
    }

    /** The usage of a session from its backend totals and what the switch counted for it (shared when none). */
    static SessionUsage withHardware(OffloadEntry e, long[] total) {
        long hwPkts = 0;
        long hwBytes = 0;
        for (long[] acc : e.hwAccum().values()) {
            for (int i = 0; i < 4; i++) {
                total[i] += acc[i];
            }
            hwPkts += acc[0];
            hwBytes += acc[1];
        }
        if ((total[0] | total[1] | total[2] | total[3]) == 0) {
            return SessionUsage.NONE;   // counts are never negative: an idle session holds no usage of its own
        }
        return new SessionUsage(total[0], total[1], total[2], total[3], hwPkts, hwBytes);
    }

    private static void add(long[] total, long[] v) {
        for (int i = 0; i < 4; i++) {
            total[i] += v[i];
        }
    }

    /** @return a counter cell's {ingress packets, ingress bytes, egress packets, egress bytes} */
    static long[] values(UpfCounter c) {
        return new long[]{c.ingressPkts(), c.ingressBytes(), c.egressPkts(), c.egressBytes()};
    }
}
