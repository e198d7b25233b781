package org.hupf.api.session;

/**
 * One box for the values many sessions repeat (a policy's bit rates, a URR's period and thresholds): a decoded
 * message makes a new {@code Long} for each, 24 bytes a value a session holds. A direct-mapped cache of the boxes
 * seen last: a value whose slot holds an equal box gets that box, any other takes the slot. Bounded, and without a
 * lock: two threads racing for a slot only share less (a {@code Long} is immutable, its reference written whole).
 */
final class SharedLongs {

    private static final int BITS = 10;
    private static final Long[] BOXES = new Long[1 << BITS];

    private SharedLongs() {
    }

    /** @return a box equal to {@code value} (null for null), the one held for that value when there is one */
    static Long of(Long value) {
        if (value == null) {
            return null;
        }
        long v = value;
        int slot = (int) ((v ^ v >>> 32) * 0x9E3779B97F4A7C15L >>> (64 - BITS));
        Long held = BOXES[slot];
        if (held != null && held == v) {
            return held;
        }
        BOXES[slot] = value;
        return value;
    }
}
