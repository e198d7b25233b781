package org.hupf.pipeconf.packet;

import org.hupf.pipeconf.HupfConstants;
import org.junit.Test;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.packet.DefaultInboundPacket;

import java.nio.ByteBuffer;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.PKTIN_ACL_PUNT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_HH_REPORT;
import static org.hupf.pipeconf.HupfConstants.PKTIN_RPS;
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

    private static final byte[] RECEIPT = RpsReceiptTest.receipt(RpsReceipt.POINT_OUT, RpsReceipt.KIND_DIRECT, 9,
                                                                 0xCAFEF00DL, 77_000_000L, 41);

    @Test
    public void anRpsPacketInIsItsReceiptAlone() {
        DefaultInboundPacket pkt = new DefaultInboundPacket(CP, null, ByteBuffer.wrap(RECEIPT),
                                                            Optional.of((long) PKTIN_RPS));
        HupfPacketIn in = HupfPacketIn.of(pkt).orElseThrow();
        assertEquals(HupfPacketIn.Reason.RPS, in.reason());
        assertEquals(new RpsReceipt(RpsReceipt.POINT_OUT, RpsReceipt.KIND_DIRECT, 9, 0xCAFEF00DL, 77_000_000L, 41),
                     in.rpsReceipt().orElseThrow());
        assertFalse(in.hhReport().isPresent());
        assertEquals("no packet follows", 0, in.frame(pkt).remaining());
    }

    @Test
    public void aReceiptRidesAnHhReportFlaggedSoAndTheFrameFollowsBoth() {
        byte[] frame = {1, 2, 3, 4};
        byte[] head = report(0xC0A80001L, 800, 1850, HhReport.FLAG_BACKEND | HupfConstants.HH_FLAG_RPS, new byte[0]);
        byte[] payload = ByteBuffer.allocate(head.length + RECEIPT.length + frame.length).put(head).put(RECEIPT)
                .put(frame).array();
        DefaultInboundPacket pkt = new DefaultInboundPacket(CP, null, ByteBuffer.wrap(payload),
                                                            Optional.of((long) PKTIN_HH_REPORT));
        HupfPacketIn in = HupfPacketIn.of(pkt).orElseThrow();
        HhReport r = in.hhReport().orElseThrow();
        assertTrue(r.fromBackend() && r.carriesRps());
        assertEquals(0xC0A80001L, r.flowKey());
        assertEquals(9, in.rpsReceipt().orElseThrow().flowId());
        ByteBuffer f = in.frame(pkt);
        assertEquals(frame.length, f.remaining());
        assertEquals(1, f.get());
        assertTrue(HupfPacketIn.announcesRps(PKTIN_HH_REPORT, ByteBuffer.wrap(payload)));
    }

    @Test
    public void anHhReportWithoutTheFlagHasNoReceipt() {
        byte[] payload = report(1, 2, 3, 0, RECEIPT);
        HupfPacketIn in = HupfPacketIn.parse(PKTIN_HH_REPORT, ByteBuffer.wrap(payload));
        assertFalse(in.rpsReceipt().isPresent());
        assertFalse(HupfPacketIn.announcesRps(PKTIN_HH_REPORT, ByteBuffer.wrap(payload)));
        assertEquals(HhReport.LENGTH, in.headerLength());
    }

    @Test
    public void aReceiptCutShortIsRefusedWithItsLengthWhereverItIs() {
        byte[] cut = java.util.Arrays.copyOf(RECEIPT, RpsReceipt.LENGTH - 3);
        byte[] flagged = report(1, 2, 3, HupfConstants.HH_FLAG_RPS, cut);
        for (Object[] c : new Object[][]{{PKTIN_RPS, cut}, {PKTIN_HH_REPORT, flagged}}) {
            ByteBuffer payload = ByteBuffer.wrap((byte[]) c[1]);
            try {
                HupfPacketIn.parse((int) c[0], payload);
                fail("accepted");
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("RPS receipt needs 16 bytes, 13 left"));
            }
            assertTrue("it still announces a record (to be counted)", HupfPacketIn.announcesRps((int) c[0], payload));
            assertEquals("the payload's position is left alone", 0, payload.position());
        }
    }
}
