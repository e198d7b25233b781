package org.hupf.standalone.lab;

import org.hupf.api.OffloadPolicy;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.offload.OffloadManager;
import org.hupf.core.offload.OffloadSession;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Measures one offload counter poll over N tracked sessions (two counter cells each) on the in-memory
 * backend, backend only: the bulk read of the cells plus the manager's work, wall-clock and CPU time of
 * the polling thread (the CPU time is what a loaded machine does not inflate). Prints one line per N.
 *
 * <p>Usage: {@code PollBench N...} (see {@code make bench-poll}).
 */
public final class PollBench {

    private static final int WARMUP = 3;
    private static final int POLLS = 7;

    private PollBench() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("| sessions | poll p50 ms | poll max ms | poll CPU p50 ms | heap after GC MiB (manager + device) |");
        System.out.println("|---:|---:|---:|---:|---:|");
        for (String a : args) {
            run(Integer.parseInt(a));
        }
    }

    private static void run(int n) throws Exception {
        InMemoryUpfDevice backend = new InMemoryUpfDevice("bench", n, 2L * n, 1024);
        long[] clock = {0};
        OffloadManager m = new OffloadManager(backend, null, OffloadPolicy.builder().build(), () -> clock[0]);
        for (int i = 0; i < n; i++) {
            Ip4Address ue = Ip4Address.valueOf(0x0A000000 + i);
            m.track(OffloadSession.of(ue, 1, List.of(9), List.of(
                    UpfTerminationUplink.builder().withUeSessionId(ue).withApplicationId(0).withCounterId(2 * i)
                            .withTrafficClass(0).withAppMeterIdx(0).build(),
                    UpfTerminationDownlink.builder().withUeSessionId(ue).withApplicationId(0)
                            .withCounterId(2 * i + 1).withTeid(i + 1).withQfi(9).withTrafficClass(0)
                            .withAppMeterIdx(0).build())));
            backend.setCounter(UpfCounter.builder().withCellId(2 * i).setIngress(1, 100).setEgress(1, 100).build());
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] ms = new long[POLLS];
        long[] cpuMs = new long[POLLS];
        for (int p = 0; p < WARMUP + POLLS; p++) {
            clock[0] += 1000;
            long t0 = System.nanoTime();
            long c0 = threads.getCurrentThreadCpuTime();
            m.poll();
            if (p >= WARMUP) {
                ms[p - WARMUP] = (System.nanoTime() - t0) / 1_000_000;
                cpuMs[p - WARMUP] = (threads.getCurrentThreadCpuTime() - c0) / 1_000_000;
            }
        }
        if (m.metrics().swBytes() != 100L * n) {
            throw new IllegalStateException("poll measured " + m.metrics().swBytes() + " bytes, expected " + 100L * n);
        }
        Arrays.sort(ms);
        Arrays.sort(cpuMs);
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long heapMib = (rt.totalMemory() - rt.freeMemory()) >> 20;
        System.out.println(String.format(Locale.ROOT, "| %,d | %d | %d | %d | %d |", m.metrics().sessions(),
                                         ms[POLLS / 2], ms[POLLS - 1], cpuMs[POLLS / 2], heapMib));
    }
}
