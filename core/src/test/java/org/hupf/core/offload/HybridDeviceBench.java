package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.api.WriteResult;
import org.onlab.packet.Ip4Address;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The hybrid device's own share of the device writer's work, without the session core, the PFCP answers or a
 * device's encoding: the bookkeeping of {@link HybridUpfDevice}, its {@link OffloadManager} and the
 * {@link LedgeredBackend} for the updates of tests/pfcp/bench_control_plane.py's requests (as the session core
 * sends them: an establishment's counter resets, meters, terminations and sessions; a modification's downlink
 * termination and session overwritten towards a gNB's tunnel peer; a deletion's entries and meter resets), written
 * in bursts of 16 requests to a backend that answers at once, with the final counts of the terminations it deleted
 * (as hupf-backend does). CPU time and bytes allocated per request on the calling thread, which writes the
 * bursts, made before the clock starts. Not a unit
 * test, and no timing is asserted: run with {@code java -cp <core test classpath>
 * org.hupf.core.offload.HybridDeviceBench [sessions] [rounds]}; another build's core runs it with its classes after
 * this class's on the class path.
 */
public final class HybridDeviceBench {

    private static final String[] PHASES = {"establish", "modify", "delete"};
    private static final int BURST = 16;
    private static final int WARMUP_ROUNDS = 3;
    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final UpfGtpTunnelPeer GNB = UpfGtpTunnelPeer.builder().withTunnelPeerId(1).withSrcAddr(N3)
            .withDstAddr(Ip4Address.valueOf("192.168.1.10")).withSrcPort(UpfGtpTunnelPeer.GTPU_PORT).build();

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final BatchUpfDevice device;

