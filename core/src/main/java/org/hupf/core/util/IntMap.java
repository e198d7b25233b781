package org.hupf.core.util;

import java.util.AbstractCollection;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.IntFunction;

/**
 * A map from int keys (a UE address's 32 bits, a counter cell) to objects, without a box per key or a node per
 * entry: keys and values in two arrays, a {@link ProbedTable} filled up to three quarters (its maps are the offload
 * side's per-UE and per-cell tables, a million entries at 1M sessions: memory counts more than a probe's length).
 * A {@link java.util.HashMap} of a million entries holds 48-64 bytes per entry in its Integer and node; this holds
 * 10-22. Values are never null. Not thread-safe.
 *
 * @param <V> the values
 */
public final class IntMap<V> extends ProbedTable {

    private int[] keys;
    private Object[] values;
    private int size;
    private final Collection<V> valuesView = new Values();

    public IntMap() {
        this(0);
    }

    /** @param expected entries expected, to size the table once */
    public IntMap(int expected) {
        allocate(capacityFor(expected));
    }

    private void allocate(int capacity) {
        keys = new int[capacity];
        values = new Object[capacity];
    }

    /** A key's home slot: the bits mixed (cells and addresses are dense, low bits alike), masked to the table. */
    private int homeOf(int key) {
        int h = key * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (keys.length - 1);
    }

    /** @return the slot holding the key, or the empty slot where it would go (its value null) */
    private int slotOf(int key) {
        int mask = keys.length - 1;
        int i = homeOf(key);
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** @return the key's value, or null */
    @SuppressWarnings("unchecked")
    public V get(int key) {
        return (V) values[slotOf(key)];
    }

    /**
     * @return the value the key had, or null
     * @throws NullPointerException if the value is null
     */
    @SuppressWarnings("unchecked")
    public V put(int key, V value) {
        if (value == null) {
            throw new NullPointerException("null value for key " + key);
        }
        int i = slotOf(key);
        V before = (V) values[i];
        values[i] = value;
        if (before == null) {
            keys[i] = key;
            if (++size > keys.length / 4 * 3) {
                grow();
            }
        }
        return before;
    }

    /** @return the key's value, made by {@code make} and put if it had none */
    @SuppressWarnings("unchecked")
    public V computeIfAbsent(int key, IntFunction<V> make) {
        V v = (V) values[slotOf(key)];
        if (v == null) {
            v = make.apply(key);
            put(key, v);
        }
        return v;
    }

    /** @return the value the key had, or null */
    public V remove(int key) {
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
    public boolean remove(int key, V value) {
        int i = slotOf(key);
        if (values[i] == null || values[i] != value) {
            return false;
        }
        removeAt(i);
        return true;
    }

    private void removeAt(int i) {
        free(i);
        size--;
    }

    @Override
    protected int capacity() {
        return keys.length;
    }

    @Override
    protected boolean occupied(int slot) {
        return values[slot] != null;
    }

    @Override
    protected int home(int slot) {
        return homeOf(keys[slot]);
    }

    @Override
    protected void move(int from, int to) {
        keys[to] = keys[from];
        values[to] = values[from];
    }

    @Override
    protected void clear(int slot) {
        values[slot] = null;
    }

    /** Removes every entry, keeping the table's size. */
    public void clear() {
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
    public interface Entries<V> {
        void accept(int key, V value);
    }

    /** Gives each entry in slot order; the map must not change meanwhile. */
    @SuppressWarnings("unchecked")
    public void forEach(Entries<? super V> action) {
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null) {
                action.accept(keys[i], (V) values[i]);
            }
        }
    }

    /** @return the keys, in slot order (a copy) */
    public int[] keys() {
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
    public Collection<V> values() {
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
