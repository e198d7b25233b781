package org.hupf.standalone.p4rt;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.upf.UpfEntities;
import org.junit.After;
import org.junit.Assume;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.p4runtime.model.P4InfoParser;
import p4.v1.P4RuntimeOuterClass.Uint128;
import p4.v1.P4RuntimeOuterClass.Update;
import p4.v1.P4RuntimeOuterClass.WriteRequest;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URL;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The runner's side of hupf-backend's local write channel against the real backend (docs/PIPELINE_CONTRACT.md,
 * "Local writes"): Writes over the channel answer as over gRPC (the same codes, messages and final counts), the
 * device's batches go over it, and a channel that is down or does not answer fails over or fails precisely.
 * Skipped, with one line saying so, where hupf-backend is not built ($HUPF_BACKEND, else ../backend/build).
 */
public class LocalWriteChannelTest {

    private static final long DEVICE_ID = 1;
    private static final long ELECTION_ID = 1;
    private static final long START_TIMEOUT_MS = 60_000;
    private static final URL P4INFO = LocalWriteChannelTest.class.getResource("/p4c-out/sw/bmv2/p4info.txt");

    private static String backend;
    private Path dir;
    private Path socket;
    private Process process;
    private P4rtClient client;
    private P4RuntimeUpfDevice device;

    @BeforeClass
    public static void findBackend() {
        String env = System.getenv("HUPF_BACKEND");
        File built = new File("../backend/build/hupf-backend");
        backend = env != null && new File(env).canExecute() ? env : built.canExecute() ? built.getPath() : null;
        String missing = "hupf-backend is not built (make backend) and HUPF_BACKEND is not set";
        if (backend == null) {
            System.err.println("SKIPPED LocalWriteChannelTest: " + missing);
        }
        Assume.assumeTrue(missing, backend != null);
    }

