package org.hupf.core.util;

/**
 * Long keys (UP SEIDs, TEIDs, UE addresses' bits) to objects in two arrays, linear probing. The session core keeps
 * a few entries per session in such maps: a {@code HashMap<Long, V>} costs a node and a boxed key per entry (56
 * bytes) and a box per lookup, this 12 bytes per slot at most half full and nothing per lookup. Not thread-safe.
 * Values are never null.
 *
 * @param <V> value type
 */
public final class LongMap<V> extends ProbedTable {

    private long[] keys;
    private Object[] values;
    private int size;

    public LongMap() {
        this(0);
    }

    /** @param expected entries expected, to size the table once */
    public LongMap(int expected) {
        allocate(capacityFor(expected));
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new Object[capacity];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** @return the value under {@code key}, null when none */
    @SuppressWarnings("unchecked")
    public V get(long key) {
        int i = slot(key);
        return i < 0 ? null : (V) values[i];
    }

    public boolean containsKey(long key) {
        return slot(key) >= 0;
    }

    /** @return the value {@code value} replaced, null when none */
    @SuppressWarnings("unchecked")
    public V put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("no null values");
        }
        int i = slot(key);
        if (i >= 0) {
            V old = (V) values[i];
            values[i] = value;
            return old;
        }
        keys[-i - 1] = key;
        values[-i - 1] = value;
        if (++size * 2 > keys.length) {
            rehash();
        }
        return null;
    }

    /** @return the value removed, null when none */
    @SuppressWarnings("unchecked")
    public V remove(long key) {
        int i = slot(key);
        if (i < 0) {
            return null;
        }
        V old = (V) values[i];
        free(i);
        size--;
        return old;
    }

    /** Removes {@code key} only while it maps to {@code value}: what another holder took meanwhile stays. */
    public boolean remove(long key, Object value) {
        int i = slot(key);
        if (i < 0 || !values[i].equals(value)) {
            return false;
        }
        free(i);
        size--;
        return true;
    }

    /** @return the slot holding {@code key}, or {@code -(free slot) - 1} */
    private int slot(long key) {
        int mask = keys.length - 1;
        for (int i = home(key, mask); ; i = (i + 1) & mask) {
            if (values[i] == null) {
                return -i - 1;
            }
            if (keys[i] == key) {
                return i;
            }
        }
    }

    /** SEIDs are random, but TEIDs and UE addresses consecutive: the key's bits mixed (Fibonacci hashing). */
    private static int home(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ h >>> 32) & mask;
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
        return home(keys[slot], keys.length - 1);
    }

    @Override
    protected void move(int from, int to) {
        keys[to] = keys[from];
        values[to] = values[from];
    }

    @Override
    protected void clear(int slot) {
        keys[slot] = 0;
        values[slot] = null;
    }

    /** Twice the slots: every entry put again. */
    private void rehash() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        allocate(oldKeys.length * 2);
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldValues[j] != null) {
                int free = -slot(oldKeys[j]) - 1;
                keys[free] = oldKeys[j];
                values[free] = oldValues[j];
            }
        }
    }
}
