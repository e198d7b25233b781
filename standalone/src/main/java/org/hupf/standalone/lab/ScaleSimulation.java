package org.hupf.standalone.lab;

import org.hupf.api.OffloadMetrics;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.offload.OffloadManager;
import org.hupf.api.OffloadPolicy;
import org.hupf.core.offload.OffloadSession;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.TauTable;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * The hybrid's scalability, simulated over the real offload manager (docs/PERFORMANCE.md, "Hybrid
 * scalability"): every session on an in-memory backend, a switch of capacity K, HH reports and
 * per-interval bytes replayed from a trace that tools/hupf_tools/lab/scale.py made with the HK-IPG
 * reference model, configured with what the app programs into the switch ({@code --hh-config}: the
 * {@link HhConfig} the threshold derives). Bytes of a session take the switch while its entries are
 * there, else the backend.
 *
 * <pre>
 * trace lines:  S sessions | T t_ms (interval start) | R session (HH report) | B session pkts bytes
 * usage:        ScaleSimulation TRACE CAPACITY THRESHOLD_BPS HOLD_MS [--no-confirm]
 *               ScaleSimulation --hh-config THRESHOLD_BPS PACKET_BYTES TAU_TABLE_SIZE
 * output:       one JSON line of results, or of the HK-IPG parameters and tau table
 * </pre>
 */
public final class ScaleSimulation {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.0.2.1");
    private static final int UE_BASE = Ip4Address.valueOf("10.0.0.0").toInt();
    private static final long POLL_MS = 1000;
    private static final long BACKEND_SESSIONS = 2_097_152;

    private ScaleSimulation() {
    }

    /**
     * Returns the UE address of session i (10.0.0.0 + i + 1).
     *
     * @param i session index
     * @return UE address
     */
    public static Ip4Address ue(int i) {
        return Ip4Address.valueOf(UE_BASE + i + 1);
    }

    static UpfSessionUplink uplink(int i) {
        return UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(i + 1L).withUeAddress(ue(i)).build();
    }

    /**
     * Returns session i as the translator would emit it for one default-application PDR pair, without meters.
     *
     * @param i session index
     * @return the session
     */
    public static OffloadSession session(int i) {
        List<UpfEntity> e = List.of(
                UpfGtpTunnelPeer.builder().withTunnelPeerId(1).withSrcAddr(N3)
                        .withDstAddr(Ip4Address.valueOf("192.0.2.2")).withSrcPort(2152).build(),
                UpfTerminationUplink.builder().withUeSessionId(ue(i)).withApplicationId(0)
                        .withCounterId(2 * i).withTrafficClass(0).withAppMeterIdx(0).build(),
                UpfTerminationDownlink.builder().withUeSessionId(ue(i)).withApplicationId(0)
                        .withCounterId(2 * i + 1).withTeid(0x80000000L + i).withQfi(9).withTrafficClass(0)
                        .withAppMeterIdx(0).build(),
                uplink(i),
                UpfSessionDownlink.builder().withUeAddress(ue(i)).withGtpTunnelPeerId(1).build());
        return OffloadSession.of(ue(i), 1, List.of(9), e);
    }

    /**
     * Returns the HK-IPG configuration the app derives for a threshold, as one JSON line.
     *
     * @param thresholdBps heavy-hitter threshold, bit/s
     * @param packetBytes  assumed packet size
     * @param tauEntries   tau_table size
     * @return {"tau_th", "ipg_init", "ipg_th", "decay_k", "timeslot_us", "alpha_shift", "entries": [[lo, hi, tau]]}
     */
    static String hhConfigJson(long thresholdBps, int packetBytes, int tauEntries) {
        HhConfig c = HhConfig.builder().hhThresholdBps(thresholdBps).packetBytes(packetBytes).build();
        StringJoiner entries = new StringJoiner(",", "[", "]");
        for (TauTable.Entry e : c.tauEntries(tauEntries)) {
            entries.add("[" + e.lo() + "," + e.hi() + "," + e.tau() + "]");
        }
        return String.format(Locale.ROOT, "{\"tau_th\":%d,\"ipg_init\":%d,\"ipg_th\":%d,\"decay_k\":%d,"
                + "\"timeslot_us\":%d,\"alpha_shift\":%d,\"entries\":%s}", c.tauTh(), c.ipgTh(), c.ipgTh(),
                c.decayK(), c.timeslotUs(), c.alphaShift(), entries);
    }

