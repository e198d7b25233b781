package org.hupf.core.util;

/**
 * What hupf's open-addressed tables ({@link LongMap}, {@link IntMap} and the session core's held-entity table)
 * share: linear probing in a power-of-two table at most half full, and removal by shifting back the entries after a
 * freed slot (no tombstones, so a lookup never walks past removed entries). A {@code HashMap} costs a node and a
 * boxed key per entry and a box per lookup; these cost their arrays' slots and nothing per lookup.
 */
public abstract class ProbedTable {

    /** @return the table's slot count, a power of two */
    protected abstract int capacity();

    protected abstract boolean occupied(int slot);

    /** @return where the entry at {@code slot} would go in an empty table */
    protected abstract int home(int slot);

    /** Moves the entry at {@code from} to the free slot {@code to}. */
    protected abstract void move(int from, int to);

    /** Empties {@code slot}. */
    protected abstract void clear(int slot);

    /** @return the smallest power of two at least twice {@code expected}, and at least 16 */
    public static int capacityFor(long expected) {
        int capacity = 16;
        while (capacity < expected * 2 && capacity < 1 << 30) {
            capacity <<= 1;
        }
        return capacity;
    }

    /** Empties {@code slot}, shifting back into it each following entry of its probe run that may go there. */
    protected final void free(int slot) {
        int mask = capacity() - 1;
        int free = slot;
        for (int i = (slot + 1) & mask; occupied(i); i = (i + 1) & mask) {
            int home = home(i);
            // The entry at i may fill the free slot unless its home lies cyclically in (free, i].
            boolean stays = free <= i ? free < home && home <= i : free < home || home <= i;
            if (!stays) {
                move(i, free);
                free = i;
            }
        }
        clear(free);
    }
}
