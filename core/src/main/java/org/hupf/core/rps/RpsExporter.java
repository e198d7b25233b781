package org.hupf.core.rps;

import org.hupf.pipeconf.packet.RpsReceipt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * Sends the RPS records the data plane reports to the monitor over UDP, in batches (docs/PIPELINE_CONTRACT.md,
 * "RPS", export): datagram = {@code "HRPS"}, version 1 (u8), count (u8), device index (u16), then count records of
 * {@link RpsReceipt#LENGTH} bytes. The packet-in path only offers records to a bounded queue (a full queue drops
 * and counts, it never waits); one sender thread takes them, hands each to a stage (mode HYBRID: the reference
 * algorithm, which turns receipts into the disclosures it makes) and sends what comes out, one datagram per device
 * for what it took at once (at most {@link #MAX_RECORDS} records each).
 */
public final class RpsExporter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RpsExporter.class);

    public static final byte[] MAGIC = "HRPS".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;
    /** Magic, version, count, device index. */
    public static final int HEADER_LENGTH = 8;
    /** Records per datagram: one datagram stays within a 1500-byte MTU (1472 bytes of UDP payload). */
    public static final int MAX_RECORDS = (1472 - HEADER_LENGTH) / RpsReceipt.LENGTH;
    /** Largest device index the header carries. */
    public static final int MAX_DEVICE = 0xFFFF;

    /** A record as offered: the device it came from. */
    private static final class Offered {
        final int device;
        final RpsReceipt record;

        Offered(int device, RpsReceipt record) {
            this.device = device;
            this.record = record;
        }
    }

    private final InetSocketAddress monitor;
    private final BlockingQueue<Offered> queue;
    private final BiFunction<Integer, RpsReceipt, List<RpsReceipt>> stage;
    private final DatagramChannel channel;
    private final Thread sender;
    private volatile boolean stopped;
    private final AtomicLong offered = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong exported = new AtomicLong();
    private final AtomicLong datagrams = new AtomicLong();
    private final AtomicLong sendFailures = new AtomicLong();

    /**
     * Opens the socket and starts the sender thread.
     *
     * @param monitor       where the records go
     * @param queueCapacity records waiting at most (beyond: dropped and counted)
     * @param stage         what to send for an offered record of a device (e.g. itself; run on the sender thread)
     * @throws IOException if no UDP socket can be opened
     */
    public RpsExporter(InetSocketAddress monitor, int queueCapacity,
                       BiFunction<Integer, RpsReceipt, List<RpsReceipt>> stage) throws IOException {
        if (monitor.isUnresolved()) {
            throw new IllegalArgumentException("RPS monitor " + monitor + " does not resolve");
        }
        this.monitor = monitor;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.stage = stage;
        this.channel = DatagramChannel.open();
        this.sender = new Thread(this::run, "hupf-rps-export");
        sender.setDaemon(true);
        sender.start();
    }

    /**
     * Queues a record for the monitor without waiting.
     *
     * @param device index of the device it came from (0..{@link #MAX_DEVICE})
     * @param record the record
     * @return false if the queue was full (the record is dropped and counted) or the exporter is closed
     */
    public boolean offer(int device, RpsReceipt record) {
        if (device < 0 || device > MAX_DEVICE) {
            throw new IllegalArgumentException("device index " + device + " is not in 0.." + MAX_DEVICE);
        }
        offered.incrementAndGet();
        if (stopped || !queue.offer(new Offered(device, record))) {
            dropped.incrementAndGet();
            return false;
        }
        return true;
    }

    /**
     * One datagram.
     *
     * @param device  device index
     * @param records 1..{@link #MAX_RECORDS} records
     * @return its bytes
     */
    public static byte[] datagram(int device, List<RpsReceipt> records) {
        if (records.isEmpty() || records.size() > MAX_RECORDS) {
            throw new IllegalArgumentException("a datagram carries 1.." + MAX_RECORDS + " records, not "
                                                       + records.size());
        }
        ByteBuffer b = ByteBuffer.allocate(HEADER_LENGTH + records.size() * RpsReceipt.LENGTH);
        b.put(MAGIC).put((byte) VERSION).put((byte) records.size()).putShort((short) device);
        records.forEach(r -> r.write(b));
        return b.array();
    }

    private void run() {
        List<Offered> taken = new ArrayList<>();
        while (!stopped) {
            try {
                Offered first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                taken.add(first);
                queue.drainTo(taken, MAX_RECORDS * 16);
                send(taken);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // A fault in one batch (the stage's) must not end the export.
                log.warn("RPS export: a batch of {} records failed: {}", taken.size(), e.toString());
            } finally {
                taken.clear();
            }
        }
    }

    private void send(List<Offered> taken) {
        Map<Integer, List<RpsReceipt>> byDevice = new LinkedHashMap<>();
        for (Offered o : taken) {
            List<RpsReceipt> out = byDevice.computeIfAbsent(o.device, d -> new ArrayList<>());
            out.addAll(stage.apply(o.device, o.record));
            if (out.size() >= MAX_RECORDS) {
                sendDatagram(o.device, new ArrayList<>(out.subList(0, MAX_RECORDS)));
                out.subList(0, MAX_RECORDS).clear();
            }
        }
        byDevice.forEach((device, out) -> {
            if (!out.isEmpty()) {
                sendDatagram(device, out);
            }
        });
    }

    private void sendDatagram(int device, List<RpsReceipt> records) {
        try {
            channel.send(ByteBuffer.wrap(datagram(device, records)), monitor);
            datagrams.incrementAndGet();
            exported.addAndGet(records.size());
        } catch (IOException e) {
            sendFailures.addAndGet(records.size());
            log.debug("RPS export to {}: {}", monitor, e.toString());
        }
    }

    /** @return records offered so far (exported, dropped, waiting, or consumed by the stage) */
    public long offered() {
        return offered.get();
    }

    /** @return records sent to the monitor */
    public long exported() {
        return exported.get();
    }

    /** @return records dropped because the queue was full or the exporter closed */
    public long dropped() {
        return dropped.get();
    }

    /** @return records whose datagram could not be sent */
    public long sendFailures() {
        return sendFailures.get();
    }

    public long datagrams() {
        return datagrams.get();
    }

    /** @return records waiting in the queue now */
    public int queued() {
        return queue.size();
    }

    public InetSocketAddress monitor() {
        return monitor;
    }

    /** Stops the sender (records still queued are not sent) and closes the socket. */
    @Override
    public void close() {
        stopped = true;
        sender.interrupt();
        try {
            sender.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            channel.close();
        } catch (IOException e) {
            log.debug("Closing the RPS export socket: {}", e.toString());
        }
    }
}
