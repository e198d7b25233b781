package org.hupf.pipeconf.api;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.Map;

/**
 * A device that reads any set of counter cells in one request (one P4Runtime ReadRequest on a P4Runtime device):
 * the final usage of the sessions one batch removed, or the cells of one session, without one round trip per
 * cell. The read side of {@link BatchUpfDevice}.
 */
public interface BatchCounterReader {

    /**
     * Reads counter cells.
     *
     * @param cells cell indexes
     * @return cell index to its ingress/egress counts, for every cell asked
     * @throws UpfProgrammableException if the read fails
     */
    Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException;
}
