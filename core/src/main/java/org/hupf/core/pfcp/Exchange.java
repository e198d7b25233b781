package org.hupf.core.pfcp;

import org.hupf.core.store.KeptResponse;

import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * One request being answered, and once answered its answer kept for retransmissions: who sent it, its sequence
 * number and type (a retransmission has the same three, TS 29.244 §6.4), when it arrived. The {@link ResponseCache}
 * keeps it as its own entry, so that a request costs no key object and one lookup.
 */
final class Exchange implements Supplier<String> {
    final InetSocketAddress peer;
    final int sequence;
    final int type;
    final long receivedMillis;

    /** The answer sent (null while the request is being answered), and when its window started. */
    byte[] answer;
    long answeredMillis;
    /** The answer of the change being committed, kept with it in the store; sent once committed. */
    KeptResponse committing;
    /** Another exchange whose {@link ResponseCache} key is the same (another peer, same hash). */
    Exchange sameKey;
    /** The answered exchanges in the order their windows started. */
    Exchange older;
    Exchange newer;

    Exchange(InetSocketAddress peer, int sequence, int type, long receivedMillis) {
        this.peer = peer;
        this.sequence = sequence;
        this.type = type;
        this.receivedMillis = receivedMillis;
    }

    boolean is(InetSocketAddress peer, int sequence, int type) {
        return this.sequence == sequence && this.type == type && this.peer.equals(peer);
    }

    /** The request's identity as the session stores keep it: peer address and port, sequence number, type. */
    @Override
    public String get() {
        return peer + "/" + sequence + "/" + type;
    }
}
