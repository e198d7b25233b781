package org.hupf.standalone.p4rt;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A minimal P4Runtime client for use outside ONOS: one device, primary by arbitration, unary Write/Read/
 * SetForwardingPipelineConfig and packet I/O over the stream channel.
 */
public final class P4rtClient implements AutoCloseable {

    private static final long RPC_TIMEOUT_S = 10;
    private static final int PACKET_IN_QUEUE = 4096;

    private final ManagedChannel channel;
    private final P4RuntimeGrpc.P4RuntimeBlockingStub blocking;
    private final long deviceId;
    private final Uint128 electionId;
    private final StreamObserver<StreamMessageRequest> stream;
    private final CompletableFuture<MasterArbitrationUpdate> arbitration = new CompletableFuture<>();
    private final BlockingQueue<PacketIn> packetIns = new LinkedBlockingQueue<>(PACKET_IN_QUEUE);
    private volatile long droppedPacketIns;
    private volatile Throwable streamError;

    private P4rtClient(ManagedChannel channel, long deviceId, long electionId) {
        this.channel = channel;
        this.deviceId = deviceId;
        this.electionId = Uint128.newBuilder().setHigh(0).setLow(electionId).build();
        this.blocking = P4RuntimeGrpc.newBlockingStub(channel);
        this.stream = P4RuntimeGrpc.newStub(channel).streamChannel(new StreamObserver<>() {
            @Override
            public void onNext(StreamMessageResponse msg) {
                onStreamMessage(msg);
            }

            @Override
            public void onError(Throwable t) {
                streamError = t;
                arbitration.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                arbitration.completeExceptionally(new IllegalStateException("server closed the stream"));
            }
        });
    }

