package org.hupf.core.store;

import java.util.function.Supplier;

/**
 * The response to a PFCP request that changed a session, kept with the change it answers: a retransmission
 * of the request (same peer, sequence number and message type, TS 29.244 §6.4) gets these bytes again, also
 * after a restart, instead of being carried out a second time.
 */
public final class KeptResponse {

    /** The request's identity, made when first asked: a store that keeps it in this process never asks. */
    private final Supplier<String> identity;
    private volatile String key;
    /** The response as it was sent. */
    public final byte[] bytes;
    /** When the request was answered, ms since the epoch: the retransmission window starts then. */
    public final long atMillis;

    /**
     * @param key      the request's identity
     * @param bytes    the response datagram (not copied: never changed after)
     * @param atMillis when it was answered
     */
    public KeptResponse(String key, byte[] bytes, long atMillis) {
        this(() -> key, bytes, atMillis);
        this.key = key;
    }

    /**
     * @param identity makes the request's identity, whenever asked
     * @param bytes    the response datagram (not copied: never changed after)
     * @param atMillis when it was answered
     */
    public KeptResponse(Supplier<String> identity, byte[] bytes, long atMillis) {
        this.identity = identity;
        this.bytes = bytes;
        this.atMillis = atMillis;
    }

    /** @return the request's identity: peer address and port, sequence number, message type */
    public String key() {
        String k = key;
        if (k == null) {
            k = identity.get();
            key = k;
        }
        return k;
    }
}
