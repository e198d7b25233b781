package org.hupf.standalone.p4rt;

import com.google.protobuf.Any;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;

import java.io.EOFException;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * hupf-backend's local write channel (docs/PIPELINE_CONTRACT.md, "Local writes"): a Write's updates sent over a
 * Unix domain socket in hupf's frames, without gRPC and HTTP/2. The calling thread (the device writer) encodes the
 * whole Write into one direct buffer, sends it and reads the answer itself; one Write at a time.
 *
 * <p>A Write whose frame could not be sent whole (the channel is down, or broke while sending) is left to the
 * caller, which sends it over gRPC: the backend applies a frame only once it has all of it. A frame sent whole
 * whose answer does not come is failed UNAVAILABLE, as a gRPC Write whose answer is lost: what it applied is not
 * known. Failures are the gRPC Write's: the same status codes, per-update details and messages.
 */
final class LocalWriteChannel implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalWriteChannel.class);
    private static final int HEADER = 32;
    private static final int FINAL_COUNTS = 1;
    private static final long RECONNECT_MS = 1_000;

    private final Path path;
    /** Volatile for {@link #close}, which may run while a write waits. */
    private volatile SocketChannel channel;
    private volatile Selector selector;
    /** The channel's key, registered for reads while connected: an answer is waited for with one epoll_wait. */
    private SelectionKey key;
    private volatile boolean closed;
    private long nextConnectMs;
    private ByteBuffer out = frameBuffer(1 << 16);
    private ByteBuffer in = frameBuffer(1 << 12);
    private long frames;

    LocalWriteChannel(Path path) {
        this.path = path;
    }

    private static ByteBuffer frameBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Sends a Write's updates and waits for the answer while {@code probe} says the device answers.
     *
     * @param req   the Write (its device id, election id and updates)
     * @param probe null if the device answers a probe, else why not (asked each {@value PatientCalls#PATIENCE_S} s
     *              of silence)
     * @return the final counts of the terminations it deleted, a marshalled p4.v1.ReadResponse (empty if none); null
     *         if the frame was not sent whole: nothing of it applied
     * @throws StatusRuntimeException as the gRPC Write would fail
     */
    byte[] write(WriteRequest req, Supplier<String> probe) {
        EncodedUpdates updates = new EncodedUpdates(req.getSerializedSize());
        for (Update u : req.getUpdatesList()) {
            updates.add(u);
        }
        return write(req.getDeviceId(), req.getElectionId(), updates, probe);
    }

    /**
     * Sends a Write of encoded updates, their bytes as they are, and waits for the answer as {@link #write(WriteRequest,
     * Supplier)} does.
     */
    synchronized byte[] write(long deviceId, Uint128 electionId, EncodedUpdates updates, Supplier<String> probe) {
        if (!connected()) {
            return null;
        }
        encode(deviceId, electionId, updates);
        try {
            send();
        } catch (IOException e) {
            down("sending a frame", e);
            return null;
        }
        try {
            receive(probe);
        } catch (IOException e) {
            down("waiting for an answer", e);
            throw Status.UNAVAILABLE.withDescription("local write channel " + path + ": no answer: " + e)
                    .asRuntimeException();
        }
        frames++;
        return answer();
    }

    /** @return frames answered so far */
    synchronized long frames() {
        return frames;
    }

    private boolean connected() {
        if (channel != null) {
            return true;
        }
        long now = System.currentTimeMillis();
        if (closed || now < nextConnectMs) {
            return false;
        }
        try {
            channel = SocketChannel.open(UnixDomainSocketAddress.of(path));
            channel.configureBlocking(false);
            selector = Selector.open();
            key = channel.register(selector, SelectionKey.OP_READ);
            log.info("Writes over the local write channel {}", path);
            return true;
        } catch (IOException e) {
            nextConnectMs = now + RECONNECT_MS;
            closeChannel();
            return false;
        }
    }

    private void down(String what, IOException e) {
        log.warn("local write channel {} failed {}: {}; Writes over gRPC until it is back", path, what, e.toString());
        closeChannel();
        nextConnectMs = System.currentTimeMillis() + RECONNECT_MS;
    }

    /** The request frame, into {@link #out} ready to send: its header, then the updates' bytes as they are. */
    private void encode(long deviceId, Uint128 electionId, EncodedUpdates updates) {
        long size = HEADER + (long) updates.length();
        if (size > Integer.MAX_VALUE - 4) {
            throw Status.RESOURCE_EXHAUSTED.withDescription("Write of " + size + " bytes").asRuntimeException();
        }
        if (out.capacity() < size + 4) {
            out = frameBuffer((int) Math.max(size + 4, 2L * out.capacity()));
        }
        out.clear();
        out.putInt((int) size).putLong(deviceId).putLong(electionId.getHigh()).putLong(electionId.getLow())
                .putInt(FINAL_COUNTS).putInt(updates.size());
        updates.copyTo(out);
        out.flip();
    }

    private void send() throws IOException {
        while (out.hasRemaining()) {
            if (channel.write(out) == 0) {
                interest(SelectionKey.OP_WRITE);
                try {
                    selector.select();
                    selector.selectedKeys().clear();
                } finally {
                    interest(SelectionKey.OP_READ);
                }
                if (closed) {
                    throw new IOException("the channel was closed");
                }
            }
        }
    }

    /** Sets the key's interest; a key cancelled by {@link #close} on another thread is the channel's failure. */
    private void interest(int ops) throws IOException {
        try {
            key.interestOps(ops);
        } catch (CancelledKeyException e) {
            throw new IOException("the channel was closed", e);
        }
    }

    /**
     * Reads one answer frame into {@link #in}, positioned after its length: what the socket holds is read at once
     * (the length and the rest of the frame in one read), after waiting for it (the backend answers after its apply,
     * so the answer is never there as soon as the frame is sent).
     */
    private void receive(Supplier<String> probe) throws IOException {
        in.clear();
        fill(4, probe);
        int size = in.getInt(0);
        if (size < 0 || size > Integer.MAX_VALUE - 4) {
            throw new IOException("answer of " + Integer.toUnsignedString(size) + " bytes");
        }
        if (in.capacity() < size + 4) {
            ByteBuffer grown = frameBuffer(Math.max(size + 4, 2 * in.capacity()));
            in.flip();
            grown.put(in);
            in = grown;
        }
        in.limit(size + 4);
        fill(size + 4, probe);
        in.flip().position(4);
    }

    /** Reads into {@link #in} until it holds {@code bytes}, waiting as {@link PatientCalls} waits for a gRPC answer. */
    private void fill(int bytes, Supplier<String> probe) throws IOException {
        long waitedS = 0;
        long since = System.nanoTime();
        while (in.position() < bytes) {
            if (selector.select(PatientCalls.PATIENCE_S * 1000) > 0) {
                selector.selectedKeys().clear();
                if (channel.read(in) < 0) {
                    throw new EOFException("the backend closed the channel");
                }
                continue;
            }
            if (closed) {
                throw new IOException("the channel was closed");
            }
            if (System.nanoTime() - since < TimeUnit.SECONDS.toNanos(PatientCalls.PATIENCE_S)) {
                continue; // woken early, not a silence
            }
            since = System.nanoTime();
            waitedS += PatientCalls.PATIENCE_S;
            String silence = probe.get();
            if (silence != null || waitedS >= PatientCalls.LONGEST_S) {
                throw new IOException("unanswered after " + waitedS + " s" + (silence != null
                        ? " and the device did not answer a probe: " + silence
                        : " although the device answers probes"));
            }
        }
    }

    /** The answer in {@link #in}: the final counts' bytes, or the failure the gRPC Write would have thrown. */
    private byte[] answer() {
        int code = in.getInt();
        String message = string();
        int count = in.getInt();
        if (code == Status.Code.OK.value()) {
            in.getInt(); // the final counts' length: the rest of the frame
            byte[] counts = new byte[in.remaining()];
            in.get(counts);
            return counts;
        }
        com.google.rpc.Status.Builder status = com.google.rpc.Status.newBuilder().setCode(code).setMessage(message);
        for (int i = 0; i < count; i++) {
            int c = in.getInt();
            status.addDetails(Any.pack(p4.v1.P4RuntimeOuterClass.Error.newBuilder().setCanonicalCode(c)
                                               .setMessage(string()).build()));
        }
        return failed(status.build());
    }

    private static byte[] failed(com.google.rpc.Status status) {
        throw StatusProto.toStatusRuntimeException(status);
    }

    private String string() {
        int n = in.getInt();
        if (n == 0) {
            return "";
        }
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private void closeChannel() {
        try {
            if (selector != null) {
                selector.close();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            log.debug("closing the local write channel {}: {}", path, e.toString());
        }
        selector = null;
        channel = null;
        key = null;
    }

    /** Closes the channel; a write waiting for its answer fails UNAVAILABLE at once. */
    @Override
    public void close() {
        closed = true;
        SocketChannel c = channel;
        Selector s = selector;
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException e) {
            log.debug("closing the local write channel {}: {}", path, e.toString());
        }
        if (s != null) {
            s.wakeup();
        }
        synchronized (this) {
            closeChannel();
        }
    }
}
