package org.hupf.core.rps;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.RpsStatus;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.junit.After;
import org.junit.Test;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

public class RpsIntakeTest {

    private final RpsIntake intake = new RpsIntake();
    private DatagramSocket monitor;

    @After
    public void close() {
        intake.close();
        if (monitor != null) {
            monitor.close();
        }
    }

    private RpsSettings toMonitor(String mode) throws Exception {
        if (monitor == null) {
            monitor = new DatagramSocket(0, InetAddress.getLoopbackAddress());
            monitor.setSoTimeout(5000);
        }
        ObjectNode n = RpsSettingsTest.valid().put("mode", mode).put("monitor", "127.0.0.1:" + monitor.getLocalPort());
        return RpsSettings.parse(n);
    }

    private static ByteBuffer receipt(int kind) {
        ByteBuffer b = ByteBuffer.allocate(RpsReceipt.LENGTH);
        new RpsReceipt(RpsReceipt.POINT_IN, kind, 1, 7, 1000, 3).write(b);
        return b.flip();
    }

    @Test
    public void aRecordGoesToTheMonitorWithItsDevice() throws Exception {
        intake.configure(toMonitor("DATA_PLANE"));
        assertTrue(intake.onPacketIn(4, HupfConstants.PKTIN_RPS, receipt(RpsReceipt.KIND_DIRECT)));
        byte[] buf = new byte[256];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        monitor.receive(p);
        assertEquals(8 + 16, p.getLength());
        assertEquals(4, ByteBuffer.wrap(buf).getShort(6));
        assertEquals(new RpsReceipt(RpsReceipt.POINT_IN, RpsReceipt.KIND_DIRECT, 1, 7, 1000, 3),
                     RpsReceipt.read(ByteBuffer.wrap(buf, 8, 16)));
        assertEquals(1, intake.records());
    }

    @Test
    public void aRecordCutShortIsCountedNotThrown() throws Exception {
        intake.configure(toMonitor("DATA_PLANE"));
        ByteBuffer cut = ByteBuffer.wrap(Arrays.copyOf(receipt(RpsReceipt.KIND_DIRECT).array(), 9));
        assertTrue(intake.onPacketIn(0, HupfConstants.PKTIN_RPS, cut));
        assertEquals(1, intake.malformed());
        assertEquals(0, intake.records());
        // Other packet-ins are not RPS's business, and a report without a receipt neither.
        assertFalse(intake.onPacketIn(0, HupfConstants.PKTIN_ACL_PUNT, ByteBuffer.wrap(new byte[3])));
        assertFalse(intake.onPacketIn(0, 200, ByteBuffer.wrap(new byte[3])));
        assertFalse(intake.onPacketIn(0, HupfConstants.PKTIN_HH_REPORT, ByteBuffer.wrap(new byte[12])));
        assertEquals(1, intake.malformed());
    }

    @Test
    public void withoutExportRecordsAreCounted() throws Exception {
        assertTrue(intake.onPacketIn(0, HupfConstants.PKTIN_RPS, receipt(RpsReceipt.KIND_DIRECT)));
        assertEquals(1, intake.notExported());
        assertNull(intake.exporter());
    }

    @Test
    public void onlyAChangeOfSettingsReplacesTheExporter() throws Exception {
        RpsSettings s = toMonitor("DATA_PLANE");
        intake.configure(s);
        RpsExporter first = intake.exporter();
        intake.configure(RpsSettings.parse(toMonitorJson("DATA_PLANE")));
        assertSame("equal settings keep the exporter", first, intake.exporter());
        intake.configure(toMonitor("HYBRID"));
        assertNotSame(first, intake.exporter());
        assertTrue("the old one is closed: it takes nothing", !first.offer(0, RpsReceipt.read(receipt(1))));
        intake.configure(RpsSettings.OFF);
        assertNull(intake.exporter());
    }

    private ObjectNode toMonitorJson(String mode) {
        return RpsSettingsTest.valid().put("mode", mode).put("monitor", "127.0.0.1:" + monitor.getLocalPort());
    }
    /**
     * The status: the settings in force, the intake's and the exporter's counts, and each device read: its state
     * with the settings' tracker warnings for it, left out without RPS, its error when unreadable.
     */
    @Test
    public void theStatusReadsEveryDeviceAndCountsTheExport() throws Exception {
        RpsSettings settings = toMonitor("DATA_PLANE");
        intake.configure(settings);
        assertTrue(intake.onPacketIn(0, HupfConstants.PKTIN_RPS, receipt(RpsReceipt.KIND_DIRECT)));
        monitor.receive(new DatagramPacket(new byte[256], 256));
        for (long end = System.nanoTime() + 5_000_000_000L; intake.exporter().exported() == 0 && System.nanoTime() < end;) {
            Thread.sleep(10);   // the sender counts after its send returns
        }
        long[][] events = new long[HupfConstants.RPS_POINTS][HupfConstants.RPS_EVENTS];
        events[HupfConstants.RPS_POINT_OUT][HupfConstants.RPS_EV_TRACK_OVERRUN] = 5;
        RpsState shallow = new RpsState(4096, 256, 4, events);
        Map<String, RpsIntake.DeviceRead> reads = new HashMap<>();
        reads.put("device:s1", () -> Optional.of(shallow));
        reads.put("device:b1", Optional::empty);
        reads.put("device:s2", () -> {
            throw new UpfProgrammableException("readRps: UNAVAILABLE");
        });
        RpsStatus st = intake.status(reads);
        assertEquals(RpsConfig.Mode.DATA_PLANE, st.mode);
        assertEquals(settings.toJson(), st.settings);
        assertEquals(Set.of("device:s1", "device:s2"), st.devices.keySet());
        assertSame(shallow, st.devices.get("device:s1").state);
        assertEquals(settings.trackerWarnings(4096, 4), st.devices.get("device:s1").warnings);
        assertEquals("flows 1 (δ 1 %) and 2 (all direct) outlast a tracker of 4", 2,
                     st.devices.get("device:s1").warnings.size());
        assertEquals("readRps: UNAVAILABLE", st.devices.get("device:s2").error);
        assertEquals(1, st.records);
        assertEquals(0, st.malformed);
        RpsStatus.Exporter e = st.exporter;
        assertEquals("127.0.0.1:" + monitor.getLocalPort(), e.monitor);
        assertEquals(1, e.offered);
        assertEquals(1, e.sent);
        assertEquals(1, e.datagrams);
        assertEquals(0, e.queued);
        assertEquals(0, e.dropped);
        assertEquals(0, e.sendErrors);

        intake.configure(RpsSettings.OFF);
        assertNull("nothing exported: no exporter", intake.status(Map.of()).exporter);
        assertEquals(RpsConfig.Mode.OFF, intake.status(Map.of()).mode);
    }
}
