package org.hupf.pipeconf.api;

/**
 * An entity a UPF device holds: a table entry, a meter cell or a counter cell.
 */
public interface UpfEntity {

    /**
     * Returns the kind of this entity.
     *
     * @return entity type
     */
    UpfEntityType type();
}
