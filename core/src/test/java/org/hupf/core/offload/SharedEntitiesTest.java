package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.HashSet;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

/** A shared entity's record: the entity as written and the UEs that refer to it, by its type and number. */
public class SharedEntitiesTest {

    private static final long PEER = SharedEntities.ref(UpfEntityType.TUNNEL_PEER, 5);

    private static UeBook.Ue ue(int i) {
        Ip4Address a = Ip4Address.valueOf(0x0A000000 + i);
        return new UeBook.Ue(a, a.toInt());
    }

    private static Set<Integer> usersOf(SharedEntities shared, long ref) {
        IntMap<Ip4Address> users = new IntMap<>();
        shared.addUsersOf(ref, users);
        Set<Integer> bits = new HashSet<>();
        users.forEach((b, address) -> {
            assertEquals(b, address.toInt());
            bits.add(b);
        });
        return bits;
    }

    @Test
    public void aTunnelPeerKeepsEachOfItsManyUsersUntilEachLeaves() {
        SharedEntities shared = new SharedEntities();
        UeBook.Ue[] ues = new UeBook.Ue[301];
        Set<Integer> expected = new HashSet<>();
        for (int i = 1; i <= 300; i++) {
            ues[i] = ue(i);
            shared.refer(PEER, ues[i]);
            shared.refer(PEER, ues[i]);
            expected.add(ues[i].bits);
        }
        assertEquals(expected, usersOf(shared, PEER));
        for (int i = 1; i <= 300; i += 2) {
            shared.unrefer(PEER, ues[i]);
            expected.remove(ues[i].bits);
        }
        assertEquals("the others stay", expected, usersOf(shared, PEER));
        for (int i = 2; i <= 300; i += 2) {
            shared.unrefer(PEER, ues[i]);
        }
        assertEquals(Set.of(), usersOf(shared, PEER));
    }

    @Test
    public void theEntityAndItsUsersComeAndGoApart() {
        SharedEntities shared = new SharedEntities();
        UpfGtpTunnelPeer peer = UpfGtpTunnelPeer.builder().withTunnelPeerId(5)
                .withSrcAddr(Ip4Address.valueOf("192.168.0.1")).withDstAddr(Ip4Address.valueOf("192.168.1.10"))
                .withSrcPort(UpfGtpTunnelPeer.GTPU_PORT).build();
        assertEquals(PEER, SharedEntities.refOf(peer));
        UeBook.Ue user = ue(1);
        shared.refer(PEER, user);
        assertNull("referred to before it is written", shared.get(PEER));
        assertNull(shared.put(PEER, peer));
        assertSame(peer, shared.put(PEER, peer));
        shared.unrefer(PEER, user);
        assertSame("kept without users", peer, shared.get(PEER));
        assertSame(peer, shared.remove(PEER));
        assertNull(shared.get(PEER));
        assertNull(shared.remove(PEER));
    }

    @Test
    public void aReferenceIsItsTypeAndNumber() {
        long meter = SharedEntities.ref(UpfEntityType.SESSION_METER, 5);
        assertNotEquals(PEER, meter);
        assertNotEquals(meter, SharedEntities.ref(UpfEntityType.APPLICATION_METER, 5));
        assertEquals(meter, SharedEntities.refOf(UpfMeter.resetMeter(UpfMeter.Type.SESSION, 5)));
        assertNotEquals(SharedEntities.ref(UpfEntityType.SESSION_METER, -1),
                        SharedEntities.ref(UpfEntityType.APPLICATION_METER, 0));
        SharedEntities shared = new SharedEntities();
        shared.refer(meter, ue(1));
        assertEquals(Set.of(), usersOf(shared, PEER));
        assertEquals(Set.of(ue(1).bits), usersOf(shared, meter));
    }
}
