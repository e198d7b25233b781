package org.hupf.core.pfcp;

import org.hupf.core.pfcp.codec.DecodeException;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The requests the {@link PfcpAgent} originates (heartbeats, Session Report Requests): each waits for its
 * answer, matched by sequence number and peer, and is retransmitted every T1 up to N1 times (§6.4).
 */
final class OutgoingRequests {

    private static final Logger log = LoggerFactory.getLogger(OutgoingRequests.class);

    private final PfcpConfig config;
    private final PfcpStats stats;
    private final BiConsumer<InetSocketAddress, byte[]> sender;
    /** Sequence numbers of hupf's own requests are random: their answers cannot be forged blind. */
    private final SecureRandom sequences = new SecureRandom();
    private final Map<Integer, Pending> pending = new ConcurrentHashMap<>();

    private static final class Pending {
        final InetSocketAddress peer;
        final int type;
        final byte[] bytes;
        final Consumer<PfcpMessage> onResponse;
        final Runnable onTimeout;
        int attempts = 1;
        long nextMillis;

        Pending(InetSocketAddress peer, int type, byte[] bytes, Consumer<PfcpMessage> onResponse,
                Runnable onTimeout, long nextMillis) {
            this.peer = peer;
            this.type = type;
            this.bytes = bytes;
            this.onResponse = onResponse;
            this.onTimeout = onTimeout;
            this.nextMillis = nextMillis;
        }
    }

    /** @param sender sends a datagram to a peer */
    OutgoingRequests(PfcpConfig config, PfcpStats stats, BiConsumer<InetSocketAddress, byte[]> sender) {
        this.config = config;
        this.stats = stats;
        this.sender = sender;
    }

    /** @return a sequence number no pending request of ours has, 1 to {@link PfcpMessage#MAX_SEQUENCE} */
    int nextSequence() {
        int seq;
        do {
            seq = 1 + sequences.nextInt(PfcpMessage.MAX_SEQUENCE);
        } while (pending.containsKey(seq));
        return seq;
    }

    /** Sends a request and keeps it until its answer, which goes to onResponse, or until N1 attempts. */
    void send(InetSocketAddress peer, PfcpMessage m, Consumer<PfcpMessage> onResponse) {
        send(peer, m, onResponse, () -> { });
    }

    /** As {@link #send(InetSocketAddress, PfcpMessage, Consumer)}; onTimeout runs when N1 attempts went unanswered. */
    void send(InetSocketAddress peer, PfcpMessage m, Consumer<PfcpMessage> onResponse, Runnable onTimeout) {
        send(peer, m.type(), m.sequence(), PfcpCodec.encode(m), onResponse, onTimeout);
    }

    /** As {@link #send(InetSocketAddress, PfcpMessage, Consumer)}, for a request encoded already. */
    void send(InetSocketAddress peer, byte[] datagram, Consumer<PfcpMessage> onResponse) {
        PfcpCodec.Header h;
        try {
            h = PfcpCodec.header(datagram, datagram.length);
        } catch (DecodeException e) {
            throw new IllegalArgumentException("not a PFCP request: " + e.getMessage(), e);
        }
        send(peer, h.type, h.sequence, datagram, onResponse, () -> { });
    }

    private void send(InetSocketAddress peer, int type, int sequence, byte[] bytes, Consumer<PfcpMessage> onResponse,
                      Runnable onTimeout) {
        pending.put(sequence, new Pending(peer, type, bytes, onResponse, onTimeout,
                                          System.currentTimeMillis() + config.t1Millis));
        stats.inc("tx." + type);
        sender.accept(peer, bytes);
    }

    /** Hands an answer to its request; an answer to none, or from another peer, is counted and dropped. */
    void onResponse(InetSocketAddress peer, PfcpCodec.Header h, byte[] buf, int len) {
        try {
            PfcpMessage m = PfcpCodec.decode(h, buf, len);
            Pending p = pending.remove(m.sequence());
            if (p == null || !p.peer.equals(peer)) {
                stats.inc("drop.unmatched_response");
                return;
            }
            stats.inc("rx." + m.type());
            p.onResponse.accept(m);
        } catch (DecodeException e) {
            dropMalformed(peer, e);
        }
    }

    /** Counts and logs an answer that does not decode. */
    void dropMalformed(InetSocketAddress peer, DecodeException e) {
        stats.inc("drop.malformed_response");
        log.warn("dropped malformed response from {}: {}", peer, e.getMessage());
    }

    /** Sends again the requests unanswered for T1; gives up on those sent N1 times. */
    void retransmit(long now) {
        for (Map.Entry<Integer, Pending> e : pending.entrySet()) {
            Pending p = e.getValue();
            if (p.nextMillis > now) {
                continue;
            }
            if (p.attempts >= config.n1) {
                pending.remove(e.getKey());
                stats.inc("timeout." + p.type);
                log.warn("no response from {} to request seq {} after {} attempts", p.peer, e.getKey(), p.attempts);
                p.onTimeout.run();
                continue;
            }
            p.attempts++;
            p.nextMillis = now + config.t1Millis;
            stats.inc("tx.retransmission");
            sender.accept(p.peer, p.bytes);
        }
    }
}
