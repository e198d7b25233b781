package org.hupf.core.session;

import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The sessions' reference counts when a change keeps part of what a session holds: what it keeps is neither
 * released nor written again, what it loses goes once no one holds it, and a shared entry stays with its holders.
 */
public class EntityRefsTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");

    private static UpfGtpTunnelPeer peer(String gnb) {
        return UpfGtpTunnelPeer.builder().withTunnelPeerId(1).withSrcAddr(N3).withDstAddr(Ip4Address.valueOf(gnb))
                .withSrcPort(2152).build();
    }

    /** A UE's downlink: buffered, or forwarded to tunnel peer 1. */
    private static UpfSessionDownlink downlink(int ue, boolean forwarded) {
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(Ip4Address.valueOf(ue))
                .withSessionMeterIdx(1);
        return (forwarded ? b.withGtpTunnelPeerId(1) : b.needsBuffering(true)).build();
    }

    private static UpfCounter counter(int cell) {
        return UpfCounter.builder().withCellId(cell).build();
    }

    @Test
    public void aChangeMovesTheCountsOfWhatItGainsAndLosesOnly() throws Exception {
        EntityRefs refs = new EntityRefs();
        UpfGtpTunnelPeer shared = peer("192.168.1.10");
        refs.track(1, Set.of(shared, downlink(0x0A000001, false), counter(0)));
        refs.track(2, Set.of(shared, downlink(0x0A000002, false), counter(1)));

        Set<UpfEntity> before = refs.of(1);
        Set<UpfEntity> after = Set.of(shared, downlink(0x0A000001, true), counter(0));
        refs.checkSharedValues(1, after);
        refs.track(1, after);
        List<DeviceUpdate> updates = refs.updates(after, before, List.of(), Set.of());

        assertEquals("only the changed downlink is written, over its entry", 1, updates.size());
        assertTrue(updates.get(0).overwrites());
        assertEquals(downlink(0x0A000001, true), updates.get(0).entity());
        assertTrue(refs.all().contains(shared));
        assertFalse(refs.all().contains(downlink(0x0A000001, false)));
        assertEquals(5, refs.size());

        Set<UpfEntity> second = refs.of(2);
        refs.track(2, Set.of());
        List<DeviceUpdate> removals = refs.updates(Set.of(), second, List.of(), Set.of());
        assertEquals("session 2's own entries go, the peer session 1 holds stays", 2, removals.size());
        assertFalse(removals.stream().anyMatch(u -> u.entity().equals(shared)));
        assertTrue(refs.all().contains(shared));
        refs.track(1, Set.of());
        assertEquals(0, refs.size());
    }
}
