package org.hupf.standalone.p4rt;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.InternalNettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A minimal P4Runtime client for use outside ONOS: one device, primary by arbitration, unary Write/Read/
 * Get/SetForwardingPipelineConfig and packet I/O over the stream channel.
 *
 * <p>It heals itself: when the stream is lost (the device died or restarted) it is {@link DeviceState#DOWN}
 * and reconnects with exponential backoff ({@value #FIRST_BACKOFF_MS} ms doubling to {@value #MAX_BACKOFF_MS}
 * ms), arbitrates again, and once primary runs its {@link Recovery} ({@link DeviceState#RECONCILING}: the
 * owner checks the pipeline and puts its state back) before it is {@link DeviceState#UP} again.
 */
public final class P4rtClient implements AutoCloseable, DeviceHealth {

    /** Room for a refused batch's p4.v1.Error per update (spec §12.3: far more than gRPC's default 8 KiB of metadata,
     *  an HTTP/2 INTERNAL_ERROR otherwise) and for a deletion burst's final counts, both in a Write's trailers. */
    private static final int MAX_TRAILERS = 16 << 20;
    /** Room for a Read of whole tables and counter arrays. */
    private static final int MAX_MESSAGE = 256 << 20;

    /** What the owner does each time the client is primary again after a loss. */
    public interface Recovery {
        /**
         * Puts the device back: pipeline (see {@link #ensurePipeline}), then entries.
         *
         * @param client the client, primary again
         * @throws Exception if the device could not be put back (the client reconnects and tries again)
         */
        void recover(P4rtClient client) throws Exception;
    }

    static final long FIRST_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 5_000;
    private static final long RPC_TIMEOUT_S = 10;

    private final ManagedChannel channel;
    private final P4RuntimeGrpc.P4RuntimeBlockingStub blocking;
    private final P4RuntimeGrpc.P4RuntimeStub async;
    private final PatientCalls patient;
    private final String address;
    private final long deviceId;
    private final Uint128 electionId;
    private final PacketIns packetIns = new PacketIns();
    private final ScheduledExecutorService reconnector;
    private final AtomicBoolean reconnectPending = new AtomicBoolean();
    private final Object streamLock = new Object();
    /** The current stream and its generation: callbacks of an older stream change nothing. */
    private StreamObserver<StreamMessageRequest> stream;
    private int generation;
    private long backoffMs = FIRST_BACKOFF_MS;
    private volatile Recovery recovery;
    private volatile DeviceState state = DeviceState.DOWN;
    private volatile Consumer<DeviceState> stateListener = s -> { };
    private volatile String lastError;
    private volatile long sinceMillis = System.currentTimeMillis();
    private volatile long reconnects;
    /** Write RPCs answered: a reader of the device's tables re-reads them only once this moved. */
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private volatile boolean closed;
    private volatile Throwable streamError;

    private P4rtClient(ManagedChannel channel, String address, long deviceId, long electionId) {
        this.channel = channel;
        this.address = address + "/" + deviceId;
        this.deviceId = deviceId;
        this.electionId = Uint128.newBuilder().setHigh(0).setLow(electionId).build();
        this.blocking = P4RuntimeGrpc.newBlockingStub(channel);
        this.async = P4RuntimeGrpc.newStub(channel);
        this.patient = new PatientCalls(async);
        this.reconnector = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "p4rt-reconnect-" + this.address);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects and becomes primary for the device.
     * @param host       server address
     * @param port       server port
     * @param deviceId   P4Runtime device id
     * @param electionId election id (the highest connected one is primary)
     * @return a primary client
     * @throws P4RuntimeException if the server cannot be reached or another client is primary
     */
    public static P4rtClient connect(String host, int port, long deviceId, long electionId)
            throws P4RuntimeException {
        P4rtClient c = unconnected(host, port, deviceId, electionId);
        try {
            c.connectNow();
            return c;
        } catch (P4RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Reaches the device now and becomes primary: UP when it returns. A stream that fails meanwhile leaves the
     * client DOWN and reconnecting in the background (with its recovery, as after any loss).
     *
     * @throws P4RuntimeException if the server cannot be reached or another client is primary
     */
    public void connectNow() throws P4RuntimeException {
        awaitPrimary(openStream());
        setState(DeviceState.UP, null);
    }

    /**
     * A client of a device that need not be up yet: DOWN until {@link #connectInBackground} reaches it.
     * @param host       device address
     * @param port       its P4Runtime port
     * @param deviceId   P4Runtime device id
     * @param electionId this client's election id
     * @return the client, not connected
     */
    public static P4rtClient unconnected(String host, int port, long deviceId, long electionId) {
        NettyChannelBuilder b = NettyChannelBuilder.forAddress(host, port).usePlaintext()
                .maxInboundMetadataSize(MAX_TRAILERS).maxInboundMessageSize(MAX_MESSAGE);
        // gRPC's census stats and tracing record every call for an exporter this host has not: a third of a
        // Write call's start on the device writer.
        InternalNettyChannelBuilder.setStatsEnabled(b, false);
        InternalNettyChannelBuilder.setTracingEnabled(b, false);
        ManagedChannel ch = b.build();
        return new P4rtClient(ch, host + ":" + port, deviceId, electionId);
    }

    /**
     * Tries to reach the device in the background, with the reconnection's backoff, until it is primary; then
     * runs the recovery and turns UP, as after a reconnection (set {@link #onRecovery} first).
     */
    public void connectInBackground() {
        scheduleReconnect();
    }

    /**
     * Sets what to do each time the client is primary again after losing the device.
     * @param r recovery, run on the client's reconnect thread
     */
    public void onRecovery(Recovery r) {
        this.recovery = r;
    }

    /**
     * Sets what to do each time the connection's state changes (e.g. steer traffic away from a device that is
     * down, and back once it is UP again: reconciled).
     *
     * @param listener called with the new state, on the thread that changed it
     */
    public void onStateChange(Consumer<DeviceState> listener) {
        this.stateListener = listener;
    }

    /** Opens a new stream and arbitrates on it, ending this client's previous stream: left open, it keeps the
     *  election id on the server, which refuses every new stream of this client as another's. */
    private CompletableFuture<MasterArbitrationUpdate> openStream() {
        synchronized (streamLock) {
            int gen = ++generation;  // the previous stream's end is this side's doing, not a loss to react to
            endStream("replaced by a new stream");
            CompletableFuture<MasterArbitrationUpdate> arbitration = new CompletableFuture<>();
            stream = async.streamChannel(new StreamObserver<>() {
                @Override
                public void onNext(StreamMessageResponse msg) {
                    if (msg.hasArbitration()) {
                        arbitration.complete(msg.getArbitration());
                    } else {
                        packetIns.offer(msg);
                    }
                }

                @Override
                public void onError(Throwable t) {
                    arbitration.completeExceptionally(t);
                    lost(gen, t);
                }

                @Override
                public void onCompleted() {
                    IllegalStateException t = new IllegalStateException("server closed the stream");
                    arbitration.completeExceptionally(t);
                    lost(gen, t);
                }
            });
            streamError = null;
            stream.onNext(StreamMessageRequest.newBuilder().setArbitration(
                    MasterArbitrationUpdate.newBuilder().setDeviceId(deviceId).setElectionId(electionId)).build());
            return arbitration;
        }
    }

    /**
     * Waits for the arbitration's answer. A stream that is not primary in time is ended from this side: left open,
     * it would keep the election id on the server, which then refuses it to the next attempt's stream.
     */
    private void awaitPrimary(CompletableFuture<MasterArbitrationUpdate> arbitration) throws P4RuntimeException {
        try {
            arbitrated(arbitration);
        } catch (P4RuntimeException e) {
            synchronized (streamLock) {
                generation++; // its end is this side's doing, not a loss to react to
                endStream("not primary in time");
            }
            throw e;
        }
    }

    /** Ends the current stream from this side, if any (callers hold streamLock). */
    private void endStream(String why) {
        try {
            if (stream != null) {
                stream.onError(Status.CANCELLED.withDescription(why).asException());
            }
        } catch (IllegalStateException closed) {
            // The server ended it already.
        }
    }

    /** Waits for the arbitration's answer as long as the device answers probes (a loaded one is slow, not gone). */
    private void arbitrated(CompletableFuture<MasterArbitrationUpdate> arbitration) throws P4RuntimeException {
        MasterArbitrationUpdate answer;
        try {
            answer = patient.await(arbitration, "arbitration");
        } catch (StatusRuntimeException e) {
            throw new P4RuntimeException("arbitration with device " + deviceId + " failed: " + e,
                                         e.getStatus().getCode(), e);
        }
        if (answer.getStatus().getCode() != Status.Code.OK.value()) {
            throw new P4RuntimeException("not primary for device " + deviceId + ": " + answer.getStatus().getMessage(),
                                         Status.Code.PERMISSION_DENIED, null);
        }
    }

    /** The stream of generation {@code gen} failed: if it is the current one, the device is down. */
    private void lost(int gen, Throwable t) {
        synchronized (streamLock) {
            if (closed || gen != generation) {
                return;
            }
            streamError = t;
        }
        setState(DeviceState.DOWN, "stream lost: " + t);
        scheduleReconnect();
    }

    private void scheduleReconnect() {
        if (closed || !reconnectPending.compareAndSet(false, true)) {
            return;
        }
        long delay = backoffMs;
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
        reconnector.schedule(this::reconnect, delay, TimeUnit.MILLISECONDS);
    }

    /** One reconnect attempt (reconnect thread): arbitrate on a new stream, then recover. */
    private void reconnect() {
        reconnectPending.set(false);
        if (closed) {
            return;
        }
        // gRPC's own connect backoff grows to two minutes: ours decides when to try.
        channel.resetConnectBackoff();
        try {
            awaitPrimary(openStream());
        } catch (P4RuntimeException e) {
            setState(DeviceState.DOWN, "reconnect failed: " + e.getMessage());
            scheduleReconnect();
            return;
        }
        reconnects++;
        setState(DeviceState.RECONCILING, lastError);
        Recovery r = recovery;
        try {
            if (r != null) {
                r.recover(this);
            }
        } catch (Exception e) {
            // Reachable but not put back (e.g. the pipeline refused): start over on a fresh stream.
            synchronized (streamLock) {
                generation++;
            }
            setState(DeviceState.DOWN, "recovery failed: " + e);
            scheduleReconnect();
            return;
        }
        backoffMs = FIRST_BACKOFF_MS;
        setState(DeviceState.UP, lastError);
    }

    private void setState(DeviceState s, String error) {
        lastError = error;
        if (state != s) {
            state = s;
            sinceMillis = System.currentTimeMillis();
            stateListener.accept(s);
        }
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public DeviceState state() {
        return state;
    }

    @Override
    public String lastError() {
        return lastError;
    }

    @Override
    public long sinceMillis() {
        return sinceMillis;
    }

    @Override
    public long reconnects() {
        return reconnects;
    }

    @Override
    public long writes() {
        return writes.get();
    }

    @Override
    public long reads() {
        return reads.get();
    }

    @Override
    public long localWrites() {
        return patient.localWrites();
    }

    /**
     * Reads the cookie of the device's pipeline (GetForwardingPipelineConfig, COOKIE_ONLY).
     *
     * @return cookie, 0 if the device has no pipeline (an empty config, or FAILED_PRECONDITION as bmv2 answers)
     * @throws P4RuntimeException if the server fails the request otherwise
     */
    public long pipelineCookie() throws P4RuntimeException {
        return PipelineConfigs.runningCookie(blocking.withDeadlineAfter(RPC_TIMEOUT_S, TimeUnit.SECONDS), deviceId);
    }

    /**
     * Pushes the pipeline unless the device already runs it (same cookie): pushing commits a new pipeline,
     * which empties the device's tables and stops its forwarding until they are written again.
     *
     * @param p4info       P4Info
     * @param deviceConfig target-specific configuration
     * @return whether it was pushed
     * @throws P4RuntimeException if the server refuses the read or the push
     */
    public boolean ensurePipeline(P4Info p4info, byte[] deviceConfig) throws P4RuntimeException {
        if (pipelineCookie() == PipelineConfigs.cookie(p4info, deviceConfig)) {
            return false;
        }
        setPipeline(p4info, deviceConfig);
        return true;
    }

    /**
     * Pushes a pipeline (P4Info + target config, e.g. the bmv2 JSON) and commits it.
     *
     * @param p4info       P4Info
     * @param deviceConfig target-specific configuration
     * @throws P4RuntimeException if the server rejects it
     */
    public void setPipeline(P4Info p4info, byte[] deviceConfig) throws P4RuntimeException {
        PipelineConfigs.push(blocking.withDeadlineAfter(RPC_TIMEOUT_S * 3, TimeUnit.SECONDS),
                             PipelineConfigs.commitRequest(deviceId, electionId, p4info, deviceConfig));
    }

    /**
     * Sends one Write (non-atomic). Returns the final counts of the terminations it deleted as counter entries if the
     * device answered them (hupf-backend: docs/PIPELINE_CONTRACT.md); throws with a line per failed update if any.
     */
    public List<Entity> write(List<Update> updates) throws P4RuntimeException {
        return updates.isEmpty() ? List.of() : CounterCells.entities(counted(() -> patient.write(
                WriteRequest.newBuilder().setDeviceId(deviceId).setElectionId(electionId).addAllUpdates(updates).build())));
    }

    /** As {@link #write(List)}, updates already encoded, sent as they are; the final counts as bytes (ReadResponse). */
    byte[] write(EncodedUpdates updates) throws P4RuntimeException {
        return updates.size() == 0 ? new byte[0] : counted(() -> patient.write(deviceId, electionId, updates));
    }

    private byte[] counted(Supplier<byte[]> write) throws P4RuntimeException {
        failFastWhenDown();
        try {
            return write.get();
        } catch (StatusRuntimeException e) {
            throw P4RuntimeFailures.of("Write", e);
        } finally {
            // Counted once the device answered: whoever took this count before reading the device back (the lab's
            // status) sees it move after a Write applied during its read, and reads again.
            writes.incrementAndGet();
        }
    }

    /**
     * Sends this client's Writes over hupf-backend's local write channel (docs/PIPELINE_CONTRACT.md, "Local writes")
     * at {@code socket}; over gRPC while the channel cannot be reached. Everything else stays on gRPC.
     */
    public void useLocalWrites(Path socket) {
        patient.useLocalWrites(new LocalWriteChannel(socket));
    }

    /**
     * Reads entities (wildcards allowed).
     *
     * @param entities read filters
     * @return every entity of every response
     * @throws P4RuntimeException if the server fails the read
     */
    public List<Entity> read(List<Entity> entities) throws P4RuntimeException {
        failFastWhenDown();
        ReadRequest req = ReadRequest.newBuilder().setDeviceId(deviceId).addAllEntities(entities).build();
        reads.incrementAndGet();
        try {
            return patient.read(req);
        } catch (StatusRuntimeException e) {
            throw P4RuntimeFailures.of("Read", e);
        }
    }

    /**
     * Sends a packet-out on the stream.
     *
     * @param packet packet-out
     * @throws P4RuntimeException if the stream has failed
     */
    public void packetOut(PacketOut packet) throws P4RuntimeException {
        synchronized (streamLock) {
            if (streamError != null) {
                throw new P4RuntimeException("stream channel failed: " + streamError, null, streamError);
            }
            stream.onNext(StreamMessageRequest.newBuilder().setPacket(packet).build());
        }
    }

    /** @return the packet-ins the device sent, for their one consumer */
    public PacketIns packetIns() {
        return packetIns;
    }

    @Override
    public void close() {
        closed = true;
        reconnector.shutdownNow();
        synchronized (streamLock) {
            try {
                stream.onCompleted();
            } catch (IllegalStateException e) {
                // The stream was already closed by the server.
            }
        }
        channel.shutdownNow();
        patient.closeLocalWrites();
    }

    /** While the device is down, calls fail at once (the reconnect puts back what they miss). */
    private void failFastWhenDown() throws P4RuntimeException {
        if (state == DeviceState.DOWN) {
            throw new P4RuntimeException("device " + address + " is down: " + lastError, Status.Code.UNAVAILABLE, null);
        }
    }
}
