package org.hupf.core.device;

import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

public class EntityKeysTest {

    private static UpfGtpTunnelPeer peer(int id, String dst) {
        return UpfGtpTunnelPeer.builder().withTunnelPeerId(id).withSrcAddr(Ip4Address.valueOf("192.0.2.1"))
                .withDstAddr(Ip4Address.valueOf(dst)).withSrcPort(2152).build();
    }

    @Test
    public void aTunnelPeerKeyFromItsIdIsThePeersKeyWhateverItsAddresses() {
        Object key = EntityKeys.tunnelPeerKey(7);
        assertEquals(EntityKeys.key(peer(7, "192.0.2.2")), key);
        assertEquals(EntityKeys.key(peer(7, "192.0.2.3")).hashCode(), key.hashCode());
        assertNotEquals(EntityKeys.key(peer(8, "192.0.2.2")), key);
        assertNotEquals("another type with the same number", EntityKeys.peerVxlanKey(7), key);
    }

    @Test
    public void aMeterKeyFromTypeAndCellIsTheMetersKey() {
        assertEquals(EntityKeys.key(UpfMeter.resetMeter(UpfMeter.Type.SESSION, 5)),
                     EntityKeys.meterKey(UpfEntityType.SESSION_METER, 5));
        assertEquals(EntityKeys.key(UpfMeter.resetMeter(UpfMeter.Type.APPLICATION, 5)),
                     EntityKeys.meterKey(UpfEntityType.APPLICATION_METER, 5));
        assertNotEquals(EntityKeys.meterKey(UpfEntityType.SESSION_METER, 5),
                        EntityKeys.meterKey(UpfEntityType.APPLICATION_METER, 5));
    }
}
