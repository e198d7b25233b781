package org.hupf.core.offload;

import java.util.AbstractCollection;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.IntFunction;

/**
 * A map from int keys (a UE address's 32 bits, a counter cell) to objects, without a box per key or a node per
 * entry: keys and values in two arrays, open addressing with linear probing, removal by shifting back the entries
 * that follow (no tombstones). A {@link java.util.HashMap} of a million entries holds 48-64 bytes per entry in
 * its Integer and node; this holds 8-16. Values are never null. Not thread-safe.
 *
 * @param <V> the values
 */
final class IntMap<V> {

    private static final int MIN_CAPACITY = 8;

    private int[] keys;
    private Object[] values;
    private int size;
    /** Slots at which the table grows: three quarters of them. */
    private int limit;
    private final Collection<V> valuesView = new Values();

    IntMap() {
        allocate(MIN_CAPACITY);
    }

    private void allocate(int capacity) {
        keys = new int[capacity];
        values = new Object[capacity];
        limit = capacity / 4 * 3;
    }

    /** A key's home slot: the bits mixed (cells and addresses are dense, low bits alike), masked to the table. */
    private int home(int key) {
        int h = key * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (keys.length - 1);
    }

    /** @return the slot holding the key, or the empty slot where it would go (its value null) */
    private int slotOf(int key) {
        int mask = keys.length - 1;
        int i = home(key);
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** @return the key's value, or null */
    @SuppressWarnings("unchecked")
    V get(int key) {
        return (V) values[slotOf(key)];
    }

    /**
     * @return the value the key had, or null
     * @throws NullPointerException if the value is null
     */
    @SuppressWarnings("unchecked")
    V put(int key, V value) {
        if (value == null) {
            throw new NullPointerException("null value for key " + key);
        }
        int i = slotOf(key);
        V before = (V) values[i];
        values[i] = value;
        if (before == null) {
            keys[i] = key;
            if (++size > limit) {
                grow();
            }
        }
        return before;
    }

    /** @return the key's value, made by {@code make} and put if it had none */
    @SuppressWarnings("unchecked")
    V computeIfAbsent(int key, IntFunction<V> make) {
        V v = (V) values[slotOf(key)];
        if (v == null) {
            v = make.apply(key);
            put(key, v);
        }
        return v;
    }

    /** @return the value the key had, or null */
    V remove(int key) {
        int i = slotOf(key);
        @SuppressWarnings("unchecked")
        V before = (V) values[i];
        if (before != null) {
            removeAt(i);
        }
        return before;
    }

    /**
     * Removes the key if it maps to this very value.
     *
     * @return whether it did
     */
    boolean remove(int key, V value) {
        int i = slotOf(key);
        if (values[i] == null || values[i] != value) {
            return false;
        }
        removeAt(i);
        return true;
    }

    /** Empties slot i, then moves back each entry after it that probing could no longer reach. */
    private void removeAt(int i) {
        int mask = keys.length - 1;
        values[i] = null;
        size--;
        int gap = i;
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            int home = home(keys[j]);
            // j's entry stays if its home lies cyclically in (gap, j]: probing from home reaches j without the gap.
            boolean reachable = gap <= j ? gap < home && home <= j : gap < home || home <= j;
            if (!reachable) {
                keys[gap] = keys[j];
                values[gap] = values[j];
                values[j] = null;
                gap = j;
            }
        }
    }

    /** Removes every entry, keeping the table's size. */
    void clear() {
        Arrays.fill(values, null);
        size = 0;
    }

    private void grow() {
        int[] oldKeys = keys;
        Object[] oldValues = values;
        allocate(2 * oldKeys.length);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                int j = slotOf(oldKeys[i]);
                keys[j] = oldKeys[i];
                values[j] = oldValues[i];
            }
        }
    }

    /** Takes each entry, in slot order. */
    interface Entries<V> {
        void accept(int key, V value);
    }

    /** Gives each entry in slot order; the map must not change meanwhile. */
    @SuppressWarnings("unchecked")
    void forEach(Entries<? super V> action) {
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null) {
                action.accept(keys[i], (V) values[i]);
            }
        }
    }

    /** @return the keys, in slot order (a copy) */
    int[] keys() {
        int[] out = new int[size];
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null) {
                out[n++] = keys[i];
            }
        }
        return out;
    }

    /** @return a live view of the values, in slot order (read-only: remove through the map) */
    Collection<V> values() {
        return valuesView;
    }

    private final class Values extends AbstractCollection<V> {
        @Override
        public int size() {
            return size;
        }

        @Override
        public Iterator<V> iterator() {
            return new Iterator<>() {
                private int next = advance(0);

                private int advance(int from) {
                    int i = from;
                    while (i < values.length && values[i] == null) {
                        i++;
                    }
                    return i;
                }

                @Override
                public boolean hasNext() {
                    return next < values.length;
                }

                @Override
                @SuppressWarnings("unchecked")
                public V next() {
                    if (next >= values.length) {
                        throw new NoSuchElementException();
                    }
                    V v = (V) values[next];
                    next = advance(next + 1);
                    return v;
                }
            };
        }
    }
}
