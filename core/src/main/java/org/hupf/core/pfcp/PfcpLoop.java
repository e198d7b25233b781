package org.hupf.core.pfcp;

import org.hupf.core.device.WriterBurst;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * The PFCP socket's thread, which carries session requests everywhere but the devices' write. It receives the
 * datagrams queued on the socket as a burst and takes each session request as far as it goes without waiting
 * (header, retransmission check, decoding, procedure, the session core's checks and the write's queueing). The
 * thread that completes a request (the devices' acknowledgement) encodes, keeps and sends its answer, as it did
 * before: a hand-back to this thread would be one more wait for a CPU on the answer's way. Only the release of the
 * session's next message comes back here, as a burst (one wake-up of the select for many).
 *
 * <p>Why one plain loop instead of a receiver handing each request to a pool through composed futures: each
 * hand-off waits for a CPU on a loaded machine, and the JIT had inlined the request path into the pool's and the
 * futures' idle paths, whose branches a pause between bursts then took: every pause recompiled the request path's
 * largest compilations. Here the loop's idle path (its select) is taken between every burst from the start, and
 * the request path is small methods called from it.
 *
 * <p>One message at a time per ordering key (a session's UP SEID) until its answer is sent, so the devices'
 * acknowledgement of one message is awaited before the session's next; establishments (no UP SEID yet) are keyed
 * by peer and sequence number and run side by side; a retransmission of one under way is dropped, as the handler
 * drops one that reaches it during its original.
 */
final class PfcpLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PfcpLoop.class);
    private static final int MAX_DATAGRAM = 65535;
    /** Datagrams taken per burst before the answered requests' sessions are released again. */
    private static final int MAX_BURST = 256;
    /** How long a close waits for the answers of requests under way. */
    private static final long CLOSE_WAIT_MS = 5_000;

    /** Sorts a datagram: node messages and answers to hupf's own requests are handled by the agent. */
    interface Sorter {
        /** @return the header of a session request, for this loop to handle; null when the agent took it */
        PfcpCodec.Header sessionRequest(InetSocketAddress peer, byte[] datagram);
    }

    private final DatagramChannel channel;
    private final Selector selector;
    private final PfcpHandler handler;
    private final PfcpStats stats;
    private final Sorter sorter;
    private final Thread thread;
    private final ByteBuffer received = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final SessionLanes<SessionMessage> lanes = new SessionLanes<>();
    /** Requests answered, filled by the threads that completed them (the devices'). */
    private final ConcurrentLinkedQueue<SessionMessage> answered = new ConcurrentLinkedQueue<>();
    /** Set while a wake-up of the select is on its way: one wake-up for a burst of acknowledgements. */
    private final AtomicBoolean wakeUpSent = new AtomicBoolean();
    /** Set while the loop is in (or about to enter) its select: an answer needs a wake-up only then. */
    private volatile boolean selecting;
    /** Wakes the select; the device writer runs it once at the end of its burst of answers. */
    private final Runnable wakeUp = this::wakeSelector;
    private volatile boolean running = true;
    private volatile long closeDeadline;

    PfcpLoop(InetSocketAddress address, PfcpHandler handler, PfcpStats stats, Sorter sorter) throws IOException {
        this.handler = handler;
        this.stats = stats;
        this.sorter = sorter;
        this.channel = DatagramChannel.open();
        try {
            channel.bind(address);
            channel.configureBlocking(false);
            this.selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        this.thread = new Thread(this::loop, "hupf-pfcp");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return the bound UDP port */
    int port() {
        return channel.socket().getLocalPort();
    }

    /**
     * Sends a datagram (from any thread).
     *
     * @return false if it could not be sent now
     */
    boolean send(InetSocketAddress peer, byte[] bytes) {
        try {
            return channel.send(ByteBuffer.wrap(bytes), peer) == bytes.length;
        } catch (IOException e) {
            log.warn("PFCP send to {} failed: {}", peer, e.getMessage());
            return false;
        }
    }

    private void loop() {
        while (running || lanes.busyKeys() > 0) {
            selecting = true;
            try {
                // An answer queued before `selecting` was seen needs no wake-up: it is found here.
                if (answered.isEmpty()) {
                    selector.select(running ? 0 : CLOSE_WAIT_MS);
                } else {
                    selector.selectNow();
                }
                selector.selectedKeys().clear();
            } catch (IOException e) {
                log.error("PFCP select failed: {}", e.getMessage());
                return;
            } finally {
                selecting = false;
            }
            wakeUpSent.set(false);
            releaseAnswered();
            if (running) {
                receiveBurst();
            } else if (System.currentTimeMillis() > closeDeadline) {
                log.warn("PFCP stopped with {} sessions' requests unanswered", lanes.busyKeys());
                return;
            }
        }
    }

    private void receiveBurst() {
        long now = System.currentTimeMillis();
        for (int i = 0; i < MAX_BURST; i++) {
            InetSocketAddress peer;
            received.clear();
            try {
                peer = (InetSocketAddress) channel.receive(received);
            } catch (IOException e) {
                if (running) {
                    log.warn("PFCP receive failed: {}", e.getMessage());
                }
                return;
            }
            if (peer == null) {
                return;
            }
            received.flip();
            byte[] datagram = new byte[received.remaining()];
            received.get(datagram);
            take(peer, datagram, now);
        }
    }

    private void take(InetSocketAddress peer, byte[] datagram, long now) {
        PfcpCodec.Header h;
        try {
            h = sorter.sessionRequest(peer, datagram);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            internalError(peer, e);
            return;
        }
        if (h == null) {
            return;
        }
        Object key = orderKey(peer, h);
        if (h.seid == 0 && lanes.busy(key)) {
            // Only a retransmission has an establishment's key. Its original may be answered already, its lane
            // released at the next burst: it gets that answer. Else the answer follows, once: queued, each copy
            // would be answered then, a burst that a starved SMF's socket drops, answers included.
            reply(peer, handler.retransmissionOfBusy(peer, h));
            return;
        }
        SessionMessage m = new SessionMessage(peer, h, datagram, now, key);
        if (lanes.enter(m.key, m)) {
            start(m);
        }
    }

    /** Starts a message; its lane stays busy until it is answered. */
    private void start(SessionMessage m) {
        while (m != null) {
            PfcpHandler.Handling handling;
            try {
                handling = handler.begin(m.peer, m.header, m.datagram, m.datagram.length, m.receivedMillis);
            } catch (RuntimeException | LinkageError | AssertionError e) {
                internalError(m.peer, e);
                m = lanes.next(m.key);
                continue;
            }
            m.datagram = null;
            if (handling.response == null) {
                reply(m.peer, handling.answer);
                m = lanes.next(m.key);
                continue;
            }
            m.handling = handling;
            handling.response.whenComplete(m);
            return;
        }
    }

    /** Starts, for each request answered since the last burst, the next message of its session. */
    private void releaseAnswered() {
        SessionMessage m;
        while ((m = answered.poll()) != null) {
            start(lanes.next(m.key));
        }
    }

    private void wakeSelector() {
        selector.wakeup();
    }

    private void reply(InetSocketAddress peer, byte[] bytes) {
        if (bytes != null && !send(peer, bytes)) {
            stats.inc("error.send");
        }
    }

    /** A bug (or a class that failed to load) costs the message it hit, never the PFCP thread. */
    private void internalError(InetSocketAddress peer, Throwable e) {
        stats.inc("error.internal");
        log.error("internal error handling a message from {}", peer, e);
    }

    /**
     * A session message's ordering key: its UP SEID; an establishment (SEID 0) is keyed by peer and
     * sequence number, so establishments run in parallel and only a retransmission waits for its original.
     */
    private static Object orderKey(InetSocketAddress peer, PfcpCodec.Header h) {
        return h.seid != 0 ? (Object) h.seid : List.of(peer, h.sequence);
    }

    /**
     * Stops taking datagrams, then lets the requests under way be answered (for a bounded time): an association
     * release interrupted between its association and its sessions would leave sessions no association owns.
     */
    @Override
    public void close() {
        closeDeadline = System.currentTimeMillis() + CLOSE_WAIT_MS;
        running = false;
        selector.wakeup();
        try {
            thread.join(2 * CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            selector.close();
            channel.close();
        } catch (IOException e) {
            log.warn("closing the PFCP socket failed: {}", e.getMessage());
        }
    }

    /** A session request from its datagram to its answer; completed by the thread that completes its response. */
    private final class SessionMessage implements BiConsumer<PfcpResponse, Throwable> {
        final InetSocketAddress peer;
        final PfcpCodec.Header header;
        final long receivedMillis;
        final Object key;
        byte[] datagram;
        PfcpHandler.Handling handling;

        SessionMessage(InetSocketAddress peer, PfcpCodec.Header header, byte[] datagram, long receivedMillis,
                       Object key) {
            this.peer = peer;
            this.header = header;
            this.datagram = datagram;
            this.receivedMillis = receivedMillis;
            this.key = key;
        }

        /**
         * The procedure answered: the answer is encoded and sent here, on the thread that completed it (one hand-off
         * less on the answer's way), and the message queued for the loop to start its session's next message. The
         * loop is woken only if it is in its select (awake, it finds the queue), once for the device writer's burst
         * of answers, at its end.
         */
        @Override
        public void accept(PfcpResponse response, Throwable failure) {
            if (failure != null) {
                handler.abandon(handling);
                internalError(peer, failure);
            } else {
                try {
                    reply(peer, handler.finish(handling, response));
                } catch (RuntimeException | LinkageError | AssertionError e) {
                    internalError(peer, e);
                }
            }
            answered.add(this);
            if (selecting && wakeUpSent.compareAndSet(false, true)) {
                WriterBurst.atEnd(wakeUp);
            }
        }
    }
}
