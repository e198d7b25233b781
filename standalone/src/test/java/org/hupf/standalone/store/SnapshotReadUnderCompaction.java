package org.hupf.standalone.store;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.hupf.core.store.KeptResponse;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Reproduces the state that did not open at a restart (issue #34, {@code Chunk N not found} in the kept responses'
 * read): a burst of establishments the compaction did not keep up with (its maintenance stopped), then, reopened,
 * the kept responses iterated slowly while compaction passes run beside, with MVStore keeping VERSIONS versions,
 * the reader outside or inside the state's lock (the lock {@link DurableSessionStore#keptResponses} takes).
 * Prints whether the read ended. Run by hand (docs/RELIABILITY.md), not a unit test: it reaches into the state's
 * fields to stop its maintenance and to read the map without the store.
 * <pre>java -cp ... org.hupf.standalone.store.SnapshotReadUnderCompaction SESSIONS VERSIONS unlocked|locked</pre>
 */
public final class SnapshotReadUnderCompaction {

    private static final long START = 3_900_000_000L;

    private SnapshotReadUnderCompaction() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = Integer.parseInt(args[0]);
        int versions = Integer.parseInt(args[1]);
        boolean locked = args[2].equals("locked");
        Path dir = Files.createTempDirectory("hupf-snapshot-read");
        try (DurableState s = DurableState.open(dir, 100, START)) {
            ((ExecutorService) field(s, "maintenance")).shutdownNow();
            for (long i = 1; i <= sessions; i++) {
                s.sessions().put(DurableStateTest.session(i),
                                 new KeptResponse("/127.0.0.2:8805/" + i + "/50", new byte[64], i));
            }
            System.out.println("written: " + sessions + " sessions, " + s.chunks() + " chunks");
        }
        try (DurableState s = DurableState.open(dir, 100, START)) {
            MVStore store = (MVStore) field(s, "store");
            store.setVersionsToKeep(versions);
            MVMap<Long, byte[]> responses = store.openMap("responses");
            Thread compaction = new Thread(() -> {
                long before = s.chunks();
                int passes = 0;
                while (s.compact()) {
                    passes++;
                }
                System.out.println("compaction: " + passes + " passes changed something, chunks " + before + " -> "
                                   + s.chunks());
            });
            int[] read = {0};
            Runnable reader = () -> {
                for (Map.Entry<Long, byte[]> e : responses.entrySet()) {
                    e.getValue();
                    if (++read[0] % 20 == 0) {
                        if (read[0] == 20) {
                            compaction.start();
                        }
                        pause();
                    }
                }
            };
            try {
                if (locked) {
                    synchronized (s) {
                        reader.run();
                    }
                } else {
                    reader.run();
                }
                System.out.println("read all " + read[0] + " responses");
            } catch (RuntimeException e) {
                System.out.println("FAILED after " + read[0] + " responses: " + e);
            }
            compaction.join();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Object field(DurableState s, String name) throws ReflectiveOperationException {
        Field f = DurableState.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(s);
    }
}
