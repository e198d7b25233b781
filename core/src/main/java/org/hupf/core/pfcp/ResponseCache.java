package org.hupf.core.pfcp;

import org.hupf.core.util.LongMap;
import org.hupf.core.store.KeptResponse;
import org.hupf.core.store.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The requests being answered and the answers already sent, in one table of {@link Exchange}s found by peer,
 * sequence number and type, so that a retransmission gets the same bytes and is not carried out twice (TS 29.244
 * §6.4). An answer's window starts when it is sent, and again with each retransmission it answers
 * ({@link #begin}): a request that waited behind slow devices (a loaded machine took over a minute), a change whose
 * store commit was slow (ONOS's Raft commit under load), or an SMF whose socket drops the answers (a starved host)
 * would otherwise see its request carried out again. A session change's answer is kept in the session store with
 * the change: the cache starts from the store's, so this holds across a restart of hupf.
 *
 * <p>The table is keyed by a long packed from the sequence number, the type and the peer's hash, the exchanges of
 * peers whose hashes meet chained behind each other: a request costs one lookup and no key object.
 */
final class ResponseCache {

    private static final Logger log = LoggerFactory.getLogger(ResponseCache.class);

    /** Bound of the cache: at 10k requests/s, several times T1 x N1 of history. */
    static final int MAX_CACHED_RESPONSES = 1 << 17;
    /** {@link #begin}'s answer for a request already being answered. */
    static final byte[] IN_PROGRESS = new byte[0];

    private final long keepMillis;
    private final SessionStore store;
    private final LongSupplier clock;
    private final LongMap<Exchange> exchanges = new LongMap<>();
    /** The answered exchanges, oldest window first. */
    private Exchange oldest;
    private Exchange newest;
    private int answered;

    ResponseCache(long keepMillis, SessionStore store, LongSupplier clock) {
        this.keepMillis = keepMillis;
        this.store = store;
        this.clock = clock;
        long now = clock.getAsLong();
        for (KeptResponse r : store.keptResponses()) {
            Exchange ex = now - r.atMillis <= keepMillis ? restored(r) : null;
            if (ex != null && find(ex.peer, ex.sequence, ex.type) == null) {
                insert(ex);
                answer(ex, r.bytes, r.atMillis);
            }
        }
    }

    /**
     * Starts a request, unless it is a retransmission: of an answered one, whose window starts again now (a peer
     * still retransmitting has not had the answer, and must get it rather than have its request carried out again,
     * however long it goes on); or of one being answered (the answer follows).
     *
     * @param ex the request
     * @return the answer to send again, {@link #IN_PROGRESS}, or null when {@code ex} is a new request, now
     *         being answered
     */
    synchronized byte[] begin(Exchange ex) {
        Exchange known = find(ex.peer, ex.sequence, ex.type);
        if (known == null) {
            insert(ex);
            return null;
        }
        if (known.answer == null) {
            return IN_PROGRESS;
        }
        answer(known, known.answer, clock.getAsLong());
        return known.answer;
    }

    /**
     * @return the answer sent to this request, whose window starts again now, or null (none yet, or none kept)
     */
    synchronized byte[] answerTo(InetSocketAddress peer, int sequence, int type) {
        Exchange known = find(peer, sequence, type);
        if (known == null || known.answer == null) {
            return null;
        }
        answer(known, known.answer, clock.getAsLong());
        return known.answer;
    }

    /**
     * Keeps the answer being sent, its window starting now: a change's own (the bytes the store commits with it),
     * else the given bytes. An answer that fails to encode ends the request as {@link #abandon} does.
     *
     * @param ex     the request
     * @param encode encodes the answer, called unless the change's is kept
     * @return the bytes that answer the request
     */
    byte[] sending(Exchange ex, Supplier<byte[]> encode) {
        KeptResponse change;
        synchronized (this) {
            change = ex.committing;
        }
        byte[] out;
        try {
            out = change != null ? change.bytes : encode.get();
        } catch (RuntimeException | Error e) {
            abandon(ex);
            throw e;
        }
        synchronized (this) {
            ex.committing = null;
            answer(ex, out, clock.getAsLong());
        }
        return out;
    }

    /**
     * Ends a request that failed without an answer. A change of it that reached the store (its commit failed or
     * did not say) is in effect here: its retransmission gets the change's answer, not a second execution; any
     * other is carried out anew.
     */
    synchronized void abandon(Exchange ex) {
        if (ex.answer != null) {
            return;
        }
        KeptResponse change = ex.committing;
        ex.committing = null;
        if (change != null) {
            answer(ex, change.bytes, clock.getAsLong());
        } else {
            unlink(ex);
        }
    }

    /**
     * Keeps the answer to a session change, which the store is about to commit with the change; it answers the
     * request's retransmissions once sent ({@link #sending}).
     */
    KeptResponse keep(Exchange ex, byte[] bytes) {
        KeptResponse r = new KeptResponse(ex, bytes, clock.getAsLong());
        synchronized (this) {
            ex.committing = r;
        }
        return r;
    }

    /** Forgets answers older than the configured time, here and in the session store. */
    void evict(long now) {
        synchronized (this) {
            while (oldest != null && now - oldest.answeredMillis > keepMillis) {
                forget(oldest);
            }
        }
        store.pruneResponses(now - keepMillis, MAX_CACHED_RESPONSES);
    }

    /** Sets an exchange's answer and moves it to the newest end of the windows, within the bound. */
    private void answer(Exchange ex, byte[] bytes, long atMillis) {
        if (ex.answer != null) {
            unqueue(ex);
        }
        ex.answer = bytes;
        ex.answeredMillis = atMillis;
        ex.older = newest;
        ex.newer = null;
        if (newest != null) {
            newest.newer = ex;
        } else {
            oldest = ex;
        }
        newest = ex;
        if (++answered > MAX_CACHED_RESPONSES) {
            forget(oldest);
        }
    }

    private void forget(Exchange ex) {
        unqueue(ex);
        unlink(ex);
    }

    private void unqueue(Exchange ex) {
        if (ex.older != null) {
            ex.older.newer = ex.newer;
        } else {
            oldest = ex.newer;
        }
        if (ex.newer != null) {
            ex.newer.older = ex.older;
        } else {
            newest = ex.older;
        }
        ex.older = null;
        ex.newer = null;
        answered--;
    }

    private static long key(InetSocketAddress peer, int sequence, int type) {
        return (long) (sequence << 8 | type & 0xff) << 32 | peer.hashCode() & 0xffffffffL;
    }

    private Exchange find(InetSocketAddress peer, int sequence, int type) {
        Exchange e = exchanges.get(key(peer, sequence, type));
        while (e != null && !e.is(peer, sequence, type)) {
            e = e.sameKey;
        }
        return e;
    }

    private void insert(Exchange ex) {
        long key = key(ex.peer, ex.sequence, ex.type);
        ex.sameKey = exchanges.put(key, ex);
    }

    private void unlink(Exchange ex) {
        long key = key(ex.peer, ex.sequence, ex.type);
        Exchange head = exchanges.get(key);
        if (head == ex) {
            if (ex.sameKey == null) {
                exchanges.remove(key);
            } else {
                exchanges.put(key, ex.sameKey);
            }
        } else {
            Exchange e = head;
            while (e != null && e.sameKey != ex) {
                e = e.sameKey;
            }
            if (e != null) {
                e.sameKey = ex.sameKey;
            }
        }
        ex.sameKey = null;
    }

    /**
     * A kept response's request from its text ({@link Exchange#get}: {@code host/address:port/sequence/type}), or
     * null when the text is not one.
     */
    private static Exchange restored(KeptResponse r) {
        try {
            int typeAt = r.key().lastIndexOf('/');
            int sequenceAt = r.key().lastIndexOf('/', typeAt - 1);
            int addressAt = r.key().lastIndexOf('/', sequenceAt - 1);
            int portAt = r.key().lastIndexOf(':', sequenceAt);
            String address = r.key().substring(addressAt + 1, portAt).replace("[", "").replace("]", "");
            InetSocketAddress peer = new InetSocketAddress(InetAddress.getByName(address),
                                                           Integer.parseInt(r.key().substring(portAt + 1, sequenceAt)));
            return new Exchange(peer, Integer.parseInt(r.key().substring(sequenceAt + 1, typeAt)),
                                Integer.parseInt(r.key().substring(typeAt + 1)), r.atMillis);
        } catch (IndexOutOfBoundsException | NumberFormatException | UnknownHostException e) {
            log.warn("kept response under '{}' not restored: not a request's identity", r.key());
            return null;
        }
    }
}
