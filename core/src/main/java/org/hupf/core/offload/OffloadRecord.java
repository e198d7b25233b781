package org.hupf.core.offload;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What must outlive the offload manager of one node for one session, so that a new hupf leader (or a
 * rebuilt manager) loses no usage: the switch's counts folded so far per backend counter cell, and, while
 * the session is on the switch, the switch cells it counts in with their values when last folded. Counter
 * values are {ingress packets, ingress bytes, egress packets, egress bytes}. Immutable once built.
 */
public final class OffloadRecord {

    private final HashMap<Integer, long[]> hwAccum;
    private final HashMap<Integer, Integer> switchCells;
    private final HashMap<Integer, long[]> hwLast;

    /**
     * @param hwAccum     backend cell to what the switch counted for it, over all offload episodes
     * @param switchCells backend cell to the switch cell counting for it now; empty when not on the switch
     * @param hwLast      backend cell to its switch cell's value when last folded into hwAccum
     */
    public OffloadRecord(Map<Integer, long[]> hwAccum, Map<Integer, Integer> switchCells, Map<Integer, long[]> hwLast) {
        this.hwAccum = deepCopy(hwAccum);
        this.switchCells = new HashMap<>(switchCells);
        this.hwLast = deepCopy(hwLast);
    }

    private static HashMap<Integer, long[]> deepCopy(Map<Integer, long[]> m) {
        HashMap<Integer, long[]> c = new HashMap<>();
        m.forEach((k, v) -> c.put(k, v.clone()));
        return c;
    }

    public Map<Integer, long[]> hwAccum() {
        return deepCopy(hwAccum);
    }

    public Map<Integer, Integer> switchCells() {
        return new HashMap<>(switchCells);
    }

    Map<Integer, long[]> hwLast() {
        return deepCopy(hwLast);
    }

    public boolean onSwitch() {
        return !switchCells.isEmpty();
    }

    /**
     * Folds what the switch cells counted since they were last read and forgets them: the session is being
     * taken off the switch.
     *
     * @param current switch cell to its value now
     * @return the record of a session that is on the backend only
     */
    public OffloadRecord reclaimed(Map<Integer, long[]> current) {
        Map<Integer, long[]> accum = hwAccum();
        switchCells.forEach((backendCell, switchCell) -> {
            long[] now = current.get(switchCell);
            long[] last = hwLast.get(backendCell);
            long[] acc = accum.computeIfAbsent(backendCell, k -> new long[4]);
            for (int i = 0; i < 4; i++) {
                // A cell reset below its last value (switch restarted) counted nothing we can trust.
                acc[i] += Math.max(0, now[i] - (last == null ? 0 : last[i]));
            }
        });
        return new OffloadRecord(accum, Map.of(), Map.of());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OffloadRecord)) {
            return false;
        }
        OffloadRecord r = (OffloadRecord) o;
        return sameCounts(hwAccum, r.hwAccum) && switchCells.equals(r.switchCells) && sameCounts(hwLast, r.hwLast);
    }

    private static boolean sameCounts(Map<Integer, long[]> a, Map<Integer, long[]> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (Map.Entry<Integer, long[]> e : a.entrySet()) {
            if (!java.util.Arrays.equals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(hwAccum.keySet(), switchCells);
    }
}
