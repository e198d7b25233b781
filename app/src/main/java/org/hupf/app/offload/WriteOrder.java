package org.hupf.app.offload;

import org.hupf.pipeconf.api.UpfEntity;

/**
 * Write order of UPF entities on a target that carries traffic while it is being written.
 */
final class WriteOrder {

    private WriteOrder() {
    }

    /**
     * Returns the rank of an entity in a make-before-break install: what a table hit leads to is written
     * before the hit itself, so that sessions (which take traffic off the steering path) come last.
     * Removal runs in the reverse order.
     *
     * @param e entity
     * @return rank, lower first
     */
    static int installRank(UpfEntity e) {
        switch (e.type()) {
            case TUNNEL_PEER:
            case PEER_VXLAN:
                return 0;
            case SESSION_METER:
            case APPLICATION_METER:
                return 1;
            case TERMINATION_UPLINK:
            case TERMINATION_DOWNLINK:
                return 2;
            case SESSION_UPLINK:
            case SESSION_DOWNLINK:
                return 3;
            default:
                return 0;
        }
    }
}