    public static void main(String[] args) throws IOException, UpfProgrammableException {
        if (args.length == 4 && args[0].equals("--hh-config")) {
            System.out.println(hhConfigJson(Long.parseLong(args[1]), Integer.parseInt(args[2]),
                                            Integer.parseInt(args[3])));
            return;
        }
        boolean confirm = args.length == 4;
        if (!confirm && !(args.length == 5 && args[4].equals("--no-confirm"))) {
            System.err.println("usage: ScaleSimulation TRACE CAPACITY THRESHOLD_BPS HOLD_MS [--no-confirm]\n"
                    + "       ScaleSimulation --hh-config THRESHOLD_BPS PACKET_BYTES TAU_TABLE_SIZE");
            System.exit(2);
        }
        long capacity = Long.parseLong(args[1]);
        long[] clock = {0};
        InMemoryUpfDevice backend = new InMemoryUpfDevice("backend", BACKEND_SESSIONS, 2 * BACKEND_SESSIONS, 65_536);
        InMemoryUpfDevice hw = new InMemoryUpfDevice("switch", capacity, 2 * capacity, capacity);
        OffloadManager m = new OffloadManager(backend, hw, OffloadPolicy.builder()
                .thresholdBitsPerSec(Long.parseLong(args[2])).holdMillis(Long.parseLong(args[3]))
                .confirmReports(confirm).build(),
                                              () -> clock[0]);
        long nextPoll = POLL_MS;
        int peak = 0;
        long started = System.nanoTime();
        try (BufferedReader r = Files.newBufferedReader(Path.of(args[0]))) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "S":
                        int n = Integer.parseInt(f[1]);
                        for (int i = 0; i < n; i++) {
                            m.put(session(i));
                        }
                        break;
                    case "T":
                        clock[0] = Long.parseLong(f[1]);
                        while (clock[0] >= nextPoll) {
                            m.poll();
                            nextPoll += POLL_MS;
                            peak = Math.max(peak, hw.count(UpfEntityType.SESSION_DOWNLINK));
                        }
                        break;
                    case "R":
                        m.onHeavyHitter(ue(Integer.parseInt(f[1])));
                        break;
                    case "B":
                        int s = Integer.parseInt(f[1]);
                        long pkts = Long.parseLong(f[2]);
                        long bytes = Long.parseLong(f[3]);
                        if (!hw.countUplink(uplink(s), ue(s), pkts, bytes)) {
                            backend.countUplink(uplink(s), ue(s), pkts, bytes);
                        }
                        break;
                    default:
                        throw new IOException(args[0] + ":" + lineNo + ": unknown record " + f[0]);
                }
            }
        }
        m.poll();
        OffloadMetrics x = m.metrics();
        System.out.println(String.format(Locale.ROOT,
                "{\"capacity\":%d,\"sessions\":%d,\"peak_offloaded\":%d,\"hw_share\":%.4f,\"hw_bytes\":%d,"
                        + "\"sw_bytes\":%d,\"hh_reports\":%d,\"promotions\":%d,\"demotions\":%d,\"evictions\":%d,"
                        + "\"rejections\":%d,\"wall_s\":%.2f}",
                capacity, x.sessions(), peak, x.hwShare(), x.hwBytes(), x.swBytes(), x.hhReports(), x.promotions(),
                x.demotions(), x.evictions(), x.rejections(), (System.nanoTime() - started) / 1e9));
    }
}
