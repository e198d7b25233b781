package org.hupf.standalone.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hupf.api.OffloadPolicy;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.offload.OffloadManager;
import org.hupf.core.rps.RpsIntake;
import org.hupf.core.rps.RpsSettings;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.hupf.pipeconf.upf.PiTargetException;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.onlab.packet.Ip4Address;
import p4.config.v1.P4InfoOuterClass.ControllerPacketMetadata;
import p4.config.v1.P4InfoOuterClass.P4Info;
import p4.config.v1.P4InfoOuterClass.Preamble;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

public class LabStatusTest {

    @Rule
    public TemporaryFolder dir = new TemporaryFolder();

    private final InMemoryUpfDevice backend = new InMemoryUpfDevice("backend", 1000, 2000, 100);
    private final InMemoryUpfDevice hw = new InMemoryUpfDevice("switch", 10, 20, 10);
    private OffloadManager manager;

    @Before
    public void setUp() throws Exception {
        manager = new OffloadManager(backend, hw, OffloadPolicy.builder().build(), System::currentTimeMillis);
    }

    private Path file() {
        return dir.getRoot().toPath().resolve("status.json");
    }

    private LabStatus status() {
        return new LabStatus(file(), manager, backend, hw, System::nanoTime);
    }

    /** A million idle sessions cost no read-back: the devices are read again only once they may have changed. */
    @Test
    public void theTargetsAreReadBackOnlyOnceTheDevicesMayHaveChanged() throws Exception {
        AtomicLong programmed = new AtomicLong();
        LabStatus status = new LabStatus(file(), manager, backend, hw, programmed::get);
        backend.apply(UpfSessionDownlink.builder().withUeAddress(ScaleSimulation.ue(1)).needsDropping(true).build());
        assertEquals(List.of(ScaleSimulation.ue(1).toString()), ues(status.targets().get("backend")));
        backend.apply(UpfSessionDownlink.builder().withUeAddress(ScaleSimulation.ue(2)).needsDropping(true).build());
        assertEquals("nothing written since: the last read stands", 1, status.targets().get("backend").size());
        programmed.incrementAndGet();
        // Read again once written to, as soon as the last read's own duration allows (a throttle in wall time).
        long deadline = System.currentTimeMillis() + 30_000;
        while (status.targets().get("backend").size() != 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(2, status.targets().get("backend").size());
        assertEquals(0, status.targets().get("switch").size());
    }

    private static List<String> ues(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** "ues" lists the UEs that counted something; the others, all zero, are left out. */
    @Test
    public void theStatusListsOnlyTheUesThatCountedSomething() throws Exception {
        status().write(0, null, null);
        assertEquals(0, new ObjectMapper().readTree(file().toFile()).get("ues").size());
    }

    /**
     * The offload manager calls its listeners under its lock; a status write waiting for that lock must not
     * keep an event out (both in opposite orders stalled the lab runner, PFCP and polls included).
     */
    @Test(timeout = 20_000)
    public void anEventArrivingWhileAWriteWaitsForTheManagerIsTakenAndWritten() throws Exception {
        LabStatus status = status();
        manager.addListener(status::event);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                status.write(0, null, null);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "status-writer");
        synchronized (manager) {
            writer.start();
            while (writer.getState() != Thread.State.BLOCKED && writer.isAlive()) {
                Thread.sleep(1);
            }
            manager.onHeavyHitter(ScaleSimulation.ue(0));
        }
        writer.join();
        assertNull(failure.get());
        JsonNode events = new ObjectMapper().readTree(file().toFile()).get("events");
        assertEquals(1, events.size());
        assertEquals("HH_REPORT", events.get(0).get("kind").asText());
        assertEquals(ScaleSimulation.ue(0).toString(), events.get(0).get("ue").asText());
    }

    /** With RPS, the status shows the switch's sizes, rps.events per point and the settings' warnings for it. */
    @Test
    public void theSwitchsRpsEventsAreInTheStatus() throws Exception {
        LabStatus status = status();
        RpsIntake rps = new RpsIntake();
        ObjectMapper json = new ObjectMapper();
        // No monitor to export to: the intake counts; flow 1 (δ = 2^-6) outlasts a tracker of 4 in 1024 receipts.
        rps.configure(RpsSettings.parse(json.readTree("{\"mode\": \"OFF\", \"bufferLen\": 1024, \"flows\": ["
                + "{\"tenant\": \"lab\", \"uePrefix\": \"10.250.0.0/16\", \"direction\": \"uplink\", \"flowId\": 1,"
                + " \"discThreshold\": 67108864}]}")));
        long[][] events = new long[HupfConstants.RPS_POINTS][HupfConstants.RPS_EVENTS];
        events[HupfConstants.RPS_POINT_IN][HupfConstants.RPS_EV_OBSERVED] = 12;
        events[HupfConstants.RPS_POINT_OUT][HupfConstants.RPS_EV_TRACK_OVERRUN] = 3;
        status.switchRps(() -> Optional.of(new RpsState(4096, 256, 4, events)));
        P4Info info = P4Info.newBuilder().addControllerPacketMetadata(ControllerPacketMetadata.newBuilder()
                .setPreamble(Preamble.newBuilder().setName("packet_in"))
                .addMetadata(ControllerPacketMetadata.Metadata.newBuilder().setId(3)
                                     .setName(HupfConstants.PKT_META_REASON.id()))).build();
        status.write(0, new HhReports(null, info, manager, rps), null);
        JsonNode sw = json.readTree(file().toFile()).get("rps").get("switch");
        assertEquals(4, sw.get("trackDepth").asInt());
        assertEquals(12, sw.get("in").get("observed").asLong());
        assertEquals(3, sw.get("out").get("trackOverrun").asLong());
        assertEquals("mode OFF: no tracker, no warning", 0, sw.get("warnings").size());

        rps.configure(RpsSettings.parse(json.readTree("{\"mode\": \"DATA_PLANE\", \"monitor\": \"127.0.0.1:9\","
                + " \"bufferLen\": 1024, \"flows\": [{\"tenant\": \"lab\", \"uePrefix\": \"10.250.0.0/16\","
                + " \"direction\": \"uplink\", \"flowId\": 1, \"discThreshold\": 67108864}]}")));
        LabStatus again = status();   // a write rate-limits the next
        again.switchRps(() -> Optional.of(new RpsState(4096, 256, 4, events)));
        again.write(0, new HhReports(null, info, manager, rps), null);
        JsonNode warnings = json.readTree(file().toFile()).get("rps").get("switch").get("warnings");
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).asText(), warnings.get(0).asText().startsWith("rps.flows[0] (flow 1): "));
        rps.close();
    }

    /** The lab takes its final usages from a status whose poll started after the traffic: the status says when. */
    @Test
    public void theStatusSaysWhenTheLastCompletePollStarted() throws Exception {
        status().write(0, null, null);
        assertEquals("no poll yet", 0, new ObjectMapper().readTree(file().toFile()).get("polled_from_ms").asLong());
        LabStatus status = status();
        status.polled(1_795_000_000_000L);
        status.write(0, null, null);
        assertEquals(1_795_000_000_000L, new ObjectMapper().readTree(file().toFile()).get("polled_from_ms").asLong());
    }

    /**
     * With tenants, the status shows the switch's counter of each tenant id and of each slice (its cell,
     * tenant id * 64 + QFI, named "tenant id/qfi"), and says when the reads began; a failed read is named.
     */
    @Test
    public void theSwitchsTenantAndSliceCountersAreInTheStatus() throws Exception {
        Ip4Address vtep = Ip4Address.valueOf("192.0.2.254");
        List<Tenant> tenants = List.of(
                new Tenant(100, vtep, 1, 3, 46, 0, 0, List.of(new TenantSlice(1, 3, 46), new TenantSlice(9, 0, 8))),
                new Tenant(101, vtep, 1, 3, 46, 0, 0, List.of(new TenantSlice(1, 3, 46), new TenantSlice(9, 0, 8))),
                new Tenant(300, vtep, 3, 0, 0));
        List<Collection<Long>> asked = new ArrayList<>();
        LabStatus status = status();
        status.switchTenants(tenants, new LabStatus.TenantCounters() {
            @Override
            public Map<Integer, long[]> tenants() {
                return Map.of(1, new long[]{30, 3000}, 3, new long[]{7, 700}, 4, new long[]{1, 1});
            }

            @Override
            public Map<Long, long[]> slices(Collection<Long> cells) {
                asked.add(List.copyOf(cells));
                return Map.of(65L, new long[]{10, 1000});   // 1/1; 1/9 (cell 73) not returned
            }
        });
        long before = System.currentTimeMillis();
        status.write(0, null, null);
        JsonNode tc = new ObjectMapper().readTree(file().toFile()).get("tenant_counters");
        assertTrue(tc.get("read_ms").asLong() >= before);
        assertEquals("[30,3000]", tc.get("tenants").get("1").toString());
        assertEquals("[7,700]", tc.get("tenants").get("3").toString());
        assertEquals("tenant ids of the config only", 2, tc.get("tenants").size());
        assertEquals("[10,1000]", tc.get("slices").get("1/1").toString());
        assertTrue("a cell the device did not return", tc.get("slices").get("1/9").isNull());
        assertEquals("each tenant id's slice cells, once", List.of(List.of(65L, 73L)), asked);

        LabStatus failing = status();
        failing.switchTenants(tenants, new LabStatus.TenantCounters() {
            @Override
            public Map<Integer, long[]> tenants() throws PiTargetException {
                throw new PiTargetException("switch unreachable");
            }

            @Override
            public Map<Long, long[]> slices(Collection<Long> cells) {
                return Map.of();
            }
        });
        failing.write(0, null, null);
        tc = new ObjectMapper().readTree(file().toFile()).get("tenant_counters");
        assertEquals("switch unreachable", tc.get("error").asText());
        assertNull(tc.get("slices"));
    }
}
