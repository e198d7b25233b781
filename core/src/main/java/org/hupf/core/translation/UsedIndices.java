package org.hupf.core.translation;

import java.util.BitSet;

/**
 * The indices of one device array in use, handing out the lowest free one from index 1 (0 means "none"). The lowest
 * free index is searched from a bound below which every index is in use: with a million sessions held, a search from
 * 1 would read the 31,000 words of a full bitmap at every allocation; from the bound, consecutive allocations read a
 * word or two each. Not thread-safe: {@link ResourcePool} calls it under its lock.
 */
final class UsedIndices {

    private static final int FIRST = 1;

    private final BitSet used = new BitSet();
    /** Every index in [FIRST, lowestFreeBound) is in use. */
    private int lowestFreeBound = FIRST;

    /** @return the lowest index at least 1 not in use (not taken by this call) */
    int lowestFree() {
        lowestFreeBound = used.nextClearBit(lowestFreeBound);
        return lowestFreeBound;
    }

    void set(int index) {
        used.set(index);
    }

    void clear(int index) {
        used.clear(index);
        if (index >= FIRST && index < lowestFreeBound) {
            lowestFreeBound = index;
        }
    }

    /** @return how many indices at least 1 are in use */
    int inUse() {
        return used.cardinality() - (used.get(0) ? 1 : 0);
    }
}
