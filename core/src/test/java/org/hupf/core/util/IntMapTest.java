package org.hupf.core.util;

import org.junit.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

/** The int-keyed map against java.util.HashMap, through growth and removals that shift probed entries back. */
public class IntMapTest {

    /** Random puts and removals over a small key range (many collisions, many back-shifts), checked after each. */
    @Test
    public void agreesWithAHashMapThroughRandomPutsAndRemovals() {
        Random random = new Random(32);
        IntMap<String> map = new IntMap<>();
        Map<Integer, String> expected = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            // Keys 0, negatives and dense ranges: the shapes of UE bits and counter cells.
            int key = random.nextInt(3_000) - 1_000;
            if (random.nextInt(3) == 0) {
                assertEquals(expected.remove(key), map.remove(key));
            } else {
                String v = "v" + step;
                assertEquals(expected.put(key, v), map.put(key, v));
            }
            assertEquals(expected.size(), map.size());
            int probe = random.nextInt(3_000) - 1_000;
            assertEquals(expected.get(probe), map.get(probe));
        }
        Map<Integer, String> seen = new HashMap<>();
        map.forEach((k, v) -> assertNull("each key once", seen.put(k, v)));
        assertEquals(expected, seen);
        assertEquals(expected.size(), map.values().size());
        List<String> values = new ArrayList<>(map.values());
        values.sort(null);
        List<String> expectedValues = new ArrayList<>(expected.values());
        expectedValues.sort(null);
        assertEquals(expectedValues, values);
    }

    @Test
    public void aMillionDenseKeysAllFoundAndAllRemoved() {
        IntMap<Integer> map = new IntMap<>();
        int base = 0x0A000000;
        for (int i = 0; i < 1_000_000; i++) {
            map.put(base + i, i);
        }
        assertEquals(1_000_000, map.size());
        for (int i = 0; i < 1_000_000; i++) {
            assertEquals(Integer.valueOf(i), map.get(base + i));
        }
        assertNull(map.get(base - 1));
        for (int i = 0; i < 1_000_000; i += 2) {
            assertEquals(Integer.valueOf(i), map.remove(base + i));
        }
        for (int i = 0; i < 1_000_000; i++) {
            assertEquals(i % 2 == 0 ? null : Integer.valueOf(i), map.get(base + i));
        }
        assertEquals(500_000, map.size());
    }

    @Test
    public void removeOfAValueRemovesOnlyThatValue() {
        IntMap<Object> map = new IntMap<>();
        Object holder = new Object();
        Object other = new Object();
        map.put(7, holder);
        assertFalse("another value under the key stays", map.remove(7, other));
        assertSame(holder, map.get(7));
        assertTrue(map.remove(7, holder));
        assertTrue(map.isEmpty());
        assertFalse(map.remove(7, holder));
    }

    @Test
    public void computeIfAbsentMakesOnlyForAnAbsentKey() {
        IntMap<List<Integer>> map = new IntMap<>();
        List<Integer> first = map.computeIfAbsent(3, k -> new ArrayList<>(List.of(k)));
        assertSame(first, map.computeIfAbsent(3, k -> {
            throw new AssertionError("made again");
        }));
        assertEquals(List.of(3), map.get(3));
    }

    @Test(expected = NullPointerException.class)
    public void nullValuesAreRefused() {
        new IntMap<String>().put(1, null);
    }
}
