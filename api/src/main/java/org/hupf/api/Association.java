package org.hupf.api;

import java.net.InetSocketAddress;

/**
 * A PFCP association with a CP function (TS 29.244 §6.2.6).
 */
public final class Association {

    public final String nodeId;
    public final InetSocketAddress peer;
    /** The CP function's Recovery Time Stamp: a change means it restarted. */
    public final long recoveryTimeStamp;
    public final long establishedMillis;

    public Association(String nodeId, InetSocketAddress peer, long recoveryTimeStamp, long establishedMillis) {
        this.nodeId = nodeId;
        this.peer = peer;
        this.recoveryTimeStamp = recoveryTimeStamp;
        this.establishedMillis = establishedMillis;
    }

    @Override
    public String toString() {
        return nodeId + "@" + peer.getAddress().getHostAddress() + ":" + peer.getPort();
    }
}
