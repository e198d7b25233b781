package org.hupf.pipeconf.upf;

import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiEntityType;
import org.onosproject.net.pi.runtime.PiTableEntry;

/**
 * How a PI entity is written over P4Runtime, the same for every client of the pipeline.
 */
public final class PiWrites {

    private PiWrites() {
    }

    /**
     * Tells whether an entity always exists on the device and can only be modified (P4Runtime: a default entry,
     * a meter cell's configuration, a counter cell's value), as opposed to inserted.
     *
     * @param e PI entity
     * @return true for MODIFY only
     */
    public static boolean isModifyOnly(PiEntity e) {
        return e.piEntityType() == PiEntityType.METER_CELL_CONFIG || e.piEntityType() == PiEntityType.COUNTER_CELL
                || e.piEntityType() == PiEntityType.TABLE_ENTRY && ((PiTableEntry) e).isDefaultAction();
    }
}
