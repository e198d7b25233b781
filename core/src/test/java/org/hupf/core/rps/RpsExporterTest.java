package org.hupf.core.rps;

import org.hupf.pipeconf.packet.RpsReceipt;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/** The exporter against a real UDP socket on the loopback. */
public class RpsExporterTest {

    private DatagramSocket monitor;
    private RpsExporter exporter;

    @Before
    public void openMonitor() throws Exception {
        monitor = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        monitor.setSoTimeout(5000);
    }

    @After
    public void close() {
        if (exporter != null) {
            exporter.close();
        }
        monitor.close();
    }

    private InetSocketAddress monitorAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), monitor.getLocalPort());
    }

    private static RpsReceipt record(int i) {
        return new RpsReceipt(i % 2, RpsReceipt.KIND_DIRECT, 7, 0x10000L + i, 1000L + i, i & 0xFFFF);
    }

    /** A received datagram: its device and records, its header checked. */
    private static final class Datagram {
        int device;
        final List<RpsReceipt> records = new ArrayList<>();
    }

    private Datagram receive() throws Exception {
        byte[] buf = new byte[2048];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        monitor.receive(p);
        ByteBuffer b = ByteBuffer.wrap(buf, 0, p.getLength());
        byte[] magic = new byte[4];
        b.get(magic);
        assertEquals("HRPS", new String(magic, StandardCharsets.US_ASCII));
        assertEquals(RpsExporter.VERSION, b.get());
        int count = Byte.toUnsignedInt(b.get());
        Datagram d = new Datagram();
        d.device = Short.toUnsignedInt(b.getShort());
        assertEquals("length = header + count records", RpsExporter.HEADER_LENGTH + count * RpsReceipt.LENGTH,
                     p.getLength());
        for (int i = 0; i < count; i++) {
            d.records.add(RpsReceipt.read(b));
        }
        return d;
    }

    @Test
    public void aDatagramIsTheHeaderThenTheRecords() {
        List<RpsReceipt> rs = List.of(record(1), record(2));
        byte[] d = RpsExporter.datagram(0x1234, rs);
        ByteBuffer want = ByteBuffer.allocate(8 + 32).put("HRPS".getBytes(StandardCharsets.US_ASCII)).put((byte) 1)
                .put((byte) 2).putShort((short) 0x1234);
        rs.forEach(r -> r.write(want));
        assertArrayEquals(want.array(), d);
        assertTrue("one datagram fits a 1500-byte MTU",
                   RpsExporter.HEADER_LENGTH + RpsExporter.MAX_RECORDS * RpsReceipt.LENGTH <= 1472);
    }

    /** The same bytes tests/rps/test_collector.py's GOLDEN parses in the Python monitor. */
    @Test
    public void theDatagramIsTheGoldenOne() {
        RpsReceipt r = new RpsReceipt(1, 2, 0x0304, 0x05060708L, 0x090A0B0CL, 0x0D0E);
        StringBuilder hex = new StringBuilder();
        for (byte b : RpsExporter.datagram(0x0102, List.of(r))) {
            hex.append(String.format("%02x", b));
        }
        assertEquals("4852505301010102" + "0102030405060708090a0b0c0d0e0000", hex.toString());
    }

    @Test
    public void recordsWaitingTogetherGoInFullDatagramsInOrder() throws Exception {
        CountDownLatch firstTaken = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        exporter = new RpsExporter(monitorAddress(), 1000, holdingTheFirst(firstTaken, release));
        int n = 2 * RpsExporter.MAX_RECORDS + 17;
        assertTrue(exporter.offer(5, record(0)));
        assertTrue(firstTaken.await(5, TimeUnit.SECONDS));
        for (int i = 1; i < n; i++) {
            assertTrue(exporter.offer(5, record(i)));
        }
        release.countDown();
        List<RpsReceipt> got = new ArrayList<>();
        int datagrams = 0;
        while (got.size() < n) {
            Datagram d = receive();
            assertEquals(5, d.device);
            assertTrue(d.records.size() <= RpsExporter.MAX_RECORDS);
            got.addAll(d.records);
            datagrams++;
        }
        for (int i = 0; i < n; i++) {
            assertEquals(record(i), got.get(i));
        }
        assertTrue("batched: " + datagrams + " datagrams for " + n + " records", datagrams <= 4);
        // The exporter counts a datagram once it is sent: the monitor may have it first.
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (exporter.exported() < n && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertEquals(n, exporter.exported());
        assertEquals(0, exporter.dropped());
    }

    @Test
    public void aFullQueueDropsAndCountsWithoutWaiting() throws Exception {
        CountDownLatch firstTaken = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        exporter = new RpsExporter(monitorAddress(), 4, holdingTheFirst(firstTaken, release));
        exporter.offer(0, record(0));
        assertTrue(firstTaken.await(5, TimeUnit.SECONDS));
        int accepted = 0;
        long started = System.nanoTime();
        for (int i = 1; i <= 10; i++) {
            accepted += exporter.offer(0, record(i)) ? 1 : 0;
        }
        assertTrue("offer never waits", System.nanoTime() - started < TimeUnit.SECONDS.toNanos(1));
        assertEquals(4, accepted);
        assertEquals(6, exporter.dropped());
        release.countDown();
        List<RpsReceipt> got = new ArrayList<>();
        while (got.size() < 5) {
            got.addAll(receive().records);
        }
        assertEquals(List.of(record(0), record(1), record(2), record(3), record(4)), got);
        assertEquals(11, exporter.offered());
    }

    @Test
    public void eachDeviceHasItsOwnDatagramsAndTheStageDecidesWhatIsSent() throws Exception {
        // The stage drops odd digests: only what it returns is exported.
        exporter = new RpsExporter(monitorAddress(), 100, (device, r) ->
                r.digest() % 2 == 0 ? List.of(r) : List.of());
        for (int i = 0; i < 6; i++) {
            exporter.offer(i < 3 ? 1 : 2, record(i));
        }
        List<RpsReceipt> dev1 = new ArrayList<>();
        List<RpsReceipt> dev2 = new ArrayList<>();
        while (dev1.size() + dev2.size() < 3) {
            Datagram d = receive();
            (d.device == 1 ? dev1 : dev2).addAll(d.records);
        }
        assertEquals(List.of(record(0), record(2)), dev1);
        assertEquals(List.of(record(4)), dev2);
    }

    @Test
    public void aDeviceIndexBeyondTheHeaderIsRefused() throws Exception {
        exporter = new RpsExporter(monitorAddress(), 4, (device, r) -> List.of(r));
        try {
            exporter.offer(RpsExporter.MAX_DEVICE + 1, record(0));
            throw new AssertionError("accepted");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("65536"));
        }
        assertFalse(exporter.offered() > 0);
    }

    /** A stage that passes records through, holding the sender on the first one until released. */
    private static BiFunction<Integer, RpsReceipt, List<RpsReceipt>> holdingTheFirst(CountDownLatch firstTaken,
                                                                                      CountDownLatch release) {
        return (device, r) -> {
            if (firstTaken.getCount() > 0) {
                firstTaken.countDown();
                await(release);
            }
            return List.of(r);
        };
    }

    private static void await(CountDownLatch l) {
        try {
            l.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
