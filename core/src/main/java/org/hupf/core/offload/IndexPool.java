package org.hupf.core.offload;

import java.util.BitSet;

/**
 * Free cells of one indexed array (counters or meters) of the switch, whose arrays are far smaller
 * than the backend's: a session's backend indices are remapped to switch cells from these pools.
 */
final class IndexPool {

    private final BitSet used = new BitSet();
    private final int first;
    private final int size;
    private int inUse;

    /**
     * @param first lowest index handed out (meter cell 0 is the shared "unmetered" cell)
     * @param size  array size
     */
    IndexPool(int first, int size) {
        this.first = first;
        this.size = size;
    }

    int free() {
        return Math.max(0, size - first - inUse);
    }

    int allocate() {
        int i = used.nextClearBit(first);
        if (i >= size) {
            throw new IllegalStateException("no free cell in an array of size " + size);
        }
        used.set(i);
        inUse++;
        return i;
    }

    void release(int i) {
        if (i >= first && i < size && used.get(i)) {
            used.clear(i);
            inUse--;
        }
    }
}
