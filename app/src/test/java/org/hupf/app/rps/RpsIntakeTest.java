package org.hupf.app.rps;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.packet.RpsReceipt;
import org.junit.After;
import org.junit.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;

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
}
