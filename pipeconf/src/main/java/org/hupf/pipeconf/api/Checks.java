package org.hupf.pipeconf.api;

/**
 * Builder validation shared by the entity classes: every failure names the field and the allowed range.
 */
final class Checks {

    private Checks() {
    }

    static <T> T present(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return value;
    }

    static int inRange(Integer value, String field, long min, long max) {
        int v = present(value, field);
        if (v < min || v > max) {
            throw new IllegalArgumentException(field + " " + v + " out of range [" + min + ", " + max + "]");
        }
        return v;
    }

    static long inRange(Long value, String field, long min, long max) {
        present(value, field);
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    field + " " + value + " out of range [" + min + ", " + max + "]");
        }
        return value;
    }

    /** Widths from the contract: slice_id bit<4>, app_id and tun_peer_id bit<8>, tc bit<2>, qfi bit<6>. */
    static final int MAX_SLICE_ID = 15;
    static final int MAX_APP_ID = 255;
    static final int MAX_TUN_PEER_ID = 255;
    static final int MAX_TC = 3;
    static final int MAX_QFI = 63;
    /** ctr_idx and meter idx are bit<32>, kept non-negative in a Java int. */
    static final int MAX_INDEX = Integer.MAX_VALUE;
    /** TEIDs are bit<32>, carried unsigned in a long. */
    static final long MAX_TEID = 0xFFFFFFFFL;
}
