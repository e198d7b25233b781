package org.hupf.core.pfcp;

import java.net.InetSocketAddress;

/** One request being answered: who sent it, the key its answer is cached under, and when it arrived. */
final class Exchange {
    final InetSocketAddress peer;
    /** (peer, sequence, type): a retransmission has the same key. */
    final String key;
    final long receivedMillis;

    Exchange(InetSocketAddress peer, String key, long receivedMillis) {
        this.peer = peer;
        this.key = key;
        this.receivedMillis = receivedMillis;
    }
}
