package org.hupf.app.device;

import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;

import java.util.List;

/**
 * The match key of an entity: two entities with the same key occupy the same table entry or cell, so
 * applying one overwrites the other (docs/PIPELINE_CONTRACT.md key columns).
 */
public final class EntityKeys {

    private EntityKeys() {
    }

    /**
     * Returns the key of an entity.
     *
     * @param e entity
     * @return a value with equals/hashCode over the key fields and the type
     */
    public static Object key(UpfEntity e) {
        switch (e.type()) {
            case INTERFACE:
                return List.of(e.type(), ((UpfInterface) e).prefix());
            case SESSION_UPLINK:
                UpfSessionUplink u = (UpfSessionUplink) e;
                return List.of(e.type(), u.tunDstAddr(), u.teid());
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
            case PEER_VXLAN:
                return peerVxlanKey(((UpfPeerVxlan) e).tunPeerId());
            case APPLICATION:
                UpfApplication a = (UpfApplication) e;
                return List.of(e.type(), a.sliceId(), a.ip4Prefix(), a.l4PortRange(), a.ipProto(), a.priority());
            case SESSION_METER:
            case APPLICATION_METER:
                return List.of(e.type(), ((UpfMeter) e).cellId());
            case COUNTER:
                return List.of(e.type(), ((UpfCounter) e).cellId());
            default:
                throw new IllegalArgumentException("no key for " + e.type());
        }
    }

    /**
     * Returns the key of a tunnel peer's VXLAN overlay.
     *
     * @param tunPeerId tunnel peer id
     * @return the key any {@link UpfPeerVxlan} of that peer has
     */
    public static Object peerVxlanKey(int tunPeerId) {
        return List.of(UpfEntityType.PEER_VXLAN, tunPeerId);
    }
}
