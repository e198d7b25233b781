package org.hupf.pipeconf.packet;

import org.junit.Test;

import java.nio.ByteBuffer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

public class RpsReceiptTest {

    /** An rps_receipt_t as the contract lays it out, built field by field. */
    static byte[] receipt(int point, int kind, int flow, long digest, long ts, int dnum) {
        return ByteBuffer.allocate(RpsReceipt.LENGTH).put((byte) point).put((byte) kind).putShort((short) flow)
                .putInt((int) digest).putInt((int) ts).putShort((short) dnum).putShort((short) 0).array();
    }

    @Test
    public void everyFieldIsReadUnsignedAndBigEndian() {
        ByteBuffer b = ByteBuffer.wrap(receipt(RpsReceipt.POINT_OUT, RpsReceipt.KIND_DELAYED, 0xFFFE, 0xDEADBEEFL,
                                               0xFFFFFFF0L, 0x8001));
        RpsReceipt r = RpsReceipt.read(b);
        assertEquals(RpsReceipt.POINT_OUT, r.point());
        assertEquals(RpsReceipt.KIND_DELAYED, r.kind());
        assertEquals(0xFFFE, r.flowId());
        assertEquals(0xDEADBEEFL, r.digest());
        assertEquals(0xFFFFFFF0L, r.ts());
        assertEquals(0x8001, r.dnum());
        assertEquals("the whole record is consumed", 0, b.remaining());
    }

    @Test
    public void writeGivesBackTheBytesRead() {
        byte[] wire = receipt(RpsReceipt.POINT_IN, RpsReceipt.KIND_LATE_WARNING, 7, 0x80000000L, 123456789L, 3);
        RpsReceipt r = RpsReceipt.read(ByteBuffer.wrap(wire));
        ByteBuffer out = ByteBuffer.allocate(RpsReceipt.LENGTH);
        r.write(out);
        assertArrayEquals(wire, out.array());
    }

    @Test
    public void anotherKindKeepsThePacketsFields() {
        RpsReceipt r = new RpsReceipt(RpsReceipt.POINT_IN, RpsReceipt.KIND_RECEIPT, 4, 99, 1000, 0);
        RpsReceipt d = r.as(RpsReceipt.KIND_DELAYED, 12);
        assertEquals(new RpsReceipt(RpsReceipt.POINT_IN, RpsReceipt.KIND_DELAYED, 4, 99, 1000, 12), d);
    }

    @Test
    public void aTruncatedRecordIsRefusedWithItsLengthAndNothingConsumed() {
        ByteBuffer b = ByteBuffer.wrap(new byte[RpsReceipt.LENGTH - 1]);
        try {
            RpsReceipt.read(b);
            fail("accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("16") && e.getMessage().contains("15"));
        }
        assertEquals(0, b.position());
    }

    @Test
    public void aPointOrKindTheContractDoesNotDefineIsRefused() {
        for (byte[] bad : new byte[][]{receipt(2, RpsReceipt.KIND_DIRECT, 1, 1, 1, 0), receipt(0, 0, 1, 1, 1, 0),
                receipt(0, 5, 1, 1, 1, 0)}) {
            try {
                RpsReceipt.read(ByteBuffer.wrap(bad));
                fail("accepted point " + bad[0] + " kind " + bad[1]);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage(), e.getMessage().contains("point") || e.getMessage().contains("kind"));
            }
        }
    }
}