    /**
     * Connects and becomes primary for the device.
     *
     * @param host       server address
     * @param port       server port
     * @param deviceId   P4Runtime device id
     * @param electionId election id (the highest connected one is primary)
     * @return a primary client
     * @throws P4RuntimeException if the server cannot be reached or another client is primary
     */
    public static P4rtClient connect(String host, int port, long deviceId, long electionId)
            throws P4RuntimeException {
        ManagedChannel ch = ManagedChannelBuilder.forAddress(host, port).usePlaintext().build();
        P4rtClient c = new P4rtClient(ch, deviceId, electionId);
        try {
            c.arbitrate();
            return c;
        } catch (P4RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void arbitrate() throws P4RuntimeException {
        stream.onNext(StreamMessageRequest.newBuilder().setArbitration(
                MasterArbitrationUpdate.newBuilder().setDeviceId(deviceId).setElectionId(electionId)).build());
        MasterArbitrationUpdate answer;
        try {
            answer = arbitration.get(RPC_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new P4RuntimeException("interrupted during arbitration");
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new P4RuntimeException("arbitration with device " + deviceId + " failed: " + cause,
                                         Status.fromThrowable(cause).getCode(), cause);
        }
        if (answer.getStatus().getCode() != Status.Code.OK.value()) {
            throw new P4RuntimeException("not primary for device " + deviceId + ": " + answer.getStatus().getMessage(),
                                         Status.Code.PERMISSION_DENIED, null);
        }
    }

    private void onStreamMessage(StreamMessageResponse msg) {
        switch (msg.getUpdateCase()) {
            case ARBITRATION:
                arbitration.complete(msg.getArbitration());
                break;
            case PACKET:
                // A slow consumer loses packet-ins rather than stalling the stream; the loss is counted.
                if (!packetIns.offer(msg.getPacket())) {
                    droppedPacketIns++;
                }
                break;
            default:
                break;
        }
    }

    /**
     * Pushes a pipeline (P4Info + target config, e.g. the bmv2 JSON) and commits it.
     *
     * @param p4info       P4Info
     * @param deviceConfig target-specific configuration
     * @throws P4RuntimeException if the server rejects it
     */
    public void setPipeline(P4Info p4info, byte[] deviceConfig) throws P4RuntimeException {
        SetForwardingPipelineConfigRequest req = SetForwardingPipelineConfigRequest.newBuilder()
                .setDeviceId(deviceId).setElectionId(electionId)
                .setAction(SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT)
                .setConfig(ForwardingPipelineConfig.newBuilder().setP4Info(p4info)
                                   .setP4DeviceConfig(ByteString.copyFrom(deviceConfig)))
                .build();
        try {
            blocking.withDeadlineAfter(RPC_TIMEOUT_S * 3, TimeUnit.SECONDS).setForwardingPipelineConfig(req);
        } catch (StatusRuntimeException e) {
            throw failure("SetForwardingPipelineConfig", e);
        }
    }

    /**
     * Sends one Write with the given updates (non-atomic: the server applies what it can).
     *
     * @param updates updates
     * @throws P4RuntimeException with one line per failed update if any failed
     */
    public void write(List<Update> updates) throws P4RuntimeException {
        if (updates.isEmpty()) {
            return;
        }
        WriteRequest req = WriteRequest.newBuilder().setDeviceId(deviceId).setElectionId(electionId)
                .addAllUpdates(updates).build();
        try {
            blocking.withDeadlineAfter(RPC_TIMEOUT_S, TimeUnit.SECONDS).write(req);
        } catch (StatusRuntimeException e) {
            throw failure("Write", e);
        }
    }

    /**
     * Reads entities (wildcards allowed).
     *
     * @param entities read filters
     * @return every entity of every response
     * @throws P4RuntimeException if the server fails the read
     */
    public List<Entity> read(List<Entity> entities) throws P4RuntimeException {
        ReadRequest req = ReadRequest.newBuilder().setDeviceId(deviceId).addAllEntities(entities).build();
        List<Entity> out = new ArrayList<>();
        try {
            Iterator<ReadResponse> it = blocking.withDeadlineAfter(RPC_TIMEOUT_S, TimeUnit.SECONDS).read(req);
            it.forEachRemaining(r -> out.addAll(r.getEntitiesList()));
        } catch (StatusRuntimeException e) {
            throw failure("Read", e);
        }
        return out;
    }

    /**
     * Sends a packet-out on the stream.
     *
     * @param packet packet-out
     * @throws P4RuntimeException if the stream has failed
     */
    public void packetOut(PacketOut packet) throws P4RuntimeException {
        if (streamError != null) {
            throw new P4RuntimeException("stream channel failed: " + streamError, null, streamError);
        }
        synchronized (stream) {
            stream.onNext(StreamMessageRequest.newBuilder().setPacket(packet).build());
        }
    }

    /**
     * Waits for the next packet-in.
     *
     * @param timeout how long to wait
     * @param unit    unit of timeout
     * @return the packet-in, or null on timeout
     * @throws InterruptedException if interrupted
     */
    public PacketIn nextPacketIn(long timeout, TimeUnit unit) throws InterruptedException {
        return packetIns.poll(timeout, unit);
    }

    /**
     * Returns how many packet-ins were dropped because nobody took them from the queue.
     *
     * @return dropped packet-ins
     */
    public long droppedPacketIns() {
        return droppedPacketIns;
    }

    @Override
    public void close() {
        try {
            stream.onCompleted();
        } catch (IllegalStateException e) {
            // The stream was already closed by the server.
        }
        channel.shutdownNow();
    }

    /** A P4Runtime Write error carries one p4.v1.Error per update in the status details (spec §12.3). */
    private static P4RuntimeException failure(String rpc, StatusRuntimeException e) {
        StringBuilder msg = new StringBuilder(rpc + " failed: " + e.getStatus().getCode()
                                                      + nullToEmpty(e.getStatus().getDescription()));
        com.google.rpc.Status details = StatusProto.fromThrowable(e);
        List<Status.Code> codes = new ArrayList<>();
        if (details != null) {
            int i = 0;
            for (Any any : details.getDetailsList()) {
                try {
                    p4.v1.P4RuntimeOuterClass.Error err = any.unpack(p4.v1.P4RuntimeOuterClass.Error.class);
                    codes.add(Status.fromCodeValue(err.getCanonicalCode()).getCode());
                    if (err.getCanonicalCode() != Status.Code.OK.value()) {
                        msg.append("\n  update ").append(i).append(": ")
                                .append(Status.fromCodeValue(err.getCanonicalCode()).getCode())
                                .append(' ').append(err.getMessage());
                    }
                } catch (InvalidProtocolBufferException ignored) {
                    codes.add(Status.Code.UNKNOWN);
                    msg.append("\n  update ").append(i).append(": undecodable error detail");
                }
                i++;
            }
        }
        return new P4RuntimeException(msg.toString(), e.getStatus().getCode(), codes, e);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : " " + s;
    }
}