    private HybridDeviceBench() throws Exception {
        HupfUpfDevice backend = new LedgeredBackend("bench", new AnsweringBackend(), new BackendUsageLedger(), true);
        device = (BatchUpfDevice) ControlPlane.hybrid(List.of(backend), null, OffloadPolicy.builder().build(),
                                                      System::currentTimeMillis).device;
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        HybridDeviceBench bench = new HybridDeviceBench();
        double[][][] measured = new double[PHASES.length][rounds][];
        for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
            for (int p = 0; p < PHASES.length; p++) {
                double[] m = bench.phase(p, sessions);
                if (r >= 0) {
                    measured[p][r] = m;
                }
            }
        }
        for (int p = 0; p < PHASES.length; p++) {
            double[] cpu = new double[rounds];
            double[] bytes = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                cpu[r] = measured[p][r][0];
                bytes[r] = measured[p][r][1];
            }
            System.out.printf("%-9s hybrid device CPU ns/request %s   bytes/request %s%n", PHASES[p], spread(cpu),
                              spread(bytes));
        }
    }

    private static String spread(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format("%,.0f (%,.0f-%,.0f)", s[s.length / 2], s[0], s[s.length - 1]);
    }

    /** Writes one phase's requests for n sessions, a burst at a time: {CPU ns, bytes} per request. */
    private double[] phase(int phase, int n) {
        List<List<DeviceUpdate>> bursts = new ArrayList<>();
        List<DeviceUpdate> burst = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (phase == 0) {
                establishment(i, burst);
            } else if (phase == 1) {
                modification(i, burst);
            } else {
                deletion(i, burst);
            }
            if ((i + 1) % BURST == 0 || i == n - 1) {
                bursts.add(List.copyOf(burst));
                burst.clear();
            }
        }
        long thread = Thread.currentThread().getId();
        long bytes0 = threads.getThreadAllocatedBytes(thread);
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (List<DeviceUpdate> b : bursts) {
            WriteResult r = device.write(b).join();
            if (!r.ok()) {
                throw new IllegalStateException("refused: " + r.firstFailure());
            }
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        long bytes = threads.getThreadAllocatedBytes(thread) - bytes0;
        return new double[]{(double) cpu / n, (double) bytes / n};
    }

    private static Ip4Address ue(int i) {
        return Ip4Address.valueOf(0x0A000001 + i);
    }

    private static void establishment(int i, List<DeviceUpdate> out) {
        Ip4Address ue = ue(i);
        out.add(DeviceUpdate.apply(UpfCounter.builder().withCellId(2 * i + 1).build()));
        out.add(DeviceUpdate.apply(UpfCounter.builder().withCellId(2 * i + 2).build()));
        out.add(DeviceUpdate.apply(UpfMeter.builder().setSession().setCellId(2 * i + 1)
                                           .setPeakBand(12_500_000, 125_000).build()));
        out.add(DeviceUpdate.apply(UpfMeter.builder().setSession().setCellId(2 * i + 2)
                                           .setPeakBand(25_000_000, 250_000).build()));
        out.add(DeviceUpdate.apply(uplinkTermination(ue, i)));
        out.add(DeviceUpdate.apply(downlinkTermination(ue, i, 0)));
        out.add(DeviceUpdate.apply(uplinkSession(ue, i)));
        out.add(DeviceUpdate.apply(downlinkSession(ue, i, 0)));
    }

    private static void modification(int i, List<DeviceUpdate> out) {
        if (i == 0) {
            out.add(DeviceUpdate.apply(GNB));
        }
        Ip4Address ue = ue(i);
        out.add(DeviceUpdate.overwrite(downlinkTermination(ue, i, 0x100 + i)));
        out.add(DeviceUpdate.overwrite(downlinkSession(ue, i, GNB.tunPeerId())));
    }

    private static void deletion(int i, List<DeviceUpdate> out) {
        Ip4Address ue = ue(i);
        out.add(DeviceUpdate.remove(downlinkSession(ue, i, GNB.tunPeerId())));
        out.add(DeviceUpdate.remove(uplinkSession(ue, i)));
        out.add(DeviceUpdate.remove(downlinkTermination(ue, i, 0x100 + i)));
        out.add(DeviceUpdate.remove(uplinkTermination(ue, i)));
        out.add(DeviceUpdate.apply(UpfMeter.resetMeter(UpfMeter.Type.SESSION, 2 * i + 1)));
        out.add(DeviceUpdate.apply(UpfMeter.resetMeter(UpfMeter.Type.SESSION, 2 * i + 2)));
    }

    private static UpfTerminationUplink uplinkTermination(Ip4Address ue, int i) {
        return UpfTerminationUplink.builder().withUeSessionId(ue).withCounterId(2 * i + 1).build();
    }

    private static UpfTerminationDownlink downlinkTermination(Ip4Address ue, int i, int teid) {
        return UpfTerminationDownlink.builder().withUeSessionId(ue).withCounterId(2 * i + 2).withTeid(teid)
                .withQfi((byte) 9).build();
    }

    private static UpfSessionUplink uplinkSession(Ip4Address ue, int i) {
        return UpfSessionUplink.builder().withUeAddress(ue).setTunDstAddr(N3).setTeid(10 + i)
                .setSessionMeterIdx(2 * i + 1).build();
    }

    private static UpfSessionDownlink downlinkSession(Ip4Address ue, int i, int peer) {
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(ue).withSessionMeterIdx(2 * i + 2);
        return (peer == 0 ? b.needsBuffering(true) : b.withGtpTunnelPeerId(peer)).build();
    }

    /** A backend that takes every write at once and answers the final counts of the terminations it deleted. */
    private static final class AnsweringBackend implements HupfUpfDevice, BatchUpfDevice {

        @Override
        public CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
            int[] cells = new int[updates.size()];
            int n = 0;
            for (DeviceUpdate u : updates) {
                if (u.kind() == DeviceUpdate.Kind.DELETE && u.entity() instanceof UpfTerminationUplink) {
                    cells[n++] = ((UpfTerminationUplink) u.entity()).counterId();
                } else if (u.kind() == DeviceUpdate.Kind.DELETE && u.entity() instanceof UpfTerminationDownlink) {
                    cells[n++] = ((UpfTerminationDownlink) u.entity()).counterId();
                }
            }
            Arrays.sort(cells, 0, n);
            CellCounts counts = new CellCounts(n);
            for (int i = 0; i < n; i++) {
                counts.add(cells[i], 0, 0, 0, 0);
            }
            return CompletableFuture.completedFuture(WriteResult.ok(updates.size()).withFinalCells(counts));
        }

        @Override
        public void apply(UpfEntity entity) {
            throw new UnsupportedOperationException("the hybrid device writes in batches");
        }

        @Override
        public void delete(UpfEntity entity) {
            throw new UnsupportedOperationException("the hybrid device writes in batches");
        }

        @Override
        public Collection<? extends UpfEntity> readAll(UpfEntityType type) {
            throw new UnsupportedOperationException("nothing to adopt");
        }

        @Override
        public UpfCounter readCounter(int cellId) {
            throw new UnsupportedOperationException("every deletion's final counts come with its write");
        }

        @Override
        public Collection<UpfCounter> readCounters(long maxCounterId) {
            throw new UnsupportedOperationException("no poll runs");
        }

        @Override
        public long tableSize(UpfEntityType type) {
            return 1L << 30;
        }

        @Override
        public void deleteAll(UpfEntityType type) {
            throw new UnsupportedOperationException("the hybrid device writes in batches");
        }
    }
}
