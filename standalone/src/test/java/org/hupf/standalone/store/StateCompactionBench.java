package org.hupf.standalone.store;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How the state's file fares while changes come and once they stop, with only the maintenance compacting (as in the
 * host): sessions kept, then rounds of establish/delete cycles; during each round the chunks and the file's size
 * (sampled every 250 changes), after it the time until the file no longer changes for twice the retention, what it
 * then holds, and the CPU time the maintenance thread used in the round. Not a unit test: run
 * {@code java -cp <test classpath> org.hupf.standalone.store.StateCompactionBench [kept] [cycles] [rounds]}.
 */
public final class StateCompactionBench {

    private static final long SYNC_MILLIS = 100;

    private StateCompactionBench() {
    }

    public static void main(String[] args) throws Exception {
        int kept = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 3_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path dir = Files.createTempDirectory("hupf-compaction-bench").resolve("state");
        Path file = dir.resolve(DurableState.FILE);
        try (DurableState s = DurableState.open(dir, SYNC_MILLIS, 3_900_000_000L)) {
            for (long i = 1; i <= kept; i++) {
                s.sessions().put(DurableStateTest.session(spread(i)));
            }
            for (int round = 1; round <= rounds; round++) {
                long cpu0 = maintenanceCpuNanos();
                List<Long> chunks = new ArrayList<>();
                List<Long> bytes = new ArrayList<>();
                for (long i = 1; i <= cycles; i++) {
                    long seid = spread(kept + (long) round * cycles + i);
                    s.sessions().put(DurableStateTest.session(seid));
                    s.sessions().remove(seid);
                    if (i % 250 == 0) {
                        chunks.add(s.chunks());
                        bytes.add(Files.size(file));
                    }
                }
                long t0 = System.nanoTime();
                long settled = settle(s, file);
                System.out.printf("round %d: while changing chunks %s, MB %s; settled in %.1f s: %d chunks, %.2f MB;"
                                          + " maintenance CPU %.2f s%n", round, spread(chunks, 1),
                                  spread(bytes, 1 << 20), (settled - t0) / 1e9, s.chunks(),
                                  Files.size(file) / (double) (1 << 20), (maintenanceCpuNanos() - cpu0) / 1e9);
            }
        }
    }

    /** Waits until neither the chunks nor the size changed for twice the retention; returns when they last did. */
    private static long settle(DurableState s, Path file) throws Exception {
        long quietNanos = 2_000_000L * DurableState.retentionMillis(SYNC_MILLIS);
        String last = "";
        long changed = System.nanoTime();
        while (System.nanoTime() - changed < quietNanos) {
            String now = s.chunks() + "/" + Files.size(file);
            if (!now.equals(last)) {
                last = now;
                changed = System.nanoTime();
            }
            Thread.sleep(50);
        }
        return changed;
    }

    private static long maintenanceCpuNanos() {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("hupf-state-maintenance"))
                .mapToLong(t -> Math.max(0, cpu.getThreadCpuTime(t.getId()))).sum();
    }

    /** min / median / max, divided by {@code unit}. */
    private static String spread(List<Long> v, long unit) {
        List<Long> sorted = new ArrayList<>(v);
        Collections.sort(sorted);
        return String.format("%.1f / %.1f / %.1f", sorted.get(0) / (double) unit,
                             sorted.get(sorted.size() / 2) / (double) unit,
                             sorted.get(sorted.size() - 1) / (double) unit);
    }

    /** Spread over the key space, as the manager's random UP SEIDs are. */
    private static long spread(long i) {
        return i * 0x9E3779B97F4A7C15L & Long.MAX_VALUE;
    }
}
