package org.hupf.standalone.p4rt;

import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.upf.Pipelines;
import org.onlab.packet.Ip4Address;
import org.onosproject.p4runtime.model.P4InfoParser;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * CPU time per Write over hupf-backend's local write channel, on both sides: the writing thread's (encoding, the
 * frame, its system calls) and hupf-backend's threads but its lcores' (the agent's wake-up, reads, apply, commit and
 * answer). Each round writes frames of {@code sessions} uplink terminations and deletes them again (final counts
 * answered), through {@link P4RuntimeUpfDevice} as the runner's device writer does; the cost of a Write is what the
 * chain pays per burst. Not a unit test, and no timing is asserted: run with
 * {@code java -cp <test classpath> org.hupf.standalone.p4rt.LocalWriteChannelBench <hupf-backend> [frames] [sessions]
 * [rounds]}.
 */
public final class LocalWriteChannelBench {

    private static final long TICK_NS = 10_000_000; // USER_HZ 100: /proc's clock ticks

    private LocalWriteChannelBench() {
    }

    public static void main(String[] args) throws Exception {
        String backend = args[0];
        int frames = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        int sessions = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        Path dir = Files.createTempDirectory("hupf-local-bench-");
        Path socket = dir.resolve("backend.sock");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process process = new ProcessBuilder(backend, "--grpc-addr", "127.0.0.1:" + port, "--device-id", "1",
                                             "--sessions", "1024", "--mem", "1024", "--port", "1=null",
                                             "--port", "2=null", "--local-writes", socket.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("backend.log").toFile()).start();
        try {
            while (!Files.exists(socket)) {
                Thread.sleep(100);
            }
            URL info = Pipelines.p4infoUrl("sw");
            P4InfoIndex index = P4InfoIndex.parse(info);
            P4rtClient client = P4rtClient.connect("127.0.0.1", port, 1, 1);
            client.setPipeline(index.p4info(), new byte[0]);
            client.useLocalWrites(socket);
            P4RuntimeUpfDevice device = new P4RuntimeUpfDevice(client, index, P4InfoParser.parse(info));
            run(device, process.pid(), frames, sessions, rounds);
            client.close();
        } finally {
            process.destroy();
        }
    }

    private static void run(P4RuntimeUpfDevice device, long backendPid, int frames, int sessions, int rounds)
            throws IOException {
        List<DeviceUpdate> inserts = new ArrayList<>();
        List<DeviceUpdate> deletes = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            UpfTerminationUplink t = UpfTerminationUplink.builder().withUeSessionId(Ip4Address.valueOf(0x0a000000 + i))
                    .withCounterId(i).withTrafficClass(1).build();
            inserts.add(DeviceUpdate.apply(t));
            deletes.add(DeviceUpdate.remove(t));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = -2; round < rounds; round++) {
            long cpu0 = threads.getCurrentThreadCpuTime();
            long backend0 = agentTicks(backendPid);
            long wall0 = System.nanoTime();
            for (int f = 0; f < frames; f++) {
                if (!device.write(inserts).join().ok() || !device.write(deletes).join().ok()) {
                    throw new IllegalStateException("a Write failed");
                }
            }
            double writes = 2.0 * frames;
            System.out.printf("%s writer_cpu_us_per_write=%.2f agent_cpu_us_per_write=%.2f wall_us_per_write=%.2f%n",
                              round < 0 ? "warm-up" : "round " + round,
                              (threads.getCurrentThreadCpuTime() - cpu0) / writes / 1e3,
                              (agentTicks(backendPid) - backend0) * TICK_NS / writes / 1e3,
                              (System.nanoTime() - wall0) / writes / 1e3);
        }
    }

    /** User and system clock ticks of a process's threads but its lcores (rte-*), which poll and nap on their own. */
    private static long agentTicks(long pid) throws IOException {
        long ticks = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat = Files.readString(task.resolve("stat"));
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (comm.startsWith("rte-")) {
                    continue;
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            }
        }
        return ticks;
    }
}
