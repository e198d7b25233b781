package org.hupf.standalone.store;

import org.h2.mvstore.MVMap;
import org.hupf.core.store.KeptResponse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The responses kept with session changes, in the host's {@link DurableState}: an MVMap ordered by when
 * each was answered (ms shifted left {@value #ORDER_BITS} bits, plus an order for the same ms), so that
 * pruning what left the retransmission window reads only what it removes. Changes here are committed by the
 * session store's commit, with the change each response answers.
 */
final class KeptResponseLog {

    private static final int ORDER_BITS = 16;

    private final MVMap<Long, byte[]> map;
    private long lastKey;

    KeptResponseLog(MVMap<Long, byte[]> map) {
        this.map = map;
        Long last = map.lastKey();
        this.lastKey = last == null ? 0 : last;
    }

    /** Adds a response; the caller commits. */
    synchronized void add(KeptResponse r) {
        lastKey = Math.max(r.atMillis << ORDER_BITS, lastKey + 1);
        byte[] key = r.key().getBytes(StandardCharsets.UTF_8);
        map.put(lastKey, ByteBuffer.allocate(4 + key.length + r.bytes.length).putInt(key.length).put(key)
                .put(r.bytes).array());
    }

    /** @return every response, oldest first */
    List<KeptResponse> all() {
        List<KeptResponse> out = new ArrayList<>();
        for (Map.Entry<Long, byte[]> e : map.entrySet()) {
            byte[] v = e.getValue();
            int keyLength = ByteBuffer.wrap(v).getInt();
            out.add(new KeptResponse(new String(v, 4, keyLength, StandardCharsets.UTF_8),
                                     Arrays.copyOfRange(v, 4 + keyLength, v.length), e.getKey() >>> ORDER_BITS));
        }
        return out;
    }

    /**
     * Removes the responses answered before a time and the oldest beyond a count; the caller commits.
     *
     * @return whether anything was removed
     */
    synchronized boolean prune(long beforeMillis, int maxKept) {
        long excess = map.sizeAsLong() - maxKept;
        boolean removed = false;
        for (Iterator<Long> keys = map.keyIterator(null); keys.hasNext(); ) {
            long key = keys.next();
            if (key >>> ORDER_BITS >= beforeMillis && excess <= 0) {
                break;
            }
            map.remove(key);
            excess--;
            removed = true;
        }
        return removed;
    }
}
