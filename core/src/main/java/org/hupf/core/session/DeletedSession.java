package org.hupf.core.session;

import org.hupf.api.session.PfcpSession;
import org.hupf.pipeconf.api.CellCounts;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.WriteResult;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A deleted session with the final counts of its counter cells, taken after its entries left the devices:
 * what its Usage Reports for the deletion are built from, so that they count every packet the session
 * carried and cost the deletion no read of its own.
 */
public final class DeletedSession {

    private final PfcpSession session;
    private final CellCounts finalCells;

    /**
     * @param finalCells the final counts of the session's cells, summed over every device; they may hold other
     *                   cells too (one device's counts are its whole write's, shared by the sessions it removed)
     */
    DeletedSession(PfcpSession session, CellCounts finalCells) {
        this.session = session;
        this.finalCells = finalCells;
    }

    /** @return the session as it was stored */
    public PfcpSession session() {
        return session;
    }

    /**
     * @param cell one of the session's counter cells
     * @return its final egress bytes summed over every device, 0 if the devices did not say
     */
    public long egressBytes(int cell) {
        int i = finalCells.indexOf(cell);
        return i < 0 ? 0 : finalCells.count(i, 3);
    }

    /** @return cell to its final count summed over every device, for each of the session's counter cells */
    public Map<Integer, UpfCounter> finalCounts() {
        Map<Integer, UpfCounter> out = new HashMap<>();
        for (int cell : SessionCounters.cellsOf(session)) {
            int i = finalCells.indexOf(cell);
            if (i >= 0) {
                out.put(cell, finalCells.counter(i));
            }
        }
        return out;
    }

    /**
     * Sums the final counts the devices returned with the removal, if every device returned all the cells.
     *
     * @param results one write result per device
     * @param cells   the session's counter cells
     * @return the cells' summed counts (one device's as it returned them, nothing copied), or empty if a device did
     *         not say (the cells must then be read)
     */
    static Optional<CellCounts> fromWrites(List<WriteResult> results, int[] cells) {
        for (WriteResult r : results) {
            CellCounts counts = r.finalCells();
            for (int cell : cells) {
                if (counts.indexOf(cell) < 0) {
                    return Optional.empty();
                }
            }
        }
        if (results.size() == 1) {
            return Optional.of(results.get(0).finalCells());
        }
        CellCounts sums = new CellCounts(cells.length);
        for (int cell : cells) {
            long[] sum = new long[4];
            for (WriteResult r : results) {
                CellCounts counts = r.finalCells();
                int i = counts.indexOf(cell);
                for (int k = 0; k < 4; k++) {
                    sum[k] += counts.count(i, k);
                }
            }
            sums.add(cell, sum[0], sum[1], sum[2], sum[3]);
        }
        return Optional.of(sums);
    }
}
