package org.hupf.api.session;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;

/**
 * A session's allocations ({@link PfcpSession#allocations}), immutable: its resource keys, sorted and shared by the
 * sessions holding the same set (a million sessions hold a few sets), and its cells in an {@code int[]}. A
 * {@code Map.copyOf} held a hash table, an entry and an {@code Integer} per cell, ~170 bytes a session.
 */
public final class Allocations extends AbstractMap<String, Integer> {

    /** Past this many keys a lookup searches the sorted keys in halves; below, a scan of shared strings is faster. */
    private static final int SCANNED = 8;
    private static final int BITS = 10;
    /**
     * Direct-mapped, like {@link SharedLongs}: a racing thread only shares less. An array's elements are not final:
     * it is published with a release and read with an acquire, so a thread sharing it sees them filled.
     */
    private static final AtomicReferenceArray<String[]> KEY_SETS = new AtomicReferenceArray<>(1 << BITS);
    private static final Allocations EMPTY = new Allocations(new String[0], new int[0]);

    private final String[] keys;
    private final int[] cells;

    private Allocations(String[] keys, int[] cells) {
        this.keys = keys;
        this.cells = cells;
    }

    /**
     * @return an immutable copy of {@code m} ({@code m} itself when it is one)
     * @throws NullPointerException for a null key or cell, as {@code Map.copyOf}
     */
    public static Map<String, Integer> copyOf(Map<String, Integer> m) {
        if (m instanceof Allocations) {
            return m;
        }
        if (m.isEmpty()) {
            return EMPTY;
        }
        String[] keys = m.keySet().toArray(new String[0]);
        Arrays.sort(keys);
        int[] cells = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            cells[i] = Objects.requireNonNull(m.get(keys[i]), "null cell");
        }
        return new Allocations(shared(keys), cells);
    }

    /** @return the held array equal to {@code keys} when there is one, else {@code keys}, now held */
    private static String[] shared(String[] keys) {
        int slot = Arrays.hashCode(keys) * 0x9E3779B9 >>> (32 - BITS);
        String[] held = KEY_SETS.get(slot);
        if (Arrays.equals(held, keys)) {
            return held;
        }
        for (int i = 0; i < keys.length; i++) {
            keys[i] = keys[i].intern();
        }
        KEY_SETS.lazySet(slot, keys);
        return keys;
    }

    private int indexOf(Object key) {
        if (!(key instanceof String)) {
            return -1;
        }
        if (keys.length > SCANNED) {
            int at = Arrays.binarySearch(keys, (String) key);
            return at < 0 ? -1 : at;
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Integer get(Object key) {
        int at = indexOf(key);
        return at < 0 ? null : cells[at];
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Integer> action) {
        for (int i = 0; i < keys.length; i++) {
            action.accept(keys[i], cells[i]);
        }
    }

    @Override
    public Set<Entry<String, Integer>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Integer>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < keys.length;
                    }

                    @Override
                    public Entry<String, Integer> next() {
                        if (next == keys.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(keys[i], cells[i]);
                    }
                };
            }

            @Override
            public int size() {
                return keys.length;
            }
        };
    }
}
