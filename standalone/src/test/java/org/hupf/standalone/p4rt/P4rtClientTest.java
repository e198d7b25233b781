package org.hupf.standalone.p4rt;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import org.hupf.pipeconf.upf.PiTargetException;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiTableEntry;
import p4.v1.P4RuntimeGrpc;
import p4.v1.P4RuntimeOuterClass.CounterData;
import p4.v1.P4RuntimeOuterClass.CounterEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.MasterArbitrationUpdate;
import p4.v1.P4RuntimeOuterClass.PacketIn;
import p4.v1.P4RuntimeOuterClass.PacketOut;
import p4.v1.P4RuntimeOuterClass.ReadRequest;
import p4.v1.P4RuntimeOuterClass.ReadResponse;
import p4.v1.P4RuntimeOuterClass.StreamMessageRequest;
import p4.v1.P4RuntimeOuterClass.StreamMessageResponse;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;
import p4.v1.P4RuntimeOuterClass.WriteResponse;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The client and the P4Runtime target against a small P4Runtime server over real gRPC: arbitration,
 * per-update Write errors (spec §12.3), insert-or-modify, Read, packet I/O.
 */
public class P4rtClientTest {

    /** Keeps table entries by (table id, match), answers like a P4Runtime server. */
    static class FakeServer extends P4RuntimeGrpc.P4RuntimeImplBase {
        final Set<List<Object>> keys = new HashSet<>();
        final List<Update> writes = new ArrayList<>();
        final BlockingQueue<PacketOut> packetOuts = new LinkedBlockingQueue<>();
        volatile int arbitrationCode = Status.Code.OK.value();
        volatile long writeDelayMs;
        /** When set, a Write waits for it before the device applies and answers it. */
        volatile CountDownLatch writeGate;
        volatile long arbitrationDelayMs;
        final AtomicInteger writesStarted = new AtomicInteger();
        volatile StreamObserver<StreamMessageResponse> stream;
        final AtomicInteger openStreams = new AtomicInteger();

        @Override
        public StreamObserver<StreamMessageRequest> streamChannel(StreamObserver<StreamMessageResponse> out) {
            stream = out;
            openStreams.incrementAndGet();
            return new StreamObserver<>() {
                @Override
                public void onNext(StreamMessageRequest r) {
                    if (r.hasArbitration()) {
                        pause(arbitrationDelayMs);
                        out.onNext(StreamMessageResponse.newBuilder().setArbitration(
                                MasterArbitrationUpdate.newBuilder(r.getArbitration())
                                        .setStatus(com.google.rpc.Status.newBuilder().setCode(arbitrationCode)))
                                           .build());
                    } else if (r.hasPacket()) {
                        packetOuts.add(r.getPacket());
                    }
                }

                @Override
                public void onError(Throwable t) {
                    openStreams.decrementAndGet();
                }

                @Override
                public void onCompleted() {
                    openStreams.decrementAndGet();
                    out.onCompleted();
                }
            };
        }

        /** The device's slowness under test, not a wait for a condition. */
        private static void pause(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static List<Object> key(TableEntry e) {
            return List.of(e.getTableId(), e.getMatchList());
        }

        @Override
        public synchronized void write(WriteRequest req, StreamObserver<WriteResponse> out) {
            writesStarted.incrementAndGet();
            pause(writeDelayMs);
            CountDownLatch gate = writeGate;
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            List<p4.v1.P4RuntimeOuterClass.Error> errors = new ArrayList<>();
            boolean failed = false;
            for (Update u : req.getUpdatesList()) {
                writes.add(u);
                List<Object> k = key(u.getEntity().getTableEntry());
                Status.Code code = Status.Code.OK;
                if (u.getType() == Update.Type.INSERT && !keys.add(k)) {
                    code = Status.Code.ALREADY_EXISTS;
                } else if (u.getType() == Update.Type.MODIFY && !keys.contains(k)) {
                    code = Status.Code.NOT_FOUND;
                } else if (u.getType() == Update.Type.DELETE && !keys.remove(k)) {
                    code = Status.Code.NOT_FOUND;
                }
                failed |= code != Status.Code.OK;
                errors.add(p4.v1.P4RuntimeOuterClass.Error.newBuilder().setCanonicalCode(code.value())
                                   .setMessage(code == Status.Code.OK ? "" : "entry " + code).build());
            }
            if (failed) {
                com.google.rpc.Status.Builder s = com.google.rpc.Status.newBuilder()
                        .setCode(Status.Code.UNKNOWN.value()).setMessage("write failed");
                errors.forEach(e -> s.addDetails(Any.pack(e)));
                out.onError(StatusProto.toStatusRuntimeException(s.build()));
                return;
            }
            out.onNext(WriteResponse.getDefaultInstance());
            out.onCompleted();
        }

        @Override
        public synchronized void read(ReadRequest req, StreamObserver<ReadResponse> out) {
            ReadResponse.Builder r = ReadResponse.newBuilder();
            for (List<Object> k : keys) {
                @SuppressWarnings("unchecked")
                List<p4.v1.P4RuntimeOuterClass.FieldMatch> match = (List<p4.v1.P4RuntimeOuterClass.FieldMatch>) k.get(1);
                r.addEntities(Entity.newBuilder().setTableEntry(
                        TableEntry.newBuilder().setTableId((Integer) k.get(0)).addAllMatch(match)));
            }
            out.onNext(r.build());
            out.onCompleted();
        }
    }

