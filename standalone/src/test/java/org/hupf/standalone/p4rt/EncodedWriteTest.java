package org.hupf.standalone.p4rt;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.stub.StreamObserver;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfEntities;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import p4.v1.P4RuntimeOuterClass.WriteResponse;

import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Encoded updates go over gRPC as they go over the local write channel: the same updates' bytes, in a WriteRequest
 * byte-identical to the one protobuf would serialize from them.
 */
public class EncodedWriteTest {

    private static final long DEVICE_ID = 1;
    private static final long ELECTION_ID = 7;
    private static final int LOCAL_HEADER = 32;

    /** Answers every Write OK and keeps each request's bytes as they came. */
    private static final class RawWrites extends P4rtClientTest.FakeServer {
        final List<byte[]> requests = new ArrayList<>();

        @Override
        public void write(WriteRequest req, StreamObserver<WriteResponse> out) {
            out.onNext(WriteResponse.getDefaultInstance());
            out.onCompleted();
        }

        ServerInterceptor keepingBytes() {
            return new ServerInterceptor() {
                @Override
                public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                                                                  ServerCallHandler<Q, A> next) {
                    boolean write = call.getMethodDescriptor().getFullMethodName()
                            .equals(P4RuntimeGrpc.getWriteMethod().getFullMethodName());
                    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
                            next.startCall(call, headers)) {
                        @Override
                        public void onMessage(Q message) {
                            if (write) {
                                requests.add(bytesOf((InputStream) message));
                            }
                            super.onMessage(message);
                        }
                    };
                }
            };
        }

        private static byte[] bytesOf(InputStream in) {
            try {
                in.mark(Integer.MAX_VALUE);
                byte[] b = in.readAllBytes();
                in.reset();
                return b;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final RawWrites fake = new RawWrites();
    private Server server;
    private Path dir;

    @Before
    public void start() throws Exception {
        server = ServerBuilder.forPort(0).addService(ServerInterceptors.intercept(
                ServerInterceptors.useInputStreamMessages(fake.bindService()), fake.keepingBytes())).build().start();
        dir = Files.createTempDirectory("hupf-encoded-write-");
    }

    @After
    public void stop() throws Exception {
        server.shutdownNow();
        Files.deleteIfExists(dir.resolve("backend.sock"));
        Files.deleteIfExists(dir);
    }

    /** Every entity of the sw pipeline the direct encoding writes, inserted and deleted, as the device writer encodes them. */
    private static EncodedUpdates everyEntity() throws Exception {
        UpfEntityEncoder encoder = new UpfEntityEncoder(new UpfTranslator(Pipelines.model("sw", "bmv2")),
                new PiEncoder(P4InfoIndex.parse(Pipelines.p4infoUrl("sw", "bmv2"))));
        EncodedUpdates out = new EncodedUpdates(0);
        for (UpfEntity e : UpfEntities.all()) {
            for (boolean delete : new boolean[]{false, true}) {
                try {
                    encoder.encode(e, delete, out);
                } catch (UpfProgrammableException notInThisPipeline) {
                    // Written by neither path.
                }
            }
        }
        return out;
    }

    @Test
    public void grpcAndLocalWritesSendTheSameUpdateBytes() throws Exception {
        EncodedUpdates updates = everyEntity();
        assertTrue("updates of every kind: " + updates.size(), updates.size() > 20);
        Path socket = dir.resolve("backend.sock");
        try (ServerSocketChannel local = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            local.bind(UnixDomainSocketAddress.of(socket));
            CompletableFuture<byte[]> frame = CompletableFuture.supplyAsync(() -> answerOneFrame(local));
            try (P4rtClient client = P4rtClient.connect("127.0.0.1", server.getPort(), DEVICE_ID, ELECTION_ID)) {
                client.write(updates);
                client.useLocalWrites(socket);
                client.write(updates);
                assertEquals("the second Write over the local channel", 1, client.localWrites());
            }
            List<ByteString> overLocal = localUpdates(frame.get(30, TimeUnit.SECONDS));
            assertEquals("one Write over gRPC", 1, fake.requests.size());
            byte[] overGrpc = fake.requests.get(0);
            assertEquals(updates.size(), overLocal.size());
            assertEquals("the same updates' bytes both ways", overLocal, grpcUpdates(overGrpc));
            assertArrayEquals("the request protobuf serializes from them", protobufs(updates).toByteArray(), overGrpc);
        }
    }

    /** The marshaller's stream read as a plain InputStream (not drained) gives the same bytes. */
    @Test
    public void readNotDrainedGivesTheSameBytes() throws Exception {
        EncodedUpdates updates = everyEntity();
        EncodedWrite write = new EncodedWrite(DEVICE_ID, election(), updates);
        try (InputStream in = EncodedWrite.METHOD.streamRequest(write)) {
            assertEquals(write.length(), in.available());
            assertArrayEquals(protobufs(updates).toByteArray(), in.readAllBytes());
        }
    }

    private static Uint128 election() {
        return Uint128.newBuilder().setLow(ELECTION_ID).build();
    }

    private static WriteRequest protobufs(EncodedUpdates updates) {
        return WriteRequest.newBuilder().setDeviceId(DEVICE_ID).setElectionId(election())
                .addAllUpdates(updates.toUpdates()).build();
    }

    /** The WriteRequest's updates field by field, as bytes. */
    private static List<ByteString> grpcUpdates(byte[] request) throws IOException {
        List<ByteString> out = new ArrayList<>();
        CodedInputStream in = CodedInputStream.newInstance(request);
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) == EncodedWrite.UPDATES) {
                out.add(in.readBytes());
            } else {
                in.skipField(tag);
            }
        }
        return out;
    }

    /** The local frame's updates (after its header: docs/PIPELINE_CONTRACT.md, "Local writes"), as bytes. */
    private static List<ByteString> localUpdates(byte[] frame) {
        ByteBuffer b = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(DEVICE_ID, b.getLong(0));
        b.position(LOCAL_HEADER);
        List<ByteString> out = new ArrayList<>();
        while (b.hasRemaining()) {
            int n = b.getInt();
            out.add(ByteString.copyFrom(b.array(), b.position(), n));
            b.position(b.position() + n);
        }
        return out;
    }

    /** Takes one Write frame (its length taken off) and answers it OK without final counts. */
    private static byte[] answerOneFrame(ServerSocketChannel local) {
        try (SocketChannel c = local.accept()) {
            ByteBuffer size = readFully(c, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN));
            byte[] frame = readFully(c, ByteBuffer.allocate(size.getInt(0))).array();
            ByteBuffer answer = ByteBuffer.allocate(4 + 16).order(ByteOrder.LITTLE_ENDIAN);
            answer.putInt(16).putInt(0).putInt(0).putInt(0).putInt(0).flip();
            while (answer.hasRemaining()) {
                c.write(answer);
            }
            return frame;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ByteBuffer readFully(SocketChannel c, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (c.read(b) < 0) {
                throw new IOException("the client closed the channel");
            }
        }
        return b;
    }
}
