package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.UpfCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What each backend counted, kept when a backend leaves the hybrid or restarts. A backend counts only the
 * packets the switch steered to it, so a session's usage is a sum over the backends: one that goes away
 * (stopped, failed, unreachable) would take its counts with it, and one that restarts starts again from zero.
 *
 * <p>Per backend and counter cell the ledger keeps the last count read and an offset (what the backend's
 * earlier lives counted there): the backend's share of a cell is its count now plus the offset while it is
 * present, and its last count plus the offset while it is away ({@link #away}, which {@link LedgeredBackend}
 * adds to the first backend's reads). A restart shows in the counts: a cell reads below its last count.
 *
 * <p>Reads run concurrently (the offload poll, a PFCP query or deletion, REST) and their answers can come back
 * out of order: a count read by a read that started before the last one observed is returned with its offset
 * but neither judged nor kept (a lower count it carries is older, not a restart).
 *
 * <p>hupf itself writes a cell (to zero) when it gives the cell to a new session: the cell's history is then
 * another session's. On the backend written, the cell's record is dropped and the cell is not judged until a
 * read started after the write was acknowledged (one started before may still see the old count); on the
 * backends away, that history stops counting (their offset cancels their last count, so a backend that
 * returns with its counts adds nothing old, and one that restarted is recognised as before).
 *
 * <p>What a departure, a restart or a zeroing leaves to carry (a backend's last counts and offset per cell) goes
 * to a {@link Journal} (ONOS: a ConsistentMap), from which a new hupf leader's ledger starts. Counts read
 * while a backend is present are not journaled: the next leader reads them from the backend.
 *
 * <p>Packets a backend counted after its last read and before it died are lost (at most one poll's worth).
 */
public final class BackendUsageLedger {

    private static final Logger log = LoggerFactory.getLogger(BackendUsageLedger.class);

    /**
     * Keeps the ledger's carried counts beyond this node. Called under the ledger's lock: must not block
     * (ONOS: asynchronous map writes).
     */
    public interface Journal {
        /** Journals nothing (the lab: the ledger lives as long as the runner). */
        Journal NONE = (backend, cell, record) -> { };

        /**
         * @param backend the backend's key
         * @param cell    a counter cell
         * @param record  its last count and offset (4 + 4 longs: ingress packets, bytes, egress packets,
         *                bytes), or null: nothing to carry any more
         */
        void record(String backend, int cell, long[] record);
    }

    /** A cell whose write is on its way: not judged until a read started after its acknowledgement. */
    private static final Long WRITE_PENDING = Long.MAX_VALUE;

    /** A backend's cells, keyed by cell id without a box per key. */
    private static final class Account {
        IntMap<long[]> last = new IntMap<>();
        /** Only non-zero offsets. */
        final IntMap<long[]> offset = new IntMap<>();
        /** Cells hupf wrote, to the ledger time of the write's acknowledgement (one box per write, shared). */
        final IntMap<Long> writtenAt = new IntMap<>();
        /** Cells with a record in the journal (the value is always TRUE). */
        final IntMap<Boolean> journaled = new IntMap<>();
        /** The start of the latest read observed: an answer to an earlier one is stale. */
        long observedStart;
        boolean present = true;
        long restarts;
    }

    private final Map<String, Account> accounts = new HashMap<>();
    private final Journal journal;
    /** Advanced by every read's start and every acknowledged cell write: orders the two. */
    private long clock;
    /** Advanced when a restart is judged or a backend comes or goes: offsets or away counts of any cell changed. */
    private long epoch;

    /** A ledger that journals nothing. */
    public BackendUsageLedger() {
        this(Journal.NONE, Map.of());
    }

    /**
     * A ledger that journals what it carries, started from an earlier ledger's journal.
     *
     * @param journal  where carried counts go
     * @param restored the journal's records: backend to cell to record (see {@link Journal#record}); their
     *                 backends start away, until {@link #present} names them
     */
    public BackendUsageLedger(Journal journal, Map<String, Map<Integer, long[]>> restored) {
        this.journal = journal;
        restored.forEach((backend, cells) -> {
            Account a = new Account();
            a.present = false;
            cells.forEach((cell, r) -> {
                long[] last = Arrays.copyOfRange(r, 0, 4);
                long[] offset = Arrays.copyOfRange(r, 4, 8);
                if (!zero(last)) {
                    a.last.put(cell, last);
                }
                if (!zero(offset)) {
                    a.offset.put(cell, offset);
                }
                a.journaled.put(cell, Boolean.TRUE);
            });
            accounts.put(backend, a);
        });
    }

    /** @return the time a read starting now carries into {@link #observe} */
    public synchronized long readStarts() {
        return ++clock;
    }

    /**
     * Takes the counts just read from a backend (a read's answer, a write's final counts) and gives its share of
     * each cell.
     *
     * @param backend   the backend's key
     * @param startedAt {@link #readStarts()} taken before the read was sent
     * @param counts    what the backend answered
     * @return the backend's share of each cell, in the order of {@code counts}: the count plus what its earlier
     *         lives counted there
     */
    public CellCounts observe(String backend, long startedAt, CellCounts counts) {
        String restart;
        CellCounts out;
        synchronized (this) {
            restart = judge(backend, startedAt, counts);
            out = withOffsets(accounts.get(backend), counts);
        }
        if (restart != null) {
            // Logged outside the lock; each restart adds a backend's whole last counts to its sessions' usage.
            log.warn("Backend {} restarted: {}", backend, restart);
        }
        return out;
    }

    /** Keeps what a read observed; returns why the backend is taken for restarted, or null. */
    private String judge(String backend, long startedAt, CellCounts counts) {
        // Presence is only what present() says: a read by a hybrid already replaced must not bring one back.
        Account a = accounts.computeIfAbsent(backend, k -> new Account());
        if (startedAt < a.observedStart) {
            return null;
        }
        a.observedStart = startedAt;
        String restarted = null;
        for (int i = 0; i < counts.size(); i++) {
            int cell = counts.cell(i);
            long[] last = a.last.get(cell);
            if (judged(a, cell, startedAt) && last != null && below(counts, i, last)) {
                restarted = "cell " + cell + " read " + Arrays.toString(values(counts, i)) + " (a read started at "
                        + startedAt + ") below its last " + Arrays.toString(last) + ": the last counts of "
                        + a.last.size() + " cells kept as its earlier life's";
                break;
            }
        }
        if (restarted != null) {
            a.restarts++;
            epoch++;
            a.last.forEach((cell, last) -> {
                long[] o = a.offset.computeIfAbsent(cell, k -> new long[4]);
                for (int i = 0; i < 4; i++) {
                    o[i] += last[i];
                }
            });
            a.last = new IntMap<>();
            for (int cell : a.offset.keys()) {
                journal(backend, a, cell);
            }
        }
        for (int i = 0; i < counts.size(); i++) {
            int cell = counts.cell(i);
            if (judged(a, cell, startedAt)) {
                a.writtenAt.remove(cell);
                if (zero(counts, i)) {
                    a.last.remove(cell);  // nothing to keep, nothing to fall below: most cells of a big table
                } else {
                    a.last.put(cell, values(counts, i));
                }
            }
        }
        return restarted;
    }

    /** Each count plus what the backend's earlier lives counted in its cell. */
    private static CellCounts withOffsets(Account a, CellCounts counts) {
        if (a.offset.isEmpty()) {
            return counts;
        }
        long[][] offsets = new long[counts.size()][];
        for (int i = 0; i < counts.size(); i++) {
            offsets[i] = a.offset.get(counts.cell(i));
        }
        return counts.plus(offsets);
    }

    /**
     * Names the backends that hold the sessions now: the others are away, and their counts are kept; a
     * backend named again is read as itself again (not added to the first one's reads).
     *
     * @param backends keys of the backends present
     */
    public synchronized void present(Collection<String> backends) {
        Set<String> here = new HashSet<>(backends);
        // One back is read as itself from now on: a restart shows in its next read, its last counts kept until.
        accounts.forEach((k, a) -> {
            boolean leaves = a.present && !here.contains(k);
            epoch += a.present == here.contains(k) ? 0 : 1;
            a.present = here.contains(k);
            if (leaves) {
                for (int cell : a.last.keys()) {
                    journal(k, a, cell);
                }
                for (int cell : a.offset.keys()) {
                    journal(k, a, cell);    // again for a cell in both: the same record
                }
            }
        });
    }

    /**
     * hupf is writing cells of a backend (zeroing them for a new session): their history is another session's.
     *
     * @param backend the backend written
     * @param cells   the cells
     */
    public synchronized void writing(String backend, int[] cells) {
        Account a = accounts.computeIfAbsent(backend, k -> new Account());
        for (int cell : cells) {
            a.last.remove(cell);
            a.offset.remove(cell);
            a.writtenAt.put(cell, WRITE_PENDING);
            journal(backend, a, cell);
        }
        accounts.forEach((k, other) -> {
            if (other.present) {
                return;
            }
            for (int cell : cells) {
                long[] last = other.last.get(cell);
                if (last == null) {
                    other.offset.remove(cell);
                } else {
                    long[] o = new long[4];
                    for (int i = 0; i < 4; i++) {
                        o[i] = -last[i];
                    }
                    other.offset.put(cell, o);
                }
                journal(k, other, cell);
            }
        });
    }

    /**
     * The backend answered a write of cells (taken or refused): a read started from now on judges them again.
     *
     * @param backend the backend written
     * @param cells   the cells
     */
    public synchronized void written(String backend, int[] cells) {
        Account a = accounts.get(backend);
        if (a == null) {
            return;
        }
        Long acknowledged = ++clock;
        for (int cell : cells) {
            if (WRITE_PENDING.equals(a.writtenAt.get(cell))) {
                a.writtenAt.put(cell, acknowledged);
            }
        }
    }

    /** @return a value that changes whenever a cell's offset or away count may have changed other than by a write */
    public synchronized long epoch() {
        return epoch;
    }

    /**
     * @param backend  a backend's key
     * @param withAway whether to add the cells the backends away counted in
     * @return the cells the ledger holds a count or offset of, for the backend (and those away): a read in full
     *     must give them, zero or not, so that their zeros are judged and their offsets added
     */
    public synchronized Set<Integer> recorded(String backend, boolean withAway) {
        Set<Integer> cells = new HashSet<>();
        accounts.forEach((k, a) -> {
            if (k.equals(backend) || withAway && !a.present) {
                a.last.forEach((cell, v) -> cells.add(cell));
                a.offset.forEach((cell, v) -> cells.add(cell));
            }
        });
        return cells;
    }

    /**
     * @param counts cells' counts
     * @return per entry of {@code counts}, what the backends away counted in its cell (null where none did), or null
     *     if no backend is away
     */
    public synchronized long[][] away(CellCounts counts) {
        if (accounts.values().stream().allMatch(a -> a.present)) {
            return null;
        }
        long[][] out = new long[counts.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = away(counts.cell(i));
        }
        return out;
    }

    /** @return what the backends away counted in a cell (their last counts and earlier lives), or null if none did */
    private long[] away(int cell) {
        long[] sum = null;
        for (Account a : accounts.values()) {
            long[] last = a.present ? null : a.last.get(cell);
            long[] o = a.present ? null : a.offset.get(cell);
            if (last == null && o == null) {
                continue;
            }
            sum = sum == null ? new long[4] : sum;
            for (int i = 0; i < 4; i++) {
                sum[i] += (last == null ? 0 : last[i]) + (o == null ? 0 : o[i]);
            }
        }
        return sum;
    }

    /**
     * @param backend a backend's key
     * @return how many restarts of it the counts showed
     */
    public synchronized long restarts(String backend) {
        Account a = accounts.get(backend);
        return a == null ? 0 : a.restarts;
    }

    /**
     * Returns what each backend present counted in the cells it holds now, its earlier lives included (a cell
     * freed with its session drops out): for the live view's traffic by path.
     *
     * @return backend key to {packets, bytes} that entered it (ingress: each packet once, as the switch's are
     *         counted beside them), in the order of the keys
     */
    public synchronized Map<String, long[]> totals() {
        Map<String, long[]> out = new TreeMap<>();
        accounts.forEach((backend, a) -> {
            if (a.present) {
                long[] t = new long[2];
                for (IntMap<long[]> counts : List.of(a.last, a.offset)) {
                    for (long[] v : counts.values()) {
                        t[0] += v[0];
                        t[1] += v[1];
                    }
                }
                out.put(backend, t);
            }
        });
        return out;
    }

    /**
     * Journals a cell's last count and offset, or forgets its record when it carries nothing; nothing at all
     * without a journal (the lab's ledger, which a cell write reaches with every new session).
     */
    private void journal(String backend, Account a, int cell) {
        if (journal == Journal.NONE) {
            return;
        }
        long[] last = a.last.get(cell);
        long[] offset = a.offset.get(cell);
        if (last == null && offset == null) {
            if (a.journaled.remove(cell) != null) {
                journal.record(backend, cell, null);
            }
            return;
        }
        long[] r = new long[8];
        if (last != null) {
            System.arraycopy(last, 0, r, 0, 4);
        }
        if (offset != null) {
            System.arraycopy(offset, 0, r, 4, 4);
        }
        a.journaled.put(cell, Boolean.TRUE);
        journal.record(backend, cell, r);
    }

    private static boolean judged(Account a, int cell, long startedAt) {
        Long written = a.writtenAt.get(cell);
        return written == null || startedAt > written;
    }

    private static boolean below(CellCounts c, int i, long[] last) {
        return c.count(i, 0) < last[0] || c.count(i, 1) < last[1] || c.count(i, 2) < last[2]
                || c.count(i, 3) < last[3];
    }

    private static boolean zero(long[] v) {
        return v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0;
    }

    private static boolean zero(CellCounts c, int i) {
        return c.count(i, 0) == 0 && c.count(i, 1) == 0 && c.count(i, 2) == 0 && c.count(i, 3) == 0;
    }

    private static long[] values(CellCounts c, int i) {
        return new long[]{c.count(i, 0), c.count(i, 1), c.count(i, 2), c.count(i, 3)};
    }

    static UpfCounter counter(int cell, long[] v) {
        return UpfCounter.builder().withCellId(cell).setIngress(v[0], v[1]).setEgress(v[2], v[3]).build();
    }
}
