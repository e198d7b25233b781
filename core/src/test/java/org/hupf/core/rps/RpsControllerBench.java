package org.hupf.core.rps;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.packet.RpsReceipt;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many mode-2 receipts per second hupf's controller takes (docs/RPS.md, "Trade-off as measured here"): the
 * reference algorithm alone ({@link HostRps} over {@link ReferenceRps}, one thread, as the exporter's thread runs it)
 * and the whole export path (packet-in side offering to {@link RpsExporter}'s queue, its sender thread running the
 * algorithm and sending the records as UDP datagrams to a loopback socket). Not a unit test (surefire runs
 * {@code *Test}); run by {@code make bench-rps}:
 * <pre>
 *   java -cp app/target/test-classes:app/target/classes:DEPS org.hupf.core.rps.RpsControllerBench [receipts] [runs]
 * </pre>
 * The receipts are a trace's two points: PACKETS packets of FLOWS balanced flows at RATE_PPS (Poisson), uniform
 * digests, each seen at IN and 50 µs later at OUT; the bench's parameters (κ 100 ms, σ 1 %, δ for a 65,536-receipt
 * host buffer) are those of hupf_tools.rps.bench. The first run warms the JIT and is not reported.
 */
public final class RpsControllerBench {

    private static final int FLOWS = 32;
    private static final double RATE_PPS = 64_000;
    private static final long QUIET_US = 100_000;
    private static final double SIGMA = 0.01;
    private static final int HOST_BUFFER = 65_536;
    /** Eq. 2.2's best δ for r = 2 kpps, κ = 100 ms and a buffer span of 65,536 / 64 kpps (hupf_tools.rps.bench). */
    private static final double DELTA = 0.00126;
    private static final long OUT_DELAY_US = 50;

    private RpsControllerBench() {
    }

    public static void main(String[] args) throws Exception {
        int receipts = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        RpsReceipt[] trace = trace(receipts / 2, 1);
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        try (DatagramChannel monitor = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            RpsSettings settings = settings((InetSocketAddress) monitor.getLocalAddress());
            List<Double> alone = new ArrayList<>();
            List<Double> exported = new ArrayList<>();
            long[] records = new long[1];
            for (int run = 0; run <= runs; run++) {
                double a = algorithmAlone(settings, trace, records);
                double e = exportPath(settings, trace);
                if (run > 0) {
                    alone.add(a);
                    exported.add(e);
                }
            }
            System.out.printf("%d CPUs, load average %.2f before the runs, %.2f after%n%n",
                              Runtime.getRuntime().availableProcessors(), loadBefore,
                              ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            System.out.printf("| what | receipts per run | runs | receipts/s min / median / max | records out per run |%n");
            System.out.printf("|---|---|---|---|---|%n");
            System.out.printf("| HostRps + ReferenceRps, one thread | %d | %d | %s | %d |%n", trace.length, runs,
                              stats(alone), records[0]);
            System.out.printf("| RpsExporter (queue, sender thread, algorithm, UDP to loopback) | %d | %d | %s | %d |%n",
                              trace.length, runs, stats(exported), records[0]);
        }
    }

    /** Receipts/s of the algorithm called in a loop; records[0] := the records it emitted. */
    private static double algorithmAlone(RpsSettings settings, RpsReceipt[] trace, long[] records) {
        HostRps host = new HostRps(settings);
        long out = 0;
        long t0 = System.nanoTime();
        for (RpsReceipt r : trace) {
            out += host.apply(0, r).size();
        }
        double rate = trace.length / ((System.nanoTime() - t0) / 1e9);
        records[0] = out;
        return rate;
    }

    /** Receipts/s from the first offer until the sender thread has run the algorithm over the last receipt. */
    private static double exportPath(RpsSettings settings, RpsReceipt[] trace) throws Exception {
        HostRps host = new HostRps(settings);
        AtomicLong staged = new AtomicLong();
        try (RpsExporter exporter = new RpsExporter(settings.monitor(), RpsSettings.EXPORT_QUEUE, (d, r) -> {
            List<RpsReceipt> out = host.apply(d, r);
            staged.lazySet(staged.get() + 1);   // one writer: the sender thread
            return out;
        })) {
            long t0 = System.nanoTime();
            for (RpsReceipt r : trace) {
                // The packet-in side never waits in hupf (a full queue drops); here it retries, so that the rate is
                // what the sender thread sustains.
                while (!exporter.offer(0, r)) {
                    Thread.onSpinWait();
                }
            }
            while (staged.get() < trace.length) {
                Thread.onSpinWait();
            }
            double rate = trace.length / ((System.nanoTime() - t0) / 1e9);
            if (exporter.offered() - exporter.dropped() != trace.length) {
                throw new IllegalStateException("receipts lost on the way: " + exporter.offered() + " offered, "
                                                        + exporter.dropped() + " dropped");
            }
            return rate;
        }
    }

    /** IN and OUT receipts of packets packets, in arrival order at the controller. */
    private static RpsReceipt[] trace(int packets, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        RpsReceipt[] out = new RpsReceipt[2 * packets];
        double t = 0;
        for (int i = 0; i < packets; i++) {
            t += -Math.log(1 - rng.nextDouble()) * 1e6 / RATE_PPS;
            int flow = 1 + rng.nextInt(FLOWS);
            long digest = rng.nextLong(1L << 32);
            long ts = (long) t & 0xFFFFFFFFL;
            out[2 * i] = new RpsReceipt(RpsReceipt.POINT_IN, RpsReceipt.KIND_RECEIPT, flow, digest, ts, 0);
            out[2 * i + 1] = new RpsReceipt(RpsReceipt.POINT_OUT, RpsReceipt.KIND_RECEIPT, flow, digest,
                                            (ts + OUT_DELAY_US) & 0xFFFFFFFFL, 0);
        }
        return out;
    }

    private static RpsSettings settings(InetSocketAddress monitor) {
        ObjectMapper json = new ObjectMapper();
        ObjectNode n = json.createObjectNode().put("mode", "HYBRID").put("quietUs", QUIET_US).put("sigma", SIGMA)
                .put("monitor", "127.0.0.1:" + monitor.getPort()).put("hostBuffer", HOST_BUFFER);
        ArrayNode flows = n.putArray("flows");
        for (int f = 1; f <= FLOWS; f++) {
            flows.addObject().put("tenant", "bench").put("uePrefix", "10.0." + f + ".0/24").put("direction", "uplink")
                    .put("flowId", f).put("discThreshold", (long) (DELTA * 4294967296.0));
        }
        return RpsSettings.parse(n);
    }

    private static String stats(List<Double> rates) {
        double[] s = rates.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        return String.format("%,.0f / %,.0f / %,.0f", s[0], median, s[s.length - 1]);
    }
}
