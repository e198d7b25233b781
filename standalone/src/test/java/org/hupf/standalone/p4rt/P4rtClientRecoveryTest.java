package org.hupf.standalone.p4rt;

import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.After;
import org.junit.Test;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.PkgInfo;
import p4.v1.P4RuntimeOuterClass.ForwardingPipelineConfig;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.GetForwardingPipelineConfigResponse;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigRequest;
import p4.v1.P4RuntimeOuterClass.SetForwardingPipelineConfigResponse;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The client's self-healing against a P4Runtime server that dies and comes back on the same port: down,
 * fail-fast writes, reconnect with re-arbitration, the owner's recovery run once per reconnect; and the
 * pipeline pushed only when the device does not already run it (cookie).
 */
public class P4rtClientRecoveryTest {

    private static final P4Info P4INFO = P4Info.newBuilder().setPkgInfo(PkgInfo.newBuilder().setName("upf")).build();
    private static final byte[] CONFIG = {1, 2, 3};

    /** A device with a pipeline slot, like the backend's agent: no pipeline after a restart. */
    static final class PipelineServer extends P4rtClientTest.FakeServer {
        volatile ForwardingPipelineConfig pipeline;
        final AtomicInteger pushes = new AtomicInteger();
        /** Answers a read without a pipeline with FAILED_PRECONDITION, as bmv2 (PI) does. */
        volatile boolean refusesWithoutPipeline;

        @Override
        public void setForwardingPipelineConfig(SetForwardingPipelineConfigRequest req,
                                                StreamObserver<SetForwardingPipelineConfigResponse> out) {
            pipeline = req.getConfig();
            pushes.incrementAndGet();
            out.onNext(SetForwardingPipelineConfigResponse.getDefaultInstance());
            out.onCompleted();
        }

        @Override
        public void getForwardingPipelineConfig(GetForwardingPipelineConfigRequest req,
                                                StreamObserver<GetForwardingPipelineConfigResponse> out) {
            ForwardingPipelineConfig p = pipeline;
            if (p == null && refusesWithoutPipeline) {
                out.onError(io.grpc.Status.FAILED_PRECONDITION
                                    .withDescription("No forwarding pipeline config set for this device")
                                    .asRuntimeException());
                return;
            }
            ForwardingPipelineConfig.Builder answer = ForwardingPipelineConfig.newBuilder();
            if (p != null) {
                answer.setCookie(p.getCookie());
            }
            out.onNext(GetForwardingPipelineConfigResponse.newBuilder().setConfig(answer).build());
            out.onCompleted();
        }
    }

    private Server server;

    private Server start(PipelineServer device, int port) throws Exception {
        server = ServerBuilder.forPort(port).addService(device).build().start();
        return server;
    }

    @After
    public void tearDown() {
        if (server != null) {
            server.shutdownNow();
        }
    }

    private static void await(String what, java.util.function.BooleanSupplier cond) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (!cond.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    public void aDeviceThatRefusesToReadAMissingPipelineGetsOne() throws Exception {
        PipelineServer device = new PipelineServer();
        device.refusesWithoutPipeline = true;
        int port = start(device, 0).getPort();
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", port, 1, 1)) {
            assertEquals("FAILED_PRECONDITION: no pipeline, cookie 0", 0, c.pipelineCookie());
            assertTrue(c.ensurePipeline(P4INFO, CONFIG));
            assertEquals(1, device.pushes.get());
        }
    }

    @Test
    public void pipelineIsPushedOnlyWhenTheDeviceDoesNotRunIt() throws Exception {
        PipelineServer device = new PipelineServer();
        int port = start(device, 0).getPort();
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", port, 1, 1)) {
            assertEquals("no pipeline: cookie 0", 0, c.pipelineCookie());
            assertTrue(c.ensurePipeline(P4INFO, CONFIG));
            assertEquals(PipelineConfigs.cookie(P4INFO, CONFIG), c.pipelineCookie());
            assertFalse("same pipeline pushed again", c.ensurePipeline(P4INFO, CONFIG));
            assertTrue("another target config is another pipeline", c.ensurePipeline(P4INFO, new byte[] {9}));
            assertEquals(2, device.pushes.get());
        }
    }

    @Test
    public void aRestartedDeviceIsReconnectedRepipelinedAndRecovered() throws Exception {
        PipelineServer first = new PipelineServer();
        int port = start(first, 0).getPort();
        List<String> recoveries = new CopyOnWriteArrayList<>();
        List<DeviceState> states = new CopyOnWriteArrayList<>();
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", port, 1, 1)) {
            c.ensurePipeline(P4INFO, CONFIG);
            c.onRecovery(client -> recoveries.add("pushed=" + client.ensurePipeline(P4INFO, CONFIG)
                                                          + " state=" + client.state()));
            c.onStateChange(states::add);
            assertEquals(DeviceState.UP, c.state());

            server.shutdownNow().awaitTermination();
            await("DOWN", () -> c.state() == DeviceState.DOWN);
            assertNotNull(c.lastError());
            try {
                c.write(List.of(Update.getDefaultInstance()));
                fail("a write to a dead device succeeded");
            } catch (P4RuntimeException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("is down"));
            }
            Thread.sleep(3 * P4rtClient.FIRST_BACKOFF_MS); // a few failed attempts: the backoff grows

            PipelineServer second = new PipelineServer();
            start(second, port);
            await("UP again", () -> c.state() == DeviceState.UP);
            // The listeners hear of a state after it is set: wait for the last one to be told.
            await("UP notified", () -> states.contains(DeviceState.UP));
            assertEquals(List.of("pushed=true state=RECONCILING"), recoveries);
            // What the lab steers by: down (away from it), reconciling, up (back to it).
            assertEquals(List.of(DeviceState.DOWN, DeviceState.RECONCILING, DeviceState.UP), states);
            assertEquals(1, c.reconnects());
            assertEquals(PipelineConfigs.cookie(P4INFO, CONFIG), second.pipeline.getCookie().getCookie());
            c.write(List.of()); // writes go through again
        }
    }

    @Test
    public void aFailedRecoveryIsRetried() throws Exception {
        PipelineServer first = new PipelineServer();
        int port = start(first, 0).getPort();
        AtomicInteger attempts = new AtomicInteger();
        try (P4rtClient c = P4rtClient.connect("127.0.0.1", port, 1, 1)) {
            c.onRecovery(client -> {
                if (attempts.incrementAndGet() < 3) {
                    throw new IllegalStateException("not yet");
                }
            });
            server.shutdownNow().awaitTermination();
            await("DOWN", () -> c.state() == DeviceState.DOWN);
            start(new PipelineServer(), port);
            await("UP again", () -> c.state() == DeviceState.UP);
            assertEquals(3, attempts.get());
        }
    }
}
