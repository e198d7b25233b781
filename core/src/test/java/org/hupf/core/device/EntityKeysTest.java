package org.hupf.core.device;

import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.List;

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

    private static UpfSessionUplink uplink(long teid, int meter) {
        return UpfSessionUplink.builder().setTunDstAddr(Ip4Address.valueOf("192.0.2.1")).setTeid(teid)
                .setSessionMeterIdx(meter).build();
    }

    private static UpfSessionDownlink downlink(String ue, boolean buffered) {
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(Ip4Address.valueOf(ue))
                .withSessionMeterIdx(1);
        return (buffered ? b.needsBuffering(true) : b.withGtpTunnelPeerId(1)).build();
    }

    private static UpfApplication application(int appId, int port) {
        return UpfApplication.builder().withIp4Prefix(Ip4Prefix.valueOf("198.51.100.0/24")).withL4PortRange(port, port)
                .withIpProto(17).withSliceId(0).withAppId(appId).withPriority(10).build();
    }

    /** The key's hash and equality worked out without the key are the key's, for every pair of these entities. */
    @Test
    public void theKeysHashAndEqualityWithoutBuildingItAreTheKeys() {
        List<UpfEntity> entities = List.of(uplink(1, 1), uplink(1, 2), uplink(2, 1), downlink("10.0.0.1", true),
                downlink("10.0.0.1", false), downlink("10.0.0.2", true), peer(7, "192.0.2.2"), peer(7, "192.0.2.3"),
                peer(8, "192.0.2.2"), UpfMeter.resetMeter(UpfMeter.Type.SESSION, 5),
                UpfMeter.resetMeter(UpfMeter.Type.APPLICATION, 5), UpfCounter.builder().withCellId(5).build(),
                application(1, 53), application(2, 53), application(1, 54));
        for (UpfEntity x : entities) {
            assertEquals(x.toString(), EntityKeys.key(x).hashCode(), EntityKeys.keyHash(x));
            for (UpfEntity y : entities) {
                assertEquals(x + " ~ " + y, EntityKeys.key(x).equals(EntityKeys.key(y)), EntityKeys.sameKey(x, y));
            }
        }
        assertEquals("an uplink's key is its tunnel's address and TEID", true,
                     EntityKeys.sameKey(uplink(1, 1), uplink(1, 2)));
    }
}
