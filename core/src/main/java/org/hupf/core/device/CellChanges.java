package org.hupf.core.device;

import org.hupf.pipeconf.api.UpfCounter;

import java.util.Collection;

/**
 * What a changed-cells read answered ({@link CounterCellReader#readChangedCells}): the counter cells that
 * changed since the read whose answer the reader passed, or, when complete, every cell that may be non-zero
 * (a cell it leaves out is zero: a first read, a device that lost the reader's snapshot or reads in full).
 */
public final class CellChanges {

    private final boolean complete;
    private final Collection<UpfCounter> cells;
    private final Object token;

    /**
     * @param complete whether the cells left out are zero (else they are as the previous answer had them)
     * @param cells    the cells, each once, with their ingress and egress counts
     * @param token    what the device needs to answer the next read with changes only; null: nothing
     */
    public CellChanges(boolean complete, Collection<UpfCounter> cells, Object token) {
        this.complete = complete;
        this.cells = cells;
        this.token = token;
    }

    /** @return whether the cells left out are zero */
    public boolean complete() {
        return complete;
    }

    /** @return the cells answered */
    public Collection<UpfCounter> cells() {
        return cells;
    }

    /** @return the answering device's state for the next read, opaque to others */
    public Object token() {
        return token;
    }
}