    @Before
    public void start() throws Exception {
        dir = Files.createTempDirectory("hupf-local-writes-");
        socket = dir.resolve("backend.sock");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        File log = dir.resolve("backend.log").toFile();
        process = new ProcessBuilder(backend, "--grpc-addr", "127.0.0.1:" + port, "--device-id",
                                     String.valueOf(DEVICE_ID), "--sessions", "1024", "--mem", "1024",
                                     "--port", "1=null", "--port", "2=null", "--local-writes", socket.toString())
                .redirectErrorStream(true).redirectOutput(log).start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (!Files.exists(socket) || !listening(port)) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                throw new IOException("hupf-backend did not serve in time, see " + log);
            }
            Thread.sleep(100);
        }
        P4InfoIndex index = P4InfoIndex.parse(P4INFO);
        client = P4rtClient.connect("127.0.0.1", port, DEVICE_ID, ELECTION_ID);
        client.setPipeline(index.p4info(), new byte[0]);
        device = new P4RuntimeUpfDevice(client, index, P4InfoParser.parse(P4INFO));
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    @After
    public void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (process != null) {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    private static WriteResult write(P4RuntimeUpfDevice d, List<DeviceUpdate> updates) {
        return d.write(updates).join();
    }

    private static List<DeviceUpdate> applies(List<UpfEntity> entities) {
        return entities.stream().map(DeviceUpdate::apply).collect(Collectors.toList());
    }

    /** Every entity type, as the backend takes them: its data plane refuses an interface of prefix length 0. */
    private static List<UpfEntity> entities() {
        return UpfEntities.all().stream().filter(e -> !(e instanceof UpfInterface
                && ((UpfInterface) e).prefix().prefixLength() == 0)).collect(Collectors.toList());
    }

    /** The backend holds every entity written, type by type (of the meters, it reads back the configured cells). */
    private void assertHolds(String label) throws Exception {
        for (UpfEntityType type : UpfEntityType.values()) {
            if (type == UpfEntityType.COUNTER) {
                continue;
            }
            Set<UpfEntity> expected = entities().stream().filter(e -> e.type() == type && !(e instanceof UpfMeter
                    && ((UpfMeter) e).isReset())).collect(Collectors.toSet());
            assertEquals(label + " " + type, expected, new HashSet<>(device.readAll(type)));
        }
    }

    /** The device's batches go over the channel: every entity type written, held, and deleted with final counts. */
    @Test
    public void deviceWritesGoOverTheChannel() throws Exception {
        client.useLocalWrites(socket);
        WriteResult r = write(device, applies(entities()));
        assertTrue("every entity written: " + r.firstFailure(), r.ok());
        // Again: the INSERTs answered ALREADY_EXISTS are sent again as MODIFYs, over the channel too.
        assertTrue(write(device, applies(entities())).ok());
        assertHolds("over the local write channel");
        UpfTerminationUplink term = (UpfTerminationUplink) UpfEntities.all().stream()
                .filter(e -> e instanceof UpfTerminationUplink).findFirst().orElseThrow();
        WriteResult deleted = write(device, List.of(DeviceUpdate.remove(term)));
        assertTrue(deleted.ok());
        assertEquals("the deletion's final counts", List.of(term.counterId()),
                     new ArrayList<>(deleted.finalCounts().keySet()));
        assertEquals("Writes answered over the channel", client.writes(), client.localWrites());
        assertTrue(client.localWrites() >= 4);
        long answered = client.localWrites();
        client.close();
        assertEquals("a closed client keeps its count (the status reports it)", answered, client.localWrites());
    }

    /** An answer larger than the channel's first answer buffer: the final counts of 300 deleted terminations. */
    @Test
    public void aLargeAnswerIsReadWhole() throws Exception {
        client.useLocalWrites(socket);
        List<UpfEntity> terms = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            terms.add(UpfTerminationUplink.builder().withUeSessionId(Ip4Address.valueOf(0x0a000000 + i))
                              .withCounterId(i).withTrafficClass(1).build());
        }
        assertTrue(write(device, applies(terms)).ok());
        WriteResult deleted = write(device, terms.stream().map(DeviceUpdate::remove).collect(Collectors.toList()));
        assertTrue(deleted.ok());
        assertEquals("every deleted termination's final counts", terms.stream().map(t -> ((UpfTerminationUplink) t)
                .counterId()).collect(Collectors.toSet()), deleted.finalCounts().keySet());
        assertEquals("Writes answered over the channel", client.writes(), client.localWrites());
    }

    /** A refused update, a wrong election id: the same codes and messages as the gRPC Write. */
    @Test
    public void failuresAreTheGrpcWrites() throws Exception {
        UpfEntity session = UpfEntities.all().get(3);
        List<Update> insert = new UpfEntityEncoder(new org.hupf.pipeconf.upf.UpfTranslator(device.model()),
                             new PiEncoder(P4InfoIndex.parse(P4INFO))).viaPi(session, false);
        client.write(insert);
        P4RuntimeException overGrpc = refused(() -> client.write(insert));
        try (LocalWriteChannel channel = new LocalWriteChannel(socket)) {
            P4RuntimeException local = refused(() -> viaChannel(channel, insert, ELECTION_ID));
            assertEquals(overGrpc.getMessage(), local.getMessage());
            assertEquals(List.of(Status.Code.ALREADY_EXISTS), local.updateCodes());
            assertEquals(Status.Code.UNKNOWN, local.code());

            P4RuntimeException notPrimary = refused(() -> viaChannel(channel, insert, ELECTION_ID + 1));
            assertEquals(Status.Code.PERMISSION_DENIED, notPrimary.code());
            assertEquals("Write failed: PERMISSION_DENIED not the primary client (election id 0:2)",
                         notPrimary.getMessage());
            assertEquals(2, channel.frames());
        }
    }

    private static byte[] viaChannel(LocalWriteChannel channel, List<Update> updates, long election)
            throws P4RuntimeException {
        WriteRequest req = WriteRequest.newBuilder().setDeviceId(DEVICE_ID)
                .setElectionId(Uint128.newBuilder().setLow(election)).addAllUpdates(updates).build();
        try {
            return channel.write(req, () -> null);
        } catch (StatusRuntimeException e) {
            throw P4RuntimeFailures.of("Write", e);
        }
    }

    private interface Call {
        Object run() throws P4RuntimeException;
    }

    private static P4RuntimeException refused(Call call) {
        try {
            call.run();
        } catch (P4RuntimeException e) {
            return e;
        }
        throw new AssertionError("not refused");
    }

    /** No channel at the path: the Writes go over gRPC, and nothing is lost. */
    @Test
    public void aChannelDownFailsOverToGrpc() throws Exception {
        client.useLocalWrites(dir.resolve("absent.sock"));
        assertTrue(write(device, applies(entities())).ok());
        assertHolds("over gRPC");
        assertEquals(0, client.localWrites());
    }

    /** A frame sent whole whose answer never comes (the peer closed after reading it): UNAVAILABLE, as a gRPC
     *  Write whose answer is lost; the next Write, with no channel to reach, goes over gRPC. */
    @Test
    public void aFrameWithoutAnswerIsUnavailable() throws Exception {
        Path mute = dir.resolve("mute.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(mute));
            Thread reader = new Thread(() -> readOneFrameAndClose(server));
            reader.start();
            try (LocalWriteChannel channel = new LocalWriteChannel(mute)) {
                List<Update> one = new UpfEntityEncoder(new org.hupf.pipeconf.upf.UpfTranslator(device.model()),
                                     new PiEncoder(P4InfoIndex.parse(P4INFO)))
                        .viaPi(UpfEntities.all().get(0), false);
                P4RuntimeException e = refused(() -> viaChannel(channel, one, ELECTION_ID));
                assertEquals(Status.Code.UNAVAILABLE, e.code());
                reader.join();
                Files.delete(mute);
                assertNull("no channel: the caller sends it another way", viaChannel(channel, one, ELECTION_ID));
            }
        }
    }

    private static void readOneFrameAndClose(ServerSocketChannel server) {
        readOneFrame(server, () -> { });
    }

    /** Accepts one client, reads one whole frame, runs then, and closes. */
    private static void readOneFrame(ServerSocketChannel server, Runnable then) {
        try (SocketChannel c = server.accept()) {
            ByteBuffer size = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            while (size.hasRemaining()) {
                c.read(size);
            }
            ByteBuffer frame = ByteBuffer.allocate(size.getInt(0));
            while (frame.hasRemaining() && c.read(frame) >= 0) {
                continue;
            }
            then.run();
        } catch (IOException e) {
            fail("mute peer: " + e);
        }
    }

    /** Closing the channel (the client's close) fails a write waiting for its answer at once, UNAVAILABLE. */
    @Test
    public void closeFailsAWaitingWrite() throws Exception {
        Path mute = dir.resolve("silent.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(mute));
            LocalWriteChannel channel = new LocalWriteChannel(mute);
            CountDownLatch answered = new CountDownLatch(1);
            // The peer keeps the connection open without answering until the write has failed.
            Thread peer = new Thread(() -> readOneFrame(server, () -> {
                channel.close();
                await(answered);
            }));
            peer.start();
            List<Update> one = new UpfEntityEncoder(new org.hupf.pipeconf.upf.UpfTranslator(device.model()),
                                 new PiEncoder(P4InfoIndex.parse(P4INFO))).viaPi(UpfEntities.all().get(0), false);
            P4RuntimeException e = refused(() -> viaChannel(channel, one, ELECTION_ID));
            answered.countDown();
            assertEquals(Status.Code.UNAVAILABLE, e.code());
            assertNull("closed: not reconnected", viaChannel(channel, one, ELECTION_ID));
            peer.join();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
