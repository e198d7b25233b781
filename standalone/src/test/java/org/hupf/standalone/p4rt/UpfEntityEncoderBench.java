package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.upf.Pipelines;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import p4.v1.P4RuntimeOuterClass.Update;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * CPU time and heap allocated per session by the encoding of a write: the PI path (translator + PiEncoder)
 * and the direct one, alternated in one JVM. A session is what tests/pfcp/smf.py's establishment template
 * becomes (bench_pfcp.py, bench_control_plane.py): its two counter cells reset, the uplink and downlink
 * session meters, the uplink session, its termination, the buffering downlink session and its termination
 * (8 entities, 10 P4Runtime updates); its deletion is the DELETE of the same entities. Not a unit test, and
 * no timing is asserted: run with
 * {@code java -cp <test classpath> org.hupf.standalone.p4rt.UpfEntityEncoderBench [profile] [sessions] [rounds]}.
 */
public final class UpfEntityEncoderBench {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final long KBPS_UL = 100_000;
    private static final long KBPS_DL = 200_000;

    private UpfEntityEncoderBench() {
    }

    /** An encoding of a whole session's entities into one write's updates. */
    private interface Encoding {
        void encode(UpfEntity e, boolean delete, EncodedUpdates out) throws UpfProgrammableException;
    }

    public static void main(String[] args) throws Exception {
        String profile = args.length > 0 ? args[0] : "sw";
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        UpfEntityEncoder encoder = new UpfEntityEncoder(new UpfTranslator(Pipelines.model(profile)),
                                                        new PiEncoder(P4InfoIndex.parse(Pipelines.p4infoUrl(profile))));
        List<List<UpfEntity>> all = new ArrayList<>(sessions);
        for (int i = 0; i < sessions; i++) {
            all.add(session(i));
        }
        Encoding viaPi = (e, delete, out) -> {
            for (Update u : encoder.viaPi(e, delete)) {
                out.add(u);
            }
        };
        Encoding direct = (e, delete, out) -> {
            if (!encoder.direct(e, delete, out)) {
                throw new IllegalStateException("declined " + e);
            }
        };
        for (boolean delete : new boolean[]{false, true}) {
            String phase = delete ? "delete" : "establish";
            double[][] pi = new double[rounds][];
            double[][] straight = new double[rounds][];
            for (int r = -3; r < rounds; r++) {  // 3 rounds of warm-up each
                double[] a = round(viaPi, all, delete);
                double[] b = round(direct, all, delete);
                if (r >= 0) {
                    pi[r] = a;
                    straight[r] = b;
                }
            }
            report(profile, phase, "pi", pi);
            report(profile, phase, "direct", straight);
        }
    }

    /**
     * The entities of the template's establishment for the i-th session: its own TEID and UE address, cells
     * within both profiles (hw: 4096 session meter cells, 8192 counter cells).
     */
    static List<UpfEntity> session(int i) {
        Ip4Address ue = Ip4Address.valueOf(0x0AFA0000 + i);
        int ulMeter = 1 + 2 * (i % 2000);
        int dlMeter = ulMeter + 1;
        int ulCounter = 2 * (i % 4000);
        int dlCounter = ulCounter + 1;
        long ulRate = KBPS_UL * 125;
        long dlRate = KBPS_DL * 125;
        return List.of(
                UpfCounter.builder().withCellId(ulCounter).build(),
                UpfCounter.builder().withCellId(dlCounter).build(),
                UpfMeter.builder().setSession().setCellId(ulMeter).setPeakBand(ulRate, ulRate / 10).build(),
                UpfMeter.builder().setSession().setCellId(dlMeter).setPeakBand(dlRate, dlRate / 10).build(),
                UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(i + 1L).withUeAddress(ue)
                        .setSessionMeterIdx(ulMeter).build(),
                UpfTerminationUplink.builder().withUeSessionId(ue).withCounterId(ulCounter).withTrafficClass(1)
                        .build(),
                UpfSessionDownlink.builder().withUeAddress(ue).needsBuffering(true).withSessionMeterIdx(dlMeter)
                        .build(),
                UpfTerminationDownlink.builder().withUeSessionId(ue).withCounterId(dlCounter).withTeid(0).withQfi(9)
                        .withTrafficClass(1).build());
    }

    /**
     * {CPU ns per session, bytes allocated per session, updates per session}: the thread's CPU time and
     * allocation, which other processes' load on the machine leaves alone (unlike elapsed time).
     */
    private static double[] round(Encoding encoding, List<List<UpfEntity>> sessions, boolean delete)
            throws UpfProgrammableException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long updates = 0;
        long bytes0 = threads.getThreadAllocatedBytes(thread);
        long t0 = threads.getCurrentThreadCpuTime();
        for (List<UpfEntity> s : sessions) {
            EncodedUpdates write = new EncodedUpdates(s.size() * 64);
            for (UpfEntity e : s) {
                encoding.encode(e, delete, write);
            }
            updates += write.size();
        }
        long ns = threads.getCurrentThreadCpuTime() - t0;
        long bytes = threads.getThreadAllocatedBytes(thread) - bytes0;
        return new double[]{(double) ns / sessions.size(), (double) bytes / sessions.size(),
                (double) updates / sessions.size()};
    }

    private static void report(String profile, String phase, String path, double[][] rounds) {
        double[] ns = Arrays.stream(rounds).mapToDouble(r -> r[0]).sorted().toArray();
        double[] bytes = Arrays.stream(rounds).mapToDouble(r -> r[1]).sorted().toArray();
        System.out.printf("%s %-9s %-6s: %3.0f updates/session, %6.0f CPU ns/session (median of %d; min %.0f, max %.0f),"
                                  + " %6.0f bytes/session%n", profile, phase, path, rounds[0][2], ns[ns.length / 2],
                          ns.length, ns[0], ns[ns.length - 1], bytes[bytes.length / 2]);
    }
}
