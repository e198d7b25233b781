package org.hupf.core.pfcp;

import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The answers already sent, by exchange key, so that a retransmission gets the same bytes and is not carried out
 * twice (TS 29.244 §6.4), and the requests still being answered. An answer's window starts when it is sent, and
 * again with each retransmission it answers ({@link #answerTo}): a request that waited behind slow devices (a
 * loaded machine took over a minute), a change whose store commit was slow (ONOS's Raft commit under load), or an
 * SMF whose socket drops the answers (a starved host) would otherwise see its request carried out again. A session
 * change's answer is kept in the session store with the change: the cache starts from the store's, so this holds
 * across a restart of hupf.
 */
final class ResponseCache {

    /** Bound of the cache: at 10k requests/s, several times T1 x N1 of history. */
    static final int MAX_CACHED_RESPONSES = 1 << 17;

    private final long keepMillis;
    private final SessionStore store;
    private final LongSupplier clock;
    /** Requests being answered, by exchange key. */
    private final Set<String> inProgress = ConcurrentHashMap.newKeySet();
    /** The answers of changes being committed, by exchange key: sent once the change is committed. */
    private final Map<String, KeptResponse> committing = new HashMap<>();
    /** Answered requests by exchange key, least recently asked first, bounded in count as well as in age. */
    private final Map<String, KeptResponse> answered = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, KeptResponse> eldest) {
            return size() > MAX_CACHED_RESPONSES;
        }
    };

    ResponseCache(long keepMillis, SessionStore store, LongSupplier clock) {
        this.keepMillis = keepMillis;
        this.store = store;
        this.clock = clock;
        long now = clock.getAsLong();
        for (KeptResponse r : store.keptResponses()) {
            if (now - r.atMillis <= keepMillis) {
                answered.put(r.key, r);
            }
        }
    }

    /**
     * The answer to a retransmission, whose window starts again now: a peer still retransmitting has not had the
     * answer (a starved SMF's socket drops datagrams), and must get it rather than have its request carried out
     * again, however long it goes on.
     *
     * @return the bytes sent to answer this key, or null
     */
    synchronized byte[] answerTo(String key) {
        KeptResponse r = answered.remove(key);
        if (r == null) {
            return null;
        }
        answered.put(key, new KeptResponse(key, r.bytes, clock.getAsLong()));
        return r.bytes;
    }

    /** @return false when the key is already being answered: the request is a retransmission */
    boolean begin(String key) {
        return inProgress.add(key);
    }

    /**
     * Keeps the answer being sent, its window starting now: a change's own (the bytes the store commits with
     * it), else the given bytes.
     *
     * @param key    the exchange's key
     * @param encode encodes the answer, called unless the change's is kept
     * @return the bytes that answer the key
     */
    byte[] sending(String key, Supplier<byte[]> encode) {
        KeptResponse change;
        synchronized (this) {
            change = committing.remove(key);
        }
        byte[] out = change != null ? change.bytes : encode.get();
        synchronized (this) {
            answered.remove(key);
            answered.put(key, new KeptResponse(key, out, clock.getAsLong()));
        }
        inProgress.remove(key);
        return out;
    }

    /**
     * Ends a request that failed without an answer. A change of it that reached the store (its commit failed
     * or did not say) is in effect here: its retransmission gets the change's answer, not a second execution.
     */
    void abandon(String key) {
        synchronized (this) {
            KeptResponse change = committing.remove(key);
            if (change != null) {
                answered.put(key, new KeptResponse(key, change.bytes, clock.getAsLong()));
            }
        }
        inProgress.remove(key);
    }

    /**
     * Keeps the answer to a session change, which the store is about to commit with the change; it answers the
     * request's retransmissions once sent ({@link #sending}).
     */
    synchronized KeptResponse keep(String key, byte[] bytes) {
        KeptResponse r = new KeptResponse(key, bytes, clock.getAsLong());
        committing.put(key, r);
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
