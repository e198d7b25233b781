package org.hupf.standalone.store;

import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The standalone host's state on disk: one H2 MVStore file ({@value #FILE} in the state directory) with
 * the sessions (which carry their allocations: TEIDs, UE addresses, device cells) with the responses to
 * the requests that changed them (for the retransmission window), the PFCP associations and this UP
 * function's Recovery Time Stamp.
 *
 * <p>Every change is committed before the call that made it returns, so before the PFCP answer: the
 * commit writes the change to the file, where the kernel keeps it when the process is killed. fsync, which
 * also survives a power loss, runs on every commit with {@code syncMillis == 0}, or else at most every
 * {@code syncMillis} for the commits of that period together (one fsync costs milliseconds on a disk).
 * MVStore is append-only with checksummed chunks: a crash mid-write leaves the last complete commit.
 *
 * <p>Each commit writes a chunk, and the chunks of the sessions' commits each keep a few live pages: left alone,
 * 100,000 establishments leave over a hundred thousand chunks in a 1.5 GB file, which a restart must walk before it
 * reads a session. The maintenance looks every {@value #COMPACT_CHECK_MILLIS} ms and compacts when the fill rates
 * say so ({@link #compact}), between two changes, never inside one: while changes come, the chunks are about those
 * of the last retention period (younger ones are not rewritten); once they stop, the chunks and the file settle in
 * proportion to the sessions.
 * A chunk left without live pages is reused after {@link #retentionMillis}: MVStore's default, 45 s, assumes nobody
 * flushes the disk's buffers sooner, but this state fsyncs at least every {@code syncMillis}; at 45 s a chunk per
 * commit piles up faster than compaction frees them.
 */
public final class DurableState implements AutoCloseable {

    static final String FILE = "hupf-state.mv.db";
    private static final String META = "meta";
    private static final String RECOVERY_KEY = "recoveryTimeStamp";
    static final int COMPACT_CHECK_MILLIS = 250;
    /** Chunks less full than this (percent) have their live pages rewritten. */
    private static final int COMPACT_FILL_RATE = 80;
    /** At most this much rewritten per compaction: a change waits for it. */
    private static final int COMPACT_WRITE_BYTES = 4 << 20;

    private final MVStore store;
    private final boolean syncEveryCommit;
    private final ScheduledExecutorService maintenance;
    private final DurableSessionStore sessions;
    private final DurableAssociationStore associations;
    private final long recoveryTimeStamp;
    private final boolean restored;

    private DurableState(MVStore store, long syncMillis, long startTimeStamp) {
        this.store = store;
        this.syncEveryCommit = syncMillis == 0;
        store.setRetentionTime(retentionMillis(syncMillis));
        // No reader holds an old version while the compaction runs (the stores read their maps under this object's
        // lock, as the compaction runs): a chunk a commit left empty is free once past the retention, not five commits
        // later (a quiet state makes none). Keeping five would not protect an unlocked reader either: a compaction
        // pass makes two versions (SnapshotReadUnderCompaction).
        store.setVersionsToKeep(0);
        this.sessions = new DurableSessionStore(store.openMap("sessions"),
                                                new KeptResponseLog(store.openMap("responses")), this);
        this.associations = new DurableAssociationStore(store.openMap("associations"), this);
        MVMap<String, Long> meta = store.openMap(META);
        Long kept = meta.get(RECOVERY_KEY);
        this.restored = kept != null && !(sessions.isEmpty() && associations.isEmpty());
        this.recoveryTimeStamp = restored ? kept : startTimeStamp;
        meta.put(RECOVERY_KEY, recoveryTimeStamp);
        committed();
        maintenance = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hupf-state-maintenance");
            t.setDaemon(true);
            return t;
        });
        if (!syncEveryCommit) {
            maintenance.scheduleWithFixedDelay(store::sync, syncMillis, syncMillis, TimeUnit.MILLISECONDS);
        }
        maintenance.scheduleWithFixedDelay(this::compact, COMPACT_CHECK_MILLIS, COMPACT_CHECK_MILLIS,
                                           TimeUnit.MILLISECONDS);
    }

    /**
     * Opens (or creates) the state in a directory.
     *
     * @param dir            state directory, created if missing
     * @param syncMillis     0: fsync every commit; N: fsync at most every N ms
     * @param startTimeStamp Recovery Time Stamp to use if the state holds no session and no association
     * @return the open state
     * @throws IOException if the directory or the file cannot be used (e.g. another host holds it)
     */
    public static DurableState open(Path dir, long syncMillis, long startTimeStamp) throws IOException {
        if (syncMillis < 0) {
            throw new IllegalArgumentException("state sync period must be >= 0 ms, got " + syncMillis);
        }
        Files.createDirectories(dir);
        try {
            // "retry:": an interrupted thread (a shutdown) would otherwise close the file under every other.
            MVStore s = new MVStore.Builder().fileName("retry:" + dir.resolve(FILE)).autoCommitDisabled().open();
            return new DurableState(s, syncMillis, startTimeStamp);
        } catch (MVStoreException e) {
            throw new IOException("state in " + dir + " cannot be opened: " + e.getMessage(), e);
        }
    }

    /** Ten fsync periods, at least 1 s: a freed chunk is overwritten only well after its freeing commit is on disk. */
    static int retentionMillis(long syncMillis) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1_000, 10 * syncMillis));
    }

    /**
     * One compaction pass: when the chunks' live share is under {@value #COMPACT_FILL_RATE} %, the live pages of the
     * emptiest chunks (at most {@value #COMPACT_WRITE_BYTES} bytes of them) are rewritten and committed; the chunks
     * left empty and past the retention are freed (otherwise only the next commit would free them, and a quiet
     * state has none). New chunks fill the freed space from the file's start, and the file is cut once its end is
     * free. Chunks are not moved: MVStore 2.3.232's chunk move could lose chunks (H2 issue 4247, fixed after it).
     * The stores' changes hold this object's lock from their first write to their commit, so the compaction's
     * commits never take half of one.
     *
     * @return whether the pass rewrote or freed anything, or the file shrank: the state is not yet as compact as it gets
     */
    synchronized boolean compact() {
        if (store.isClosed()) {
            return false;
        }
        try {
            FileStore<?> file = store.getFileStore();
            long chunksBefore = chunks();
            long sizeBefore = file.size();
            boolean rewrote = store.compact(COMPACT_FILL_RATE, COMPACT_WRITE_BYTES);
            committed();
            file.dropUnusedChunks();
            committed();
            return rewrote || chunks() < chunksBefore || file.size() < sizeBefore;
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: the next compaction may succeed.
            System.err.println("hupf state: compaction failed: " + e);
            return false;
        }
    }

    /** @return the chunks the file holds: what a restart walks before it reads a session */
    synchronized long chunks() {
        return store.getLayoutMap().keySet().stream().filter(k -> k.startsWith("chunk.")).count();
    }

    /** Makes the maps' changes durable: called by the stores after each change, before they return. */
    synchronized void committed() {
        if (store.hasUnsavedChanges()) {
            store.commit();
            if (syncEveryCommit) {
                store.sync();
            }
        }
    }

    public DurableSessionStore sessions() {
        return sessions;
    }

    public DurableAssociationStore associations() {
        return associations;
    }

    /**
     * Returns this UP function's Recovery Time Stamp: the one it had if it restarted with sessions or
     * associations, else its start time.
     *
     * @return NTP seconds
     */
    public long recoveryTimeStamp() {
        return recoveryTimeStamp;
    }

    /** @return whether the state held sessions or associations when it was opened */
    public boolean restored() {
        return restored;
    }

    @Override
    public void close() {
        maintenance.shutdown();
        try {
            maintenance.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.close();
    }
}