    private FakeServer fake;
    private Server server;

    @Before
    public void setUp() throws Exception {
        fake = new FakeServer();
        server = ServerBuilder.forPort(0).addService(fake).build().start();
    }

    @After
    public void tearDown() {
        server.shutdownNow();
    }

    @Test
    public void arbitrationRefusalIsReported() {
        fake.arbitrationCode = Status.Code.ALREADY_EXISTS.value();
        try {
            P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1).close();
            fail("became primary");
        } catch (P4RuntimeException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("not primary"));
        }
    }

    @Test
    public void aNewStreamEndsTheClientsPreviousOne() throws Exception {
        P4rtClient c = P4rtClient.unconnected("127.0.0.1", server.getPort(), 1, 1);
        try {
            c.connectNow();
            c.connectNow();  // a reconnection racing the connection: the first stream must not keep the election id
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (fake.openStreams.get() != 1 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(1, fake.openStreams.get());
        } finally {
            c.close();
        }
    }

    @Test
    public void aWriteIsCountedOnceTheDeviceAnswered() throws Exception {
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            fake.writeGate = new CountDownLatch(1);
            Update u = Update.newBuilder().setType(Update.Type.INSERT).setEntity(
                    Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(7))).build();
            CompletableFuture<List<Entity>> done = CompletableFuture.supplyAsync(() -> {
                try {
                    return c.write(List.of(u));
                } catch (P4RuntimeException e) {
                    throw new IllegalStateException(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (fake.writesStarted.get() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            // In flight: a reader of the device's tables that took this count now must see it move afterwards.
            assertEquals(0, c.writes());
            fake.writeGate.countDown();
            done.get(30, TimeUnit.SECONDS);
            assertEquals(1, c.writes());
        }
    }

    @Test
    public void perUpdateErrorsAreDecoded() throws Exception {
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            Update u = Update.newBuilder().setType(Update.Type.MODIFY).setEntity(
                    Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(7))).build();
            try {
                c.write(List.of(u));
                fail("modify of a missing entry succeeded");
            } catch (P4RuntimeException e) {
                assertEquals(List.of(Status.Code.NOT_FOUND), e.updateCodes());
                assertTrue(e.getMessage(), e.getMessage().contains("update 0: NOT_FOUND"));
            }
        }
    }

    @Test
    public void targetInsertsThenModifiesExistingKeysAndReadsBack() throws Exception {
        P4InfoIndex idx = new P4InfoIndex(p4.config.v1.P4InfoOuterClass.P4Info.newBuilder()
                .addTables(p4.config.v1.P4InfoOuterClass.Table.newBuilder().setPreamble(
                        p4.config.v1.P4InfoOuterClass.Preamble.newBuilder().setId(33).setName("t"))
                                   .addMatchFields(p4.config.v1.P4InfoOuterClass.MatchField.newBuilder()
                                                           .setId(1).setName("f").setBitwidth(8)))
                .addActions(p4.config.v1.P4InfoOuterClass.Action.newBuilder().setPreamble(
                        p4.config.v1.P4InfoOuterClass.Preamble.newBuilder().setId(44).setName("a")))
                .build());
        PiTableEntry e = PiTableEntry.builder().forTable(PiTableId.of("t"))
                .withMatchKey(org.onosproject.net.pi.runtime.PiMatchKey.builder().addFieldMatch(
                        new org.onosproject.net.pi.runtime.PiExactFieldMatch(
                                org.onosproject.net.pi.model.PiMatchFieldId.of("f"),
                                org.onlab.util.ImmutableByteSequence.copyFrom((byte) 5))).build())
                .withAction(PiAction.builder().withId(org.onosproject.net.pi.model.PiActionId.of("a")).build()).build();
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            P4RuntimeTarget target = new P4RuntimeTarget(c, new PiEncoder(idx));
            target.write(List.of(e));
            target.write(List.of(e));
            List<Update.Type> types = new ArrayList<>();
            fake.writes.forEach(u -> types.add(u.getType()));
            assertEquals(List.of(Update.Type.INSERT, Update.Type.INSERT, Update.Type.MODIFY), types);
            assertEquals(1, target.readTable(PiTableId.of("t")).size());
            target.delete(List.of(e));
            try {
                target.delete(List.of(e));
                fail("deleted twice");
            } catch (PiTargetException ex) {
                assertTrue(ex.getMessage(), ex.getMessage().contains("NOT_FOUND"));
            }
        }
    }

    @Test
    public void aWriteAsksForTheFinalCountsOfItsDeletionsAndReturnsWhatTheDeviceSends() throws Exception {
        ReadResponse counts = ReadResponse.newBuilder().addEntities(Entity.newBuilder().setCounterEntry(
                CounterEntry.newBuilder().setCounterId(7).setIndex(Index.newBuilder().setIndex(3))
                        .setData(CounterData.newBuilder().setPacketCount(2).setByteCount(100)))).build();
        Metadata.Key<String> ask = Metadata.Key.of("hupf-final-counts", Metadata.ASCII_STRING_MARSHALLER);
        Metadata.Key<byte[]> answer = Metadata.Key.of("hupf-final-counts-bin", Metadata.BINARY_BYTE_MARSHALLER);
        AtomicInteger asked = new AtomicInteger();
        ServerInterceptor device = new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                                                              ServerCallHandler<Q, A> next) {
                if (!call.getMethodDescriptor().getFullMethodName().endsWith("/Write") || headers.get(ask) == null) {
                    return next.startCall(call, headers);
                }
                asked.incrementAndGet();
                return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                    @Override
                    public void close(Status status, Metadata trailers) {
                        trailers.put(answer, counts.toByteArray());
                        super.close(status, trailers);
                    }
                }, headers);
            }
        };
        Server counting = ServerBuilder.forPort(0).addService(ServerInterceptors.intercept(fake, device)).build().start();
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", counting.getPort(), 1, 1)) {
            Update u = Update.newBuilder().setType(Update.Type.INSERT).setEntity(
                    Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(9))).build();
            assertEquals(counts.getEntitiesList(), c.write(List.of(u)));
            assertEquals(1, asked.get());
        } finally {
            counting.shutdownNow();
        }
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            Update u = Update.newBuilder().setType(Update.Type.INSERT).setEntity(
                    Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(10))).build();
            assertEquals("a device that sends none", List.of(), c.write(List.of(u)));
        }
    }

    @Test
    public void packetsFlowBothWays() throws Exception {
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            c.packetOut(PacketOut.newBuilder().setPayload(ByteString.copyFromUtf8("out")).build());
            PacketOut out = fake.packetOuts.poll(5, TimeUnit.SECONDS);
            assertNotNull(out);
            assertEquals("out", out.getPayload().toStringUtf8());
            fake.stream.onNext(StreamMessageResponse.newBuilder().setPacket(
                    PacketIn.newBuilder().setPayload(ByteString.copyFromUtf8("in"))).build());
            PacketIn in = c.packetIns().next(5, TimeUnit.SECONDS);
            assertNotNull(in);
            assertEquals("in", in.getPayload().toStringUtf8());
        }
    }

    @Test
    public void aLiveDeviceSlowerThanAnyFixedCallTimeIsWaitedFor() throws Exception {
        fake.writeDelayMs = 1000 * PatientCalls.PATIENCE_S + 1000;   // the Capabilities probe answers meanwhile
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            Update u = Update.newBuilder().setType(Update.Type.INSERT).setEntity(
                    Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(9))).build();
            c.write(List.of(u));
            assertEquals(List.of(u), fake.writes);
            assertEquals(DeviceState.UP, c.state());
        }
    }

    @Test
    public void aLiveDeviceSlowToArbitrateIsWaitedFor() throws Exception {
        fake.arbitrationDelayMs = 1000 * PatientCalls.PATIENCE_S + 1000;   // the Capabilities probe answers meanwhile
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            assertEquals(DeviceState.UP, c.state());
        }
    }

    @Test
    public void aDeviceThatIsGoneFailsTheArbitrationAtOnce() throws Exception {
        int port = server.getPort();
        server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        long t0 = System.nanoTime();
        try {
            P4rtClient.connect("127.0.0.1", port, 1, 1).close();
            fail("primary on a device that is gone");
        } catch (P4RuntimeException e) {
            assertEquals(Status.Code.UNAVAILABLE, e.code());
        }
        assertTrue("failed well before the patience ran out",
                   System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(PatientCalls.PATIENCE_S));
    }

    @Test
    public void aDeviceThatDiesDuringAWriteFailsItAtOnce() throws Exception {
        fake.writeDelayMs = 60_000;
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", server.getPort(), 1, 1)) {
            Update u = Update.newBuilder().setType(Update.Type.INSERT).setEntity(
                    Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(9))).build();
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
                try {
                    c.write(List.of(u));
                } catch (P4RuntimeException e) {
                    throw new CompletionException(e);
                }
            });
            long started = System.nanoTime();
            while (fake.writesStarted.get() == 0) {
                assertTrue("the write reached the server", System.nanoTime() - started < TimeUnit.SECONDS.toNanos(30));
                Thread.onSpinWait();
            }
            long t0 = System.nanoTime();
            server.shutdownNow();
            try {
                write.join();
                fail("a write to a device that died succeeded");
            } catch (CompletionException e) {
                Status.Code code = ((P4RuntimeException) e.getCause()).code();
                assertTrue("a code the device layer takes as unreachable: " + code,
                           Set.of(Status.Code.UNAVAILABLE, Status.Code.CANCELLED).contains(code));
            }
            assertTrue("failed well before the patience ran out",
                       System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(PatientCalls.PATIENCE_S));
        }
    }
}
