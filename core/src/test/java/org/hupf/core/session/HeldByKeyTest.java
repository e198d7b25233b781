package org.hupf.core.session;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The table of held entities against a HashMap of counts, through growth and removals that shift probed entries
 * back; and {@link EntityRefs} counting an entity held under a key another entity holds.
 */
public class HeldByKeyTest {

    /** A key hash that puts many counters in one home slot: long probe runs, wrapping past the table's end. */
    private static int crowdedHash(int cell) {
        return cell % 7 == 0 ? -1 : cell % 13;
    }

    private static UpfCounter counter(int cell) {
        return UpfCounter.builder().withCellId(cell).build();
    }

    @Test
    public void agreesWithAHashMapThroughRandomGainsAndReleases() {
        Random random = new Random(32);
        HeldByKey table = new HeldByKey(0);
        Map<Integer, Integer> expected = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            int id = random.nextInt(400);
            int slot = table.slot(counter(id), crowdedHash(id));
            if (random.nextInt(2) == 0) {
                if (slot < 0) {
                    table.insert(slot, crowdedHash(id), counter(id), 1);
                } else {
                    table.increment(slot);
                }
                expected.merge(id, 1, Integer::sum);
            } else if (slot >= 0) {
                Integer left = expected.compute(id, (k, v) -> v == 1 ? null : v - 1);
                assertEquals(left == null ? 0 : left, table.decrement(slot));
            } else {
                assertFalse(expected.containsKey(id));
            }
            assertEquals(expected.size(), table.size());
            int probe = random.nextInt(400);
            int at = table.slot(counter(probe), crowdedHash(probe));
            assertEquals(expected.containsKey(probe), at >= 0);
            if (at >= 0) {
                assertEquals((int) expected.get(probe), table.count(at));
                assertEquals(counter(probe), table.entity(at));
            }
        }
        Set<UpfEntity> all = new HashSet<>();
        table.forEach(all::add);
        assertEquals(expected.size(), all.size());
    }

    private static UpfSessionDownlink downlink(boolean buffered) {
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder().withUeAddress(Ip4Address.valueOf(0x0A000001))
                .withSessionMeterIdx(1);
        return (buffered ? b.needsBuffering(true) : b.withGtpTunnelPeerId(1)).build();
    }

    /**
     * Two values under one key (sessions tracked without their check, as stored sessions are): each is counted, and
     * the second keeps its count when the first goes and another session takes the second (not written again).
     */
    @Test
    public void anEntityUnderAnotherOnesKeyKeepsItsCount() {
        EntityRefs refs = new EntityRefs();
        UpfSessionDownlink first = downlink(true);
        UpfSessionDownlink second = downlink(false);
        refs.track(1, Set.of(first));
        refs.track(2, Set.of(second));
        assertEquals(Set.of(first, second), refs.all());

        refs.track(1, Set.of());
        Set<UpfEntity> taken = Set.of(second);
        refs.track(3, taken);
        assertEquals("session 2's entry is on the devices already", List.of(),
                     refs.updates(taken, Set.of(), List.of(), Set.of()));
        refs.track(2, Set.of());
        assertEquals("session 3 still holds it", Set.of(second), refs.all());
        Set<UpfEntity> before = refs.of(3);
        refs.track(3, Set.of());
        List<?> updates = refs.updates(Set.of(), before, List.of(), Set.of());
        assertEquals(1, updates.size());
        assertTrue(refs.all().isEmpty());
    }
}
