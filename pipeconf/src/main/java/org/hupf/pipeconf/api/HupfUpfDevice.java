package org.hupf.pipeconf.api;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.List;

/**
 * A device that holds UPF entities: the hw switch, the sw backend, or an in-memory stand-in.
 * Implementations translate entities 1:1 to the tables of docs/PIPELINE_CONTRACT.md.
 */
public interface HupfUpfDevice {

    /**
     * Installs or overwrites an entity (same match key: the previous action is replaced).
     *
     * @param entity table entry or meter cell
     * @throws UpfProgrammableException if the device rejects it or its table is full
     */
    void apply(UpfEntity entity) throws UpfProgrammableException;

    /**
     * Removes an entity, matched by its key fields; a meter is reset.
     *
     * @param entity entity to remove
     * @throws UpfProgrammableException if the device rejects the removal
     */
    void delete(UpfEntity entity) throws UpfProgrammableException;

    /**
     * Installs or overwrites entities in the order given (the contract's write rank: what an entry leads to before
     * the entry), in one write where the device keeps that order within it (the switch inside ONOS: one flow
     * rule batch in write-rank stages, one wait for its confirmation), else one {@link #apply} each.
     *
     * @param entities entities, in install order
     * @throws UpfProgrammableException if the device rejects one of them: it may hold the others
     */
    default void applyInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        for (UpfEntity e : entities) {
            apply(e);
        }
    }

    /**
     * Removes entities in the order given (the reverse of install order), in one write where the device keeps
     * that order within it, else one {@link #delete} each, every one attempted.
     *
     * @param entities entities, in removal order
     * @throws UpfProgrammableException if the device rejects a removal (the first one, once all were tried)
     */
    default void deleteInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        UpfProgrammableException first = null;
        for (UpfEntity e : entities) {
            try {
                delete(e);
            } catch (UpfProgrammableException ex) {
                first = first == null ? ex : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Reads every entity of one type the device holds.
     *
     * @param type entity type
     * @return entities
     * @throws UpfProgrammableException if the read fails
     */
    Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException;

    /**
     * Reads one counter cell.
     *
     * @param cellId counter index
     * @return the counter values
     * @throws UpfProgrammableException if the index is out of range or the read fails
     */
    UpfCounter readCounter(int cellId) throws UpfProgrammableException;

    /**
     * Reads the counter cells from 0 up to {@code maxCounterId} (exclusive) or the counters' size.
     *
     * @param maxCounterId upper bound, -1 for all
     * @return counters
     * @throws UpfProgrammableException if the read fails
     */
    Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException;

    /**
     * Returns the capacity of the table, meter or counter behind a type, from the device's P4Info.
     *
     * @param type entity type
     * @return capacity
     * @throws UpfProgrammableException if the size is unknown
     */
    long tableSize(UpfEntityType type) throws UpfProgrammableException;

    /**
     * Removes every entity of one type (meters are reset).
     *
     * @param type entity type
     * @throws UpfProgrammableException if the removal fails
     */
    void deleteAll(UpfEntityType type) throws UpfProgrammableException;
}
