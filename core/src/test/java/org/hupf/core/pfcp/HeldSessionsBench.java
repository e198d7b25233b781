package org.hupf.core.pfcp;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import javax.management.ObjectName;

/**
 * The heap that sessions held cost the session core: establishes N sessions through the PFCP handler as
 * {@link PfcpThreadBench} does (the standalone runner's writer, through the hybrid device and its offload manager,
 * over a ledgered backend) and keeps them; prints the heap after a full GC before and after, the bytes per session,
 * and the largest classes of the heap then ({@code GC.class_histogram}). Not a unit test: run with
 * {@code java -cp <core test classpath> org.hupf.core.pfcp.HeldSessionsBench [sessions] [classes shown]}.
 */
public final class HeldSessionsBench {

    private HeldSessionsBench() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int shown = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        PfcpThreadBench bench = new PfcpThreadBench(sessions, "hybrid");
        bench.associate();
        long before = heapAfterGc();
        bench.establish(sessions);
        long after = heapAfterGc();
        System.out.printf(Locale.ROOT, "sessions %,d  heap after GC %.1f -> %.1f MiB  %,d bytes per session%n",
                          sessions, before / 1048576.0, after / 1048576.0, (after - before) / sessions);
        String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[]{new String[0]}, new String[]{String[].class.getName()});
        histogram.lines().limit(shown + 3L).forEach(System.out::println);
        System.exit(0);
    }

    private static long heapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}
