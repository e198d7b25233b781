package org.hupf.pipeconf.api;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one device write, per update: a device applies a batch non-atomically (P4Runtime
 * CONTINUE_ON_ERROR), so each update succeeded or failed on its own. A device that could not be reached
 * fails every update and is marked unreachable: the caller cannot know what it applied.
 *
 * <p>A device that reads the counter cells of the sessions a write removed, once for the whole write, returns
 * their final counts with the result: a deletion's usage report then costs no read of its own.
 */
public final class WriteResult {

    private final List<UpfProgrammableException> failures;
    private final boolean unreachable;
    private final FinalCounts finalCounts;

    /** A write's final counts in the form they were given, the other made when first asked for; shared by slices. */
    private static final class FinalCounts {
        private static final FinalCounts NONE = new FinalCounts(Map.of(), CellCounts.NONE);

        private volatile Map<Integer, UpfCounter> map;
        private volatile CellCounts cells;

        private FinalCounts(Map<Integer, UpfCounter> map, CellCounts cells) {
            this.map = map;
            this.cells = cells;
        }
    }

    private WriteResult(List<UpfProgrammableException> failures, boolean unreachable, FinalCounts finalCounts) {
        this.failures = failures;
        this.unreachable = unreachable;
        this.finalCounts = finalCounts;
    }

    private WriteResult(List<UpfProgrammableException> failures, boolean unreachable) {
        this(failures, unreachable, FinalCounts.NONE);
    }

    /**
     * @param counts cell to counts, read after the removal, of every counter cell of the sessions this write removed
     * @return this result carrying them
     */
    public WriteResult withFinalCounts(Map<Integer, UpfCounter> counts) {
        return new WriteResult(failures, unreachable, new FinalCounts(Map.copyOf(counts), null));
    }

    /**
     * @param cells the final counts (see {@link #withFinalCounts}), each cell once; not changed afterwards
     * @return this result carrying them
     */
    public WriteResult withFinalCells(CellCounts cells) {
        return new WriteResult(failures, unreachable, new FinalCounts(null, cells));
    }

    /**
     * @return final counts of the counter cells of the sessions the write removed (of the whole write, also on a
     *         slice); empty if the device does not read them
     */
    public Map<Integer, UpfCounter> finalCounts() {
        Map<Integer, UpfCounter> map = finalCounts.map;
        if (map == null) {
            map = Collections.unmodifiableMap(finalCounts.cells.toMap());
            finalCounts.map = map;
        }
        return map;
    }

    /** @return the same final counts as {@link #finalCounts}, in primitive arrays: no object per cell */
    public CellCounts finalCells() {
        CellCounts cells = finalCounts.cells;
        if (cells == null) {
            cells = CellCounts.of(finalCounts.map.values());
            finalCounts.cells = cells;
        }
        return cells;
    }

    /**
     * @param failures one entry per update, null where the update succeeded
     * @return the result
     */
    public static WriteResult of(List<UpfProgrammableException> failures) {
        return new WriteResult(Collections.unmodifiableList(new ArrayList<>(failures)), false);
    }

    /**
     * @param updates number of updates
     * @return a result where every update succeeded
     */
    public static WriteResult ok(int updates) {
        return new WriteResult(Collections.nCopies(updates, null), false);
    }

    /**
     * @param updates number of updates
     * @param why     what made the device unreachable
     * @return a result where every update failed because the device was not reached
     */
    public static WriteResult unreachable(int updates, UpfProgrammableException why) {
        return new WriteResult(Collections.nCopies(updates, why), true);
    }

    /** @return number of updates */
    public int size() {
        return failures.size();
    }

    /** @return true if every update succeeded */
    public boolean ok() {
        for (UpfProgrammableException f : failures) {
            if (f != null) {
                return false;
            }
        }
        return true;
    }

    /** @return true if the device was not reached */
    public boolean unreachable() {
        return unreachable;
    }

    /**
     * @param i update index
     * @return why update i failed, or null if it succeeded
     */
    public UpfProgrammableException failure(int i) {
        return failures.get(i);
    }

    /** @return the first failure, or null */
    public UpfProgrammableException firstFailure() {
        return failures.stream().filter(f -> f != null).findFirst().orElse(null);
    }

    /**
     * @param from first update, inclusive
     * @param to   last update, exclusive
     * @return the result of updates [from, to), as if they had been written alone
     */
    public WriteResult slice(int from, int to) {
        return new WriteResult(failures.subList(from, to), unreachable, finalCounts);
    }
}
