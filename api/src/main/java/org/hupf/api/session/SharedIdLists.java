package org.hupf.api.session;

import java.util.List;

/**
 * One list for the rule id lists many sessions repeat (a PDR's QER and URR ids, commonly [1]): an immutable list of
 * a decoded message is 24 bytes or more a PDR holds. A direct-mapped cache of the lists seen last, as
 * {@link SharedLongs}: bounded, without a lock (a racing thread only shares less, a list's reference is written
 * whole).
 */
final class SharedIdLists {

    private static final int BITS = 8;
    private static final int LONGEST_SHARED = 4;
    @SuppressWarnings("unchecked")
    private static final List<Long>[] LISTS = new List[1 << BITS];

    private SharedIdLists() {
    }

    /** @return an immutable list equal to {@code ids}, the one held for those ids when there is one */
    static List<Long> of(List<Long> ids) {
        List<Long> copy = List.copyOf(ids);
        if (copy.isEmpty() || copy.size() > LONGEST_SHARED) {
            return copy;
        }
        int slot = copy.hashCode() * 0x9E3779B9 >>> (32 - BITS);
        List<Long> held = LISTS[slot];
        if (copy.equals(held)) {
            return held;
        }
        LISTS[slot] = copy;
        return copy;
    }
}
