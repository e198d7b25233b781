package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.upf.HupfDataplane;
import org.hupf.pipeconf.upf.UpfEntities;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.BeforeClass;
import org.junit.Test;
import org.onlab.packet.MacAddress;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.hupf.pipeconf.HupfConstants.HUPF_INGRESS_STEERING_BACKEND_SELECTOR;
import static org.hupf.pipeconf.HupfConstants.V1MODEL_CPU_PORT;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The standalone P4Runtime path against bmv2 simple_switch_grpc: push each profile's pipeline, then write
 * and read back every UPF entity type (and, on hw, the HK-IPG and steering configuration).
 * Skipped, with one line saying so, when simple_switch_grpc is not found: $BMV2, else PATH, else $P4_PREFIX/bin
 * (default /opt/p4), as every suite finds it (tools/hupf_tools/p4tools.py).
 */
public class Bmv2IntegrationTest {

    private static final long DEVICE_ID = 1;
    private static final long START_TIMEOUT_MS = 20_000;

    private static String bmv2;

    @BeforeClass
    public static void findBmv2() {
        String env = System.getenv("BMV2");
        if (env != null && new File(env).canExecute()) {
            bmv2 = env;
        } else {
            String prefixBin = System.getenv().getOrDefault("P4_PREFIX", "/opt/p4") + "/bin";
            String dirs = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + prefixBin;
            for (String dir : dirs.split(File.pathSeparator)) {
                File f = new File(dir, "simple_switch_grpc");
                if (f.canExecute()) {
                    bmv2 = f.getPath();
                    break;
                }
            }
        }
        String missing = "missing bmv2 simple_switch_grpc (BMV2=..., PATH or $P4_PREFIX/bin)";
        if (bmv2 == null) {
            System.err.println("SKIPPED Bmv2IntegrationTest: " + missing);
        }
        Assume.assumeTrue(missing, bmv2 != null);
    }

    private static Process process;

    @AfterClass
    public static void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor(5, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    private static int start() throws IOException, InterruptedException {
        stop();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        File log = File.createTempFile("hupf-bmv2-", ".log");
        // No data-plane interfaces: the test exercises the control plane only.
        process = new ProcessBuilder(bmv2, "--no-p4", "--device-id", String.valueOf(DEVICE_ID),
                                     "--", "--grpc-server-addr", "127.0.0.1:" + port,
                                     "--cpu-port", String.valueOf(V1MODEL_CPU_PORT))
                .redirectErrorStream(true).redirectOutput(log).start();
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return port;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    throw new IOException("simple_switch_grpc exited, see " + log);
                }
                Thread.sleep(100);
            }
        }
        throw new IOException("simple_switch_grpc did not listen on " + port + " within " + START_TIMEOUT_MS + " ms");
    }

    private static P4RuntimeUpfDevice open(String profile) throws Exception {
        int port = start();
        URL p4info = Bmv2IntegrationTest.class.getResource("/p4c-out/" + profile + "/bmv2/p4info.txt");
        URL json = Bmv2IntegrationTest.class.getResource("/p4c-out/" + profile + "/bmv2/bmv2.json");
        return P4RuntimeUpfDevice.open("127.0.0.1", port, DEVICE_ID, p4info, json);
    }

    private static void writeAndReadEveryType(String profile) throws Exception {
        try (P4RuntimeUpfDevice device = open(profile)) {
            for (UpfEntity e : UpfEntities.all()) {
                device.apply(e);
            }
            // Applying again overwrites (insert, then modify on ALREADY_EXISTS).
            for (UpfEntity e : UpfEntities.all()) {
                device.apply(e);
            }
            UpfEntities.assertHoldsAll(device, profile);
            UpfCounter c = device.readCounter(42);
            assertEquals(42, c.cellId());
            assertEquals(16, device.readCounters(16).size());

            for (UpfEntity e : UpfEntities.all()) {
                device.delete(e);
            }
            for (UpfEntityType type : UpfEntityType.values()) {
                if (type == UpfEntityType.COUNTER) {
                    continue;
                }
                for (UpfEntity e : device.readAll(type)) {
                    assertTrue(profile + ": left after delete: " + e, e instanceof UpfMeter && ((UpfMeter) e).isReset());
                }
            }
        }
    }

    @Test
    public void hwProfileHoldsEveryEntityType() throws Exception {
        writeAndReadEveryType("hw");
    }

    @Test
    public void swProfileHoldsEveryEntityType() throws Exception {
        writeAndReadEveryType("sw");
    }

    @Test
    public void hwAcceptsHkIpgAndSteering() throws Exception {
        try (P4RuntimeUpfDevice device = open("hw")) {
            HupfDataplane d = new HupfDataplane(device.model(), device.target());
            d.setCpuPort(V1MODEL_CPU_PORT);
            d.configureHh(HhConfig.builder().build());
            d.setBackendPorts(List.of(3L, 4L));
            d.setBackends(0, List.of(new Backend(3, MacAddress.valueOf("02:00:00:00:00:03")),
                                     new Backend(4, MacAddress.valueOf("02:00:00:00:00:04"))));
            d.setBackends(0, List.of(new Backend(4, MacAddress.valueOf("02:00:00:00:00:04"))));
            assertEquals(1, device.target().readMembers(HUPF_INGRESS_STEERING_BACKEND_SELECTOR).size());
            assertEquals(1, device.target().readGroups(HUPF_INGRESS_STEERING_BACKEND_SELECTOR).size());
        }
    }
}
