package org.hupf.core.util;

import org.junit.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.Assert.assertEquals;

/** The long-keyed map against java.util.HashMap, through growth and removals that shift probed entries back. */
public class LongMapTest {

    /** Keys in a small range around 0 (many collisions, many back-shifts), checked after each step. */
    @Test
    public void agreesWithAHashMapThroughRandomPutsAndRemovals() {
        Random random = new Random(32);
        LongMap<String> map = new LongMap<>();
        Map<Long, String> expected = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            long key = random.nextInt(3_000) - 1_000L;
            int op = random.nextInt(4);
            if (op == 0) {
                assertEquals(expected.remove(key), map.remove(key));
            } else if (op == 1) {
                String held = expected.get(key);
                String other = random.nextBoolean() || held == null ? "other" : held;
                assertEquals("removed only while it holds that value", expected.remove(key, other),
                             map.remove(key, other));
            } else {
                String v = "v" + step;
                assertEquals(expected.put(key, v), map.put(key, v));
            }
            assertEquals(expected.size(), map.size());
            long probe = random.nextInt(3_000) - 1_000L;
            assertEquals(expected.get(probe), map.get(probe));
            assertEquals(expected.containsKey(probe), map.containsKey(probe));
        }
    }
}
