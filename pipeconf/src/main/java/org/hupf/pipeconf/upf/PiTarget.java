package org.hupf.pipeconf.upf;

import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Where PI entities are written and read: ONOS's flow rule and P4Runtime services inside ONOS, or a direct
 * P4Runtime connection outside it. hupf's device logic is written once against this.
 */
public interface PiTarget {

    /**
     * Writes entities: table entries and action profile members/groups are inserted, or modified if their
     * key exists; default entries and meter cells are modified.
     *
     * @param entities entities
     * @throws PiTargetException if the target refuses any of them
     */
    void write(Collection<? extends PiEntity> entities) throws PiTargetException;

    /**
     * Tells whether one {@link #write} reaches the device in the contract's write rank (and one {@link #delete} in
     * reverse): a P4Runtime WriteRequest does not (its server may apply a batch's updates in any order).
     *
     * @return true if a write's and a delete's order holds within one call
     */
    default boolean keepsWriteRank() {
        return false;
    }

    /**
     * Deletes table entries (by match key) and action profile members/groups (by id).
     *
     * @param entities entities
     * @throws PiTargetException if the target refuses any of them
     */
    void delete(Collection<? extends PiEntity> entities) throws PiTargetException;

    /**
     * Reads the non-default entries of a table.
     *
     * @param table table id
     * @return entries
     * @throws PiTargetException if the read fails
     */
    Collection<PiTableEntry> readTable(PiTableId table) throws PiTargetException;

    /**
     * Reads counter cells: one index, or all cells when {@code index} is negative.
     *
     * @param counter counter id
     * @param index   cell index or -1
     * @return cells
     * @throws PiTargetException if the read fails
     */
    Collection<PiCounterCell> readCounter(PiCounterId counter, long index) throws PiTargetException;

    /**
     * Reads some cells, of any counters, together: one request where the target can (a P4Runtime ReadRequest
     * of many entities), else one read per cell.
     *
     * @param cells cell ids
     * @return the cells the target holds
     * @throws PiTargetException if the read fails
     */
    default Collection<PiCounterCell> readCounterCells(Collection<PiCounterCellId> cells) throws PiTargetException {
        List<PiCounterCell> out = new ArrayList<>();
        for (PiCounterCellId c : cells) {
            out.addAll(readCounter(c.counterId(), c.index()));
        }
        return out;
    }

    /**
     * Reads every cell configuration of a meter.
     *
     * @param meter meter id
     * @return cells
     * @throws PiTargetException if the read fails
     */
    Collection<PiMeterCellConfig> readMeter(PiMeterId meter) throws PiTargetException;

    /**
     * Reads the members of an action profile.
     *
     * @param profile action profile id
     * @return members
     * @throws PiTargetException if the read fails
     */
    Collection<PiActionProfileMember> readMembers(PiActionProfileId profile) throws PiTargetException;

    /**
     * Reads the groups of an action profile.
     *
     * @param profile action profile id
     * @return groups
     * @throws PiTargetException if the read fails
     */
    Collection<PiActionProfileGroup> readGroups(PiActionProfileId profile) throws PiTargetException;
}
