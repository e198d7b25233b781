package org.hupf.core.session;

import org.hupf.api.session.PfcpSession;
import org.hupf.pipeconf.api.WriteResult;
import org.hupf.pipeconf.api.UpfCounter;

import java.util.Collection;
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
    private final Map<Integer, UpfCounter> finalCounts;

    DeletedSession(PfcpSession session, Map<Integer, UpfCounter> finalCounts) {
        this.session = session;
        this.finalCounts = Map.copyOf(finalCounts);
    }

    /** @return the session as it was stored */
    public PfcpSession session() {
        return session;
    }

    /** @return cell to its final count summed over every device, for each of the session's counter cells */
    public Map<Integer, UpfCounter> finalCounts() {
        return finalCounts;
    }

    /**
     * Sums the final counts the devices returned with the removal, if every device returned all the cells.
     *
     * @param results one write result per device
     * @param cells   the session's counter cells
     * @return cell to summed count, or empty if a device did not say (the cells must then be read)
     */
    static Optional<Map<Integer, UpfCounter>> fromWrites(List<WriteResult> results, Collection<Integer> cells) {
        if (results.size() == 1) {
            return ofOneDevice(results.get(0).finalCounts(), cells);
        }
        Map<Integer, long[]> sums = new HashMap<>();
        for (int cell : cells) {
            sums.put(cell, new long[4]);
        }
        for (WriteResult r : results) {
            if (!r.finalCounts().keySet().containsAll(cells)) {
                return Optional.empty();
            }
            sums.forEach((cell, sum) -> {
                UpfCounter c = r.finalCounts().get(cell);
                sum[0] += c.ingressPkts();
                sum[1] += c.ingressBytes();
                sum[2] += c.egressPkts();
                sum[3] += c.egressBytes();
            });
        }
        Map<Integer, UpfCounter> out = new HashMap<>();
        sums.forEach((cell, v) -> out.put(cell, UpfCounter.builder().withCellId(cell).setIngress(v[0], v[1])
                .setEgress(v[2], v[3]).build()));
        return Optional.of(out);
    }

    /** The one device's counts of the cells as they are: nothing to sum. */
    private static Optional<Map<Integer, UpfCounter>> ofOneDevice(Map<Integer, UpfCounter> counts,
                                                                  Collection<Integer> cells) {
        Map<Integer, UpfCounter> out = new HashMap<>();
        for (int cell : cells) {
            UpfCounter c = counts.get(cell);
            if (c == null) {
                return Optional.empty();
            }
            out.put(cell, c);
        }
        return Optional.of(out);
    }
}
