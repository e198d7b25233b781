package org.hupf.core.pfcp;

import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.api.OffloadPolicy;
import org.hupf.core.offload.BackendUsageLedger;
import org.hupf.core.offload.ControlPlane;
import org.hupf.core.offload.FakeUpfDevice;
import org.hupf.core.offload.LedgeredBackend;
import org.hupf.core.pfcp.codec.Ie;
import org.hupf.core.pfcp.codec.IeFields;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.hupf.core.pfcp.message.BitRate;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.OuterHeaderCreation;
import org.hupf.core.pfcp.message.UeIpAddress;
import org.hupf.core.pfcp.message.Volume;
import org.hupf.core.session.SessionManager;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.onlab.packet.Ip4Address;

import java.lang.management.ManagementFactory;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The PFCP thread's share of a request: CPU time and heap allocated per request by what {@code hupf-pfcp} does
 * with a datagram up to the device writer's queue (header, retransmission check, decoding, procedure, the session
 * core's work before the submit), measured on the calling thread, whose CPU and allocation other processes' load
 * leaves alone. The device writer's thread (the in-memory device's write, the settlement, the answer's encoding)
 * runs beside it and is reported apart, its CPU and bytes from the first request's begin to the last answer. The
 * requests are tests/pfcp/bench_control_plane.py's: its establishment (uplink PDR with CHOOSE F-TEID, downlink
 * PDR, two FARs, a URR, a QER), its modification (the downlink FAR forwards to a gNB) and its deletion. Not a unit test, and no timing is asserted: run with
 * {@code java -cp <core test classpath> org.hupf.core.pfcp.PfcpThreadBench [sessions] [rounds] [ledger|hybrid]};
 * with {@code ledger} the device is the chain's backend as the writer sees it, a {@link LedgeredBackend} over a
 * device whose writes return the final counts of the cells they remove (as hupf-backend's agent does); with
 * {@code hybrid} the writer writes that backend through the hybrid device and its offload manager without a switch,
 * as the standalone runner's writer does. The same class
 * runs against another build's core by putting that build's classes first on the class path.
 */
public final class PfcpThreadBench {

    private static final InetSocketAddress SMF = new InetSocketAddress("127.0.0.1", 8805);
    private static final String[] PHASES = {"establish", "modify", "delete"};
    private static final String WRITER = "hupf-device-writer";
    private static final int WARMUP_ROUNDS = 3;

    private final PfcpHandler handler;
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private int seq;
    private long cpSeids;

    PfcpThreadBench(int sessions, String mode) throws Exception {
        Ip4Address n3 = Ip4Address.valueOf("192.168.0.1");
        HupfUpfDevice backend = mode.isEmpty() ? new InMemoryUpfDevice("bench", 4L * sessions)
                : new LedgeredBackend("bench", FakeUpfDevice.withFinalCounts(4L * sessions), new BackendUsageLedger(),
                                      true);
        if (!mode.isEmpty() && !mode.equals("ledger") && !mode.equals("hybrid")) {
            throw new IllegalArgumentException("mode: ledger or hybrid, not " + mode);
        }
        HupfUpfDevice device = mode.equals("hybrid") ? ControlPlane.hybrid(List.of(backend), null,
                OffloadPolicy.builder().build(), System::currentTimeMillis).device : backend;
        SessionManager manager = new SessionManager(new InMemorySessionStore(),
                                                    new SessionTranslator(n3, 0, Map.of(), 10),
                                                    new ResourcePool(4 * sessions, 4 * sessions), () -> List.of(device),
                                                    n3);
        PfcpConfig cfg = new PfcpConfig("127.0.0.1", 0, "127.0.0.9", Set.of("127.0.0.1"), 0, 3000, 3, 60_000, 1000);
        handler = new PfcpHandler(cfg, manager, new UsageReporter(manager, System::currentTimeMillis), 1,
                                  new PfcpStats());
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        PfcpThreadBench bench = new PfcpThreadBench(sessions, args.length > 2 ? args[2] : "");
        bench.associate();
        double[][][] measured = new double[PHASES.length][rounds][];
        for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
            double[][] round = bench.round(sessions);
            if (r >= 0) {
                for (int p = 0; p < PHASES.length; p++) {
                    measured[p][r] = round[p];
                }
            }
        }
        for (int p = 0; p < PHASES.length; p++) {
            report(PHASES[p], measured[p]);
        }
    }

    void associate() {
        byte[] setup = PfcpCodec.encode(PfcpMessage.node(MessageType.ASSOCIATION_SETUP_REQUEST, ++seq, List.of(
                IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")), Ie.u32(IeType.RECOVERY_TIME_STAMP, 7))));
        handler.handle(SMF, setup, setup.length, System.currentTimeMillis());
    }

    /**
     * Establishes {@code n} sessions and keeps them, checking each answer accepted the request.
     *
     * @param n sessions
     * @throws Exception a request refused or not built
     */
    void establish(int n) throws Exception {
        for (int at = 0; at < n; at += 10_000) {
            List<byte[]> establishments = new ArrayList<>();
            for (int i = at; i < Math.min(n, at + 10_000); i++) {
                establishments.add(PfcpCodec.encode(establishment(++cpSeids, i)));
            }
            measure(establishments, new ArrayList<>(establishments.size()));
        }
    }

    /**
     * Establishes, modifies and deletes {@code n} sessions: {CPU ns, bytes} per request of each phase on this
     * thread, then on the writer's.
     */
    private double[][] round(int n) throws Exception {
        List<byte[]> establishments = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            establishments.add(PfcpCodec.encode(establishment(++cpSeids, i)));
        }
        double[][] out = new double[PHASES.length][];
        List<byte[]> answers = new ArrayList<>(n);
        out[0] = measure(establishments, answers);
        List<byte[]> modifications = new ArrayList<>(n);
        List<byte[]> deletions = new ArrayList<>(n);
        for (byte[] answer : answers) {
            PfcpMessage m = PfcpCodec.decode(answer, answer.length);
            long upSeid = IeFields.F_SEID.require(m).seid;
            modifications.add(PfcpCodec.encode(modification(upSeid)));
            deletions.add(PfcpCodec.encode(PfcpMessage.session(MessageType.SESSION_DELETION_REQUEST, upSeid, ++seq,
                                                               List.of())));
        }
        out[1] = measure(modifications, new ArrayList<>(n));
        out[2] = measure(deletions, new ArrayList<>(n));
        return out;
    }

    /**
     * Takes each datagram as the PFCP thread does (a copy of the received bytes, the header, {@code begin}); then,
     * outside the measurement, waits for every answer and checks it accepted the request.
     */
    private double[] measure(List<byte[]> datagrams, List<byte[]> answers) throws Exception {
        long thread = Thread.currentThread().getId();
        long writer = writerThread();
        List<PfcpHandler.Handling> started = new ArrayList<>(datagrams.size());
        long writerCpu0 = threads.getThreadCpuTime(writer);
        long writerBytes0 = threads.getThreadAllocatedBytes(writer);
        long bytes0 = threads.getThreadAllocatedBytes(thread);
        long cpu0 = threads.getCurrentThreadCpuTime();
        long now = System.currentTimeMillis();
        for (byte[] received : datagrams) {
            byte[] datagram = Arrays.copyOf(received, received.length);
            PfcpCodec.Header h = PfcpCodec.header(datagram, datagram.length);
            started.add(handler.begin(SMF, h, datagram, datagram.length, now));
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        long bytes = threads.getThreadAllocatedBytes(thread) - bytes0;
        for (PfcpHandler.Handling handling : started) {
            if (handling.response != null) {
                handling.response.join();
            }
        }
        long writerCpu = threads.getThreadCpuTime(writer) - writerCpu0;
        long writerBytes = threads.getThreadAllocatedBytes(writer) - writerBytes0;
        for (PfcpHandler.Handling handling : started) {
            byte[] answer = handling.response == null ? handling.answer
                    : handler.finish(handling, handling.response.join());
            PfcpMessage m = PfcpCodec.decode(answer, answer.length);
            if (IeFields.CAUSE.require(m) != 1) {
                throw new IllegalStateException("refused: " + m);
            }
            answers.add(answer);
        }
        int n = datagrams.size();
        return new double[]{(double) cpu / n, (double) bytes / n, (double) writerCpu / n, (double) writerBytes / n};
    }

    private static long writerThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(WRITER)) {
                return t.getId();
            }
        }
        throw new IllegalStateException("no thread named " + WRITER);
    }

    private PfcpMessage establishment(long cpSeid, int i) throws Exception {
        Inet4Address ue = (Inet4Address) InetAddress.getByAddress(Ip4Address.valueOf(0x0A000001 + i).toOctets());
        Ie ulPdr = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 1), Ie.u32(IeType.PRECEDENCE, 100),
                              Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, 0),
                                         IeFields.F_TEID.encode(new FTeid(0, null, true, null)),
                                         IeFields.NETWORK_INSTANCE.encode("internet"),
                                         IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(ue, false, false))),
                              Ie.u8(IeType.OUTER_HEADER_REMOVAL, 0), Ie.u32(IeType.FAR_ID, 1),
                              Ie.u32(IeType.URR_ID, 1), Ie.u32(IeType.QER_ID, 1));
        Ie dlPdr = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 2), Ie.u32(IeType.PRECEDENCE, 100),
                              Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, 1),
                                         IeFields.UE_IP_ADDRESS.encode(new UeIpAddress(ue, true, false))),
                              Ie.u32(IeType.FAR_ID, 2), Ie.u32(IeType.URR_ID, 1), Ie.u32(IeType.QER_ID, 1));
        Ie ulFar = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, 0x02),
                              Ie.grouped(IeType.FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 1)));
        Ie dlFar = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 2), Ie.u8(IeType.APPLY_ACTION, 0x0c));
        Ie urr = Ie.grouped(IeType.CREATE_URR, Ie.u32(IeType.URR_ID, 1), Ie.u8(IeType.MEASUREMENT_METHOD, 0x02),
                            IeFields.REPORTING_TRIGGERS.encode(0x02),
                            IeFields.VOLUME_THRESHOLD.encode(new Volume(1_000_000_000_000L, null, null)));
        Ie qer = Ie.grouped(IeType.CREATE_QER, Ie.u32(IeType.QER_ID, 1), Ie.u8(IeType.GATE_STATUS, 0),
                            IeFields.MBR.encode(new BitRate(100_000, 200_000)), Ie.u8(IeType.QFI, 9));
        FSeid cp = new FSeid(cpSeid, (Inet4Address) InetAddress.getByName("127.0.0.1"), null);
        return PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, ++seq, List.of(
                IeFields.NODE_ID.encode(NodeId.of("127.0.0.1")), IeFields.F_SEID.encode(cp), ulPdr, dlPdr, ulFar,
                dlFar, urr, qer));
    }

    private PfcpMessage modification(long upSeid) throws Exception {
        Inet4Address gnb = (Inet4Address) InetAddress.getByName("192.168.1.10");
        return PfcpMessage.session(MessageType.SESSION_MODIFICATION_REQUEST, upSeid, ++seq, List.of(
                Ie.grouped(IeType.UPDATE_FAR, Ie.u32(IeType.FAR_ID, 2), Ie.u8(IeType.APPLY_ACTION, 0x02),
                           Ie.grouped(IeType.UPDATE_FORWARDING_PARAMETERS, Ie.u8(IeType.DESTINATION_INTERFACE, 0),
                                      IeFields.OUTER_HEADER_CREATION.encode(
                                              OuterHeaderCreation.gtpuIpv4(0x100 + upSeid % 0xFFFF, gnb))))));
    }

    /**
     * Two lines per phase, the PFCP thread's and the writer's: CPU ns and bytes per request, median (min-max) over
     * the measured rounds.
     */
    private static void report(String phase, double[][] rounds) {
        for (int thread = 0; thread < 2; thread++) {
            double[] cpu = new double[rounds.length];
            double[] bytes = new double[rounds.length];
            for (int r = 0; r < rounds.length; r++) {
                cpu[r] = rounds[r][2 * thread];
                bytes[r] = rounds[r][2 * thread + 1];
            }
            System.out.printf("%-9s %-6s CPU ns/request %s   bytes/request %s%n", phase,
                              thread == 0 ? "pfcp" : "writer", spread(cpu), spread(bytes));
        }
    }

    private static String spread(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format("%,.0f (%,.0f-%,.0f)", s[s.length / 2], s[0], s[s.length - 1]);
    }
}
