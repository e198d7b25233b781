package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

/** Who refers to a shared entity, as entries are put, replaced and removed. */
public class UeBookTest {

    private static final Ip4Address UE1 = Ip4Address.valueOf("10.0.0.1");
    private static final Ip4Address UE2 = Ip4Address.valueOf("10.0.0.2");
    private static final long PEER = SharedEntities.ref(UpfEntityType.TUNNEL_PEER, 7);

    private static UpfSessionDownlink downlink(Ip4Address ue, int peer, int meter) {
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(ue).withSessionMeterIdx(meter);
        return (peer == 0 ? b.needsDropping(true) : b.withGtpTunnelPeerId(peer)).build();
    }

    private static Set<Integer> usersOf(SharedEntities shared, long ref) {
        IntMap<Ip4Address> users = new IntMap<>();
        shared.addUsersOf(ref, users);
        Set<Integer> bits = new HashSet<>();
        users.forEach((ue, address) -> {
            assertEquals(ue, Ip4Bits.of(address));
            bits.add(ue);
        });
        return bits;
    }

    private static long meter(int cell) {
        return SharedEntities.ref(UpfEntityType.SESSION_METER, cell);
    }

    @Test
    public void aSharedEntityKeepsItsUsersUntilTheirLastEntryReferringToItGoes() {
        SharedEntities shared = new SharedEntities();
        UeBook book = new UeBook(shared);
        book.put(UE1, Ip4Bits.of(UE1), downlink(UE1, 7, 5));
        assertEquals(Set.of(UE1.toInt()), usersOf(shared, PEER));
        book.put(UE2, Ip4Bits.of(UE2), downlink(UE2, 7, 6));
        assertEquals(Set.of(UE1.toInt(), UE2.toInt()), usersOf(shared, PEER));
        assertEquals(Set.of(UE1.toInt()), usersOf(shared, meter(5)));
        assertEquals("the overlay's key goes with its peer", Set.of(UE1.toInt(), UE2.toInt()),
                     usersOf(shared, SharedEntities.ref(UpfEntityType.PEER_VXLAN, 7)));

        book.remove(UE1.toInt(), downlink(UE1, 7, 5));
        assertEquals(Set.of(UE2.toInt()), usersOf(shared, PEER));
        assertEquals(Set.of(), usersOf(shared, meter(5)));
        assertEquals(0, book.get(UE1.toInt()).size());

        book.put(UE2, Ip4Bits.of(UE2), downlink(UE2, 0, 6));
        assertEquals("an entry replaced by one without the peer leaves it", Set.of(), usersOf(shared, PEER));
        assertEquals(Set.of(UE2.toInt()), usersOf(shared, meter(6)));
        assertEquals(1, book.get(UE2.toInt()).size());

        book.forget(UE1.toInt());
        assertNull(book.get(UE1.toInt()));
    }

    private static UpfSessionUplink uplink(Ip4Address ue, long teid, int meter) {
        return UpfSessionUplink.builder().withUeAddress(ue).setTunDstAddr(Ip4Address.valueOf("192.168.0.1"))
                .setTeid(teid).setSessionMeterIdx(meter).build();
    }

    /** An entry's key is its type and key fields: the same tunnel replaces, another TEID is another entry. */
    @Test
    public void anEntryWithTheSameKeyReplacesAndAnotherKeyAdds() {
        SharedEntities shared = new SharedEntities();
        UeBook book = new UeBook(shared);
        int bits = Ip4Bits.of(UE1);
        book.put(UE1, bits, uplink(UE1, 1, 5));
        book.put(UE1, bits, uplink(UE1, 1, 6));
        assertEquals("the same tunnel: replaced", 1, book.get(bits).size());
        assertEquals(Set.of(), usersOf(shared, meter(5)));
        assertEquals(Set.of(bits), usersOf(shared, meter(6)));
        book.put(UE1, bits, uplink(UE1, 2, 6));
        book.put(UE1, bits, downlink(UE1, 0, 6));
        assertEquals("another TEID, another type: added", 3, book.get(bits).size());
        book.remove(bits, uplink(UE1, 1, 0));
        assertEquals(2, book.get(bits).size());
        assertEquals("the others still refer to it", Set.of(bits), usersOf(shared, meter(6)));
        book.remove(bits, uplink(UE1, 3, 6));
        assertEquals("no entry of that key: nothing removed", 2, book.get(bits).size());
    }

    @Test
    public void aUeHoldsOneArrayItsKeysAndReferencesAreReadOffItsEntities() {
        // A million UEs are held: every array a UE holds costs its header and slack a UE (five arrays were ~200 B).
        long arrays = Arrays.stream(UeBook.Ue.class.getDeclaredFields()).filter(f -> f.getType().isArray()).count();
        assertEquals(1, arrays);
    }
}
