package org.hupf.core.pfcp;

import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers already sent, by exchange key, so that a retransmission gets the same bytes and is not carried out
 * twice (TS 29.244 §6.4), and the requests still being answered. An answer is kept from when it is made, not from
 * when its request arrived: a request that waited behind slow devices for longer than the window (a loaded machine
 * took over a minute) would otherwise lose its answer at once, and its retransmission be carried out again. A session change's answer is kept in the session
 * store with the change: the cache starts from the store's, so this holds across a restart of hupf.
 */
final class ResponseCache {

    /** Bound of the cache: at 10k requests/s, several times T1 x N1 of history. */
    static final int MAX_CACHED_RESPONSES = 1 << 17;

    private final long keepMillis;
    private final SessionStore store;
    /** Requests being answered, by exchange key. */
    private final Set<String> inProgress = ConcurrentHashMap.newKeySet();
    /** Answered requests by exchange key, oldest first, bounded in count as well as in age. */
    private final Map<String, KeptResponse> answered = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, KeptResponse> eldest) {
            return size() > MAX_CACHED_RESPONSES;
        }
    };

    ResponseCache(long keepMillis, SessionStore store) {
        this.keepMillis = keepMillis;
        this.store = store;
        long now = System.currentTimeMillis();
        for (KeptResponse r : store.keptResponses()) {
            if (now - r.atMillis <= keepMillis) {
                answered.put(r.key, r);
            }
        }
    }

    /** @return the bytes that answered this key, or null */
    synchronized byte[] answerTo(String key) {
        KeptResponse r = answered.get(key);
        return r == null ? null : r.bytes;
    }

    /** @return false when the key is already being answered: the request is a retransmission */
    boolean begin(String key) {
        return inProgress.add(key);
    }

    void end(String key) {
        inProgress.remove(key);
    }

    /**
     * Keeps an answer unless one is kept already (a change's, kept with it in the store).
     *
     * @return the bytes that answer the key
     */
    synchronized byte[] keepFirst(String key, byte[] bytes, long now) {
        KeptResponse kept = answered.get(key);
        if (kept != null) {
            return kept.bytes;
        }
        answered.put(key, new KeptResponse(key, bytes, now));
        return bytes;
    }

    /** Keeps the answer to a session change, which the store is about to keep with the change. */
    synchronized KeptResponse keep(String key, byte[] bytes, long now) {
        KeptResponse r = new KeptResponse(key, bytes, now);
        answered.put(key, r);
        return r;
    }

    /** Forgets answers older than the configured time, here and in the session store. */
    void evict(long now) {
        synchronized (this) {
            answered.values().removeIf(r -> now - r.atMillis > keepMillis);
        }
        store.pruneResponses(now - keepMillis, MAX_CACHED_RESPONSES);
    }
}
