package org.hupf.app.offload;

import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;

import java.util.List;

/**
 * Match keys and write order of UPF entities. Two entities with the same key occupy the same table
 * entry (the later write replaces the action), which is how the manager diffs a changed session.
 */
public final class EntityKeys {

    private EntityKeys() {
    }

    /**
     * Returns the entity's match key: its type and key fields, without the action parameters.
     *
     * @param e entity
     * @return a value usable as a map key
     */
    public static List<Object> key(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK:
                UpfSessionUplink ul = (UpfSessionUplink) e;
                return List.of(e.type(), ul.tunDstAddr(), ul.teid());
            case SESSION_DOWNLINK:
                return List.of(e.type(), ((UpfSessionDownlink) e).ueAddress());
            case TERMINATION_UPLINK:
                UpfTerminationUplink tu = (UpfTerminationUplink) e;
                return List.of(e.type(), tu.ueSessionId(), tu.applicationId());
            case TERMINATION_DOWNLINK:
                UpfTerminationDownlink td = (UpfTerminationDownlink) e;
                return List.of(e.type(), td.ueSessionId(), td.applicationId());
            case TUNNEL_PEER:
                return List.of(e.type(), ((UpfGtpTunnelPeer) e).tunPeerId());
            case SESSION_METER:
            case APPLICATION_METER:
                return List.of(e.type(), ((UpfMeter) e).cellId());
            case INTERFACE:
                return List.of(e.type(), ((UpfInterface) e).prefix());
            case APPLICATION:
                UpfApplication a = (UpfApplication) e;
                return List.of(e.type(), a.sliceId(), a.ip4Prefix(), a.l4PortRange(), a.ipProto(), a.priority());
            case COUNTER:
                return List.of(e.type(), ((UpfCounter) e).cellId());
            default:
                throw new IllegalArgumentException("no key for entity type " + e.type());
        }
    }

    /**
     * Returns the rank of an entity in a make-before-break install: what a table hit leads to is written
     * before the hit itself, so that sessions (which take traffic off the steering path) come last.
     * Removal runs in the reverse order.
     *
     * @param e entity
     * @return rank, lower first
     */
    public static int installRank(UpfEntity e) {
        switch (e.type()) {
            case TUNNEL_PEER:
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
