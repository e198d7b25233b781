package org.hupf.core.offload;

import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.UpfEntity;

/**
 * Write order of UPF entities on a target that carries traffic while it is being written.
 */
final class WriteOrder {

    private WriteOrder() {
    }

    /**
     * Returns the rank of an entity in a make-before-break install, the contract's write rank
     * (p4src/contract.toml): what a table hit leads to is written before the hit itself, so that sessions
     * (which take traffic off the steering path) come last. Removal runs in the reverse order.
     *
     * @param e entity
     * @return rank, lower first
     */
    static int installRank(UpfEntity e) {
        return HupfTables.WRITE_RANK.getOrDefault(e.type(), 0);
    }
}
