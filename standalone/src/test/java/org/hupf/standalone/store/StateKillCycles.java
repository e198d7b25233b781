package org.hupf.standalone.store;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.store.KeptResponse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Kills a process churning a {@link DurableState} (its real compaction running) with -9 at random moments and
 * reopens the state each time, every map iterated to its end: a state that does not reopen loses every session
 * (issue #34, "Chunk not found" after a kill -9).
 *
 * <p>{@code StateKillCycles CYCLES SESSIONS DIR [SEED]} runs the cycles and prints how many reopens failed (exit 1
 * if any), each failed file kept beside DIR; {@code StateKillCycles churn DIR SESSIONS} is the killed writer.
 */
public final class StateKillCycles {

    /** The host's default fsync period ({@code --state-sync-ms}). */
    static final long SYNC_MILLIS = 100;
    private static final int KEPT_RESPONSES = 5_000;

    private StateKillCycles() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("churn")) {
            churn(Path.of(args[1]), Integer.parseInt(args[2]));
            return;
        }
        int cycles = Integer.parseInt(args[0]);
        int sessions = Integer.parseInt(args[1]);
        Path dir = Path.of(args[2]);
        Random random = new Random(args.length > 3 ? Long.parseLong(args[3]) : System.nanoTime());
        int failed = run(cycles, sessions, dir, random);
        System.out.println("reopens failed: " + failed + " of " + cycles);
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * Runs the kill and reopen cycles; a state that fails to reopen is kept (DIR-failed-N) and a fresh one started.
     *
     * @return the reopens that failed
     */
    static int run(int cycles, int sessions, Path dir, Random random) throws Exception {
        int failed = 0;
        long held = 0;
        for (int cycle = 1; cycle <= cycles; cycle++) {
            long killAfterMillis = 200 + random.nextInt(3_000);
            long changes = killWriter(dir, sessions, killAfterMillis);
            long atLeast = Math.min(sessions, held + changes);
            String problem = reopenProblem(dir, atLeast, sessions + 1);
            System.out.printf("cycle %d: killed %d ms after the writer's start (%d changes acknowledged): %s%n",
                              cycle, killAfterMillis, changes, problem == null ? "reopened" : problem);
            if (problem != null) {
                failed++;
                Path kept = dir.resolveSibling(dir.getFileName() + "-failed-" + cycle);
                Files.move(dir, kept, StandardCopyOption.REPLACE_EXISTING);
                held = 0;
            } else {
                held = atLeast;
            }
        }
        return failed;
    }

    /** @return the changes the writer had acknowledged when it was killed */
    private static long killWriter(Path dir, int sessions, long killAfterMillis) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                                           StateKillCycles.class.getName(), "churn", dir.toString(),
                                           Integer.toString(sessions))
                .redirectErrorStream(true).start();
        long changes = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                                                                         StandardCharsets.UTF_8))) {
            String line = r.readLine();
            if (line == null || !line.equals("churning")) {
                child.destroyForcibly();
                throw new IllegalStateException("the writer did not start: " + line);
            }
            long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(killAfterMillis);
            while (System.nanoTime() < killAt && (line = r.readLine()) != null) {
                changes = Long.parseLong(line);
            }
            child.destroyForcibly(); // SIGKILL: mid-commit or mid-compaction, no close
            child.waitFor();
        }
        return changes;
    }

    /**
     * Reopens the state, read-only with every map iterated, then as the host does.
     *
     * @return why the state did not reopen whole (or without between atLeast and atMost sessions), or null
     */
    static String reopenProblem(Path dir, long atLeast, long atMost) {
        try {
            long entries = 0;
            MVStore raw = new MVStore.Builder().fileName(dir.resolve(DurableState.FILE).toString()).readOnly().open();
            try {
                for (String name : raw.getMapNames()) {
                    MVMap<Object, Object> map = raw.openMap(name);
                    for (Object ignored : map.entrySet()) {
                        entries++;
                    }
                }
            } finally {
                raw.close();
            }
            try (DurableState s = DurableState.open(dir, SYNC_MILLIS, 1)) {
                int held = s.sessions().all().size();
                s.sessions().keptResponses();
                s.associations().all();
                if (held < atLeast || held > atMost) {
                    return "reopened with " + held + " sessions, not " + atLeast + " to " + atMost;
                }
            }
            return entries > 0 ? null : "reopened empty";
        } catch (RuntimeException | IOException e) {
            return "reopen failed: " + e;
        }
    }

    /**
     * The killed writer: like PFCP, establishes a session and, once SESSIONS are held, deletes the oldest, each with its
     * kept response, and prunes the responses, printing the count of changes after each; it pauses now and then.
     */
    private static void churn(Path dir, int sessions) throws Exception {
        DurableState state = DurableState.open(dir, SYNC_MILLIS, 1);
        DurableSessionStore store = state.sessions();
        Deque<Long> held = new ArrayDeque<>();
        store.all().stream().map(s -> s.upSeid).sorted(Comparator.naturalOrder()).forEach(held::add);
        long next = held.isEmpty() ? 1 : held.getLast() + 1;
        System.out.println("churning");
        System.out.flush();
        Random random = new Random();
        long changes = 0;
        long pauseAt = random.nextInt(2_000);
        while (true) {
            if (changes == pauseAt) {
                // PFCP goes quiet at times: then only the compaction commits
                Thread.sleep(random.nextInt(1_000));
                pauseAt += random.nextInt(2_000);
            }
            long now = System.currentTimeMillis();
            PfcpSession established = DurableStateTest.session(next);
            store.put(established, new KeptResponse("/127.0.0.2:8805/" + next + "/50", new byte[64], now));
            held.add(next++);
            while (held.size() > sessions) { // a kill between an establishment and its deletion left one more
                long oldest = held.removeFirst();
                store.remove(oldest, new KeptResponse("/127.0.0.2:8805/" + oldest + "/54", new byte[32], now));
            }
            if (++changes % 100 == 0) {
                store.pruneResponses(now - 2_000, KEPT_RESPONSES);
            }
            System.out.println(changes);
        }
    }
}
