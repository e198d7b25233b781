package org.hupf.standalone.p4rt;

import io.grpc.Channel;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.CapabilitiesRequest;
import p4.v1.P4RuntimeOuterClass.CapabilitiesResponse;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import p4.v1.P4RuntimeOuterClass.WriteResponse;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes, Reads and arbitrations that wait for a live device however slow a loaded machine makes it: a call
 * unanswered after {@value #PATIENCE_S} s is kept while the device answers a Capabilities probe (an RPC that takes
 * none of the pipeline's locks) within {@value #PROBE_S} s, so a device is given up for what it does, never for the time
 * its work takes. A device that died fails the call at once (its connection closes); one that stopped
 * answering fails at the first unanswered probe; a live one that never finishes the call, after
 * {@value #LONGEST_S} s.
 */
final class PatientCalls {

    static final long PATIENCE_S = 10;
    static final long PROBE_S = 5;
    static final long LONGEST_S = 300;
    /** Codes of a probe that got no answer from the server. */
    private static final Set<Status.Code> SILENT = EnumSet.of(
            Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED, Status.Code.CANCELLED);

    /** The request header that asks for a Write's deletions' final counts, and the trailer they come in. */
    private static final ClientInterceptor ASK_FINAL_COUNTS = MetadataUtils.newAttachHeadersInterceptor(finalCountsAsked());
    private static final Metadata.Key<byte[]> FINAL_COUNTS =
            Metadata.Key.of("hupf-final-counts-bin", Metadata.BINARY_BYTE_MARSHALLER);

    private static final byte[] NO_FINAL_COUNTS = new byte[0];

    private final P4RuntimeGrpc.P4RuntimeStub stub;
    /** Where Writes go first, when set (over gRPC while it is down). */
    private volatile LocalWriteChannel localWrites;

    private static Metadata finalCountsAsked() {
        Metadata m = new Metadata();
        m.put(Metadata.Key.of("hupf-final-counts", Metadata.ASCII_STRING_MARSHALLER), "1");
        return m;
    }

    PatientCalls(P4RuntimeGrpc.P4RuntimeStub stub) {
        this.stub = stub;
    }

    /**
     * Sends a Write asking for its deletions' final counts (docs/PIPELINE_CONTRACT.md, "Final counts of a deletion"):
     * over the local write channel if there is one and it is up, else over gRPC.
     *
     * @return the final counts the device put in the answer's trailer, a marshalled p4.v1.ReadResponse; empty if none
     */
    byte[] write(WriteRequest req) {
        LocalWriteChannel local = localWrites;
        byte[] sent = local == null ? null : local.write(req, this::probe);
        return sent != null ? sent : grpcWrite(req);
    }

    private byte[] grpcWrite(WriteRequest req) {
        return grpcWrite(P4RuntimeGrpc.getWriteMethod(), req);
    }

    /** Sends a Write over gRPC, asking for its deletions' final counts; its request as {@code method} serializes it. */
    private <Q> byte[] grpcWrite(MethodDescriptor<Q, WriteResponse> method, Q req) {
        CompletableFuture<WriteResponse> answer = new CompletableFuture<>();
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        Channel channel = ClientInterceptors.intercept(stub.getChannel(), ASK_FINAL_COUNTS,
                MetadataUtils.newCaptureMetadataInterceptor(new AtomicReference<>(), trailers));
        ClientCalls.asyncUnaryCall(channel.newCall(method, stub.getCallOptions().withDeadlineAfter(
                LONGEST_S, TimeUnit.SECONDS)), req, completing(answer, new ArrayList<>(), null));
        await(answer, "Write");
        byte[] counts = trailers.get() == null ? null : trailers.get().get(FINAL_COUNTS);
        return counts == null ? NO_FINAL_COUNTS : counts;
    }

    /**
     * Sends a Write of encoded updates as {@link #write(WriteRequest)} does: their bytes over the local write
     * channel, else over gRPC as they are ({@link EncodedWrite}).
     */
    byte[] write(long deviceId, Uint128 electionId, EncodedUpdates updates) {
        LocalWriteChannel local = localWrites;
        byte[] sent = local == null ? null : local.write(deviceId, electionId, updates, this::probe);
        return sent != null ? sent : grpcWrite(EncodedWrite.METHOD, new EncodedWrite(deviceId, electionId, updates));
    }

    /** Sends Writes over this channel first, or over gRPC only (null). */
    void useLocalWrites(LocalWriteChannel channel) {
        LocalWriteChannel before = localWrites;
        localWrites = channel;
        if (before != null) {
            before.close();
        }
    }

    /** Closes the local write channel, keeping its count: Writes go over gRPC from now on. */
    void closeLocalWrites() {
        LocalWriteChannel local = localWrites;
        if (local != null) {
            local.close();
        }
    }

    /** @return Writes answered over the local write channel so far */
    long localWrites() {
        LocalWriteChannel local = localWrites;
        return local == null ? 0 : local.frames();
    }

    List<Entity> read(ReadRequest req) {
        List<Entity> out = new ArrayList<>();
        CompletableFuture<List<Entity>> answer = new CompletableFuture<>();
        stub.withDeadlineAfter(LONGEST_S, TimeUnit.SECONDS).read(req, completing(answer, out, out));
        return await(answer, "Read");
    }

    /** Completes {@code answer} with {@code result} once the server closes the call; collects read entities. */
    private static <T, R> StreamObserver<T> completing(CompletableFuture<R> answer, List<Entity> entities, R result) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                if (value instanceof ReadResponse) {
                    entities.addAll(((ReadResponse) value).getEntitiesList());
                }
            }

            @Override
            public void onError(Throwable t) {
                answer.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                answer.complete(result);
            }
        };
    }

    /** Waits for an answer of the device (a call's, an arbitration's) while the device answers probes. */
    <R> R await(CompletableFuture<R> answer, String rpc) {
        long waited = 0;
        while (true) {
            try {
                return answer.get(PATIENCE_S, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                waited += PATIENCE_S;
                String silence = probe();
                if (silence != null || waited >= LONGEST_S) {
                    throw Status.DEADLINE_EXCEEDED.withDescription(rpc + " unanswered after " + waited + " s"
                            + (silence != null ? " and the device did not answer a probe: " + silence
                                               : " although the device answers probes")).asRuntimeException();
                }
            } catch (ExecutionException e) {
                throw e.getCause() instanceof StatusRuntimeException ? (StatusRuntimeException) e.getCause()
                        : Status.fromThrowable(e.getCause()).asRuntimeException();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw Status.CANCELLED.withDescription(rpc + " interrupted").asRuntimeException();
            }
        }
    }

    /** @return null if the device answered (any status is an answer), else why not */
    private String probe() {
        CompletableFuture<CapabilitiesResponse> answer = new CompletableFuture<>();
        stub.withDeadlineAfter(PROBE_S, TimeUnit.SECONDS).capabilities(CapabilitiesRequest.getDefaultInstance(),
                completing(answer, new ArrayList<>(), CapabilitiesResponse.getDefaultInstance()));
        try {
            answer.get();
            return null;
        } catch (ExecutionException e) {
            Status s = Status.fromThrowable(e.getCause());
            return SILENT.contains(s.getCode()) ? s.toString() : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
