package org.hupf.pipeconf.packet;

import org.junit.Test;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.packet.DefaultInboundPacket;

import java.nio.ByteBuffer;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_PUNT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_HH_REPORT;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class HupfPacketInTest {

    private static final ConnectPoint CP = ConnectPoint.deviceConnectPoint("device:s1/3");

    static byte[] report(long key, long ewma, int tau, int flags, byte[] frame) {
        return ByteBuffer.allocate(HhReport.LENGTH + frame.length).putInt((int) key).putInt((int) ewma)
                .putShort((short) tau).put((byte) flags).put((byte) 0).put(frame).array();
    }

    @Test
    public void hhReportIsParsedFromThePayloadHead() {
        byte[] frame = {1, 2, 3, 4};
        byte[] payload = report(0xC0A80001L, 0xFFFFFFF0L, 1850, HhReport.FLAG_BACKEND, frame);
        DefaultInboundPacket pkt = new DefaultInboundPacket(CP, null, ByteBuffer.wrap(payload),
                                                            Optional.of((long) PKTIN_HH_REPORT));
        HupfPacketIn in = HupfPacketIn.of(pkt).orElseThrow();
        assertEquals(HupfPacketIn.Reason.HH_REPORT, in.reason());
        HhReport r = in.hhReport().orElseThrow();
        assertEquals(0xC0A80001L, r.flowKey());
        assertEquals(0xFFFFFFF0L, r.ipgEwma());
        assertEquals(1850, r.tau());
        assertTrue(r.fromBackend());
        ByteBuffer f = in.frame(pkt);
        assertEquals(frame.length, f.remaining());
        assertEquals(1, f.get());
    }

    @Test
    public void otherReasonsCarryNoReport() {
        DefaultInboundPacket pkt = new DefaultInboundPacket(CP, null, ByteBuffer.wrap(new byte[]{9}),
                                                            Optional.of((long) PKTIN_ACL_PUNT));
        HupfPacketIn in = HupfPacketIn.of(pkt).orElseThrow();
        assertEquals(HupfPacketIn.Reason.ACL_PUNT, in.reason());
        assertFalse(in.hhReport().isPresent());
        assertEquals(1, in.frame(pkt).remaining());
    }

    @Test
    public void truncatedReportIsRefused() {
        try {
            HhReport.read(ByteBuffer.wrap(new byte[HhReport.LENGTH - 1]));
            fail("accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("12"));
        }
    }

    @Test
    public void unknownReasonIsRefused() {
        try {
            HupfPacketIn.reason(200);
            fail("accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("200"));
        }
    }
}
