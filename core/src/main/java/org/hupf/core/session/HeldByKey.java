package org.hupf.core.session;

import org.hupf.pipeconf.api.UpfEntity;

import java.util.function.Consumer;

/**
 * The entity held under each table key and how many sessions hold it, for {@link EntityRefs}: one open-addressed
 * table of three parallel arrays (key, entity, count). A site holds a few entities per session, 40,000 at 10,000
 * sessions: two hash maps of nodes (entity to boxed count, key to entity) cost two cache misses per lookup and 64
 * bytes of nodes per entity; here one lookup finds the count and the entity together, and an entity costs its key
 * and three slots.
 */
final class HeldByKey extends ProbedTable {

    private Object[] keys;
    private UpfEntity[] entities;
    private int[] counts;
    private int size;

    /** @param expected entities expected, to size the table once */
    HeldByKey(int expected) {
        allocate(capacityFor(expected));
    }

    private void allocate(int capacity) {
        keys = new Object[capacity];
        entities = new UpfEntity[capacity];
        counts = new int[capacity];
    }

    int size() {
        return size;
    }

    /** @return the slot holding {@code key}, or {@code -(free slot) - 1} where it would go */
    int slot(Object key) {
        int mask = keys.length - 1;
        for (int i = home(key, mask); ; i = (i + 1) & mask) {
            Object k = keys[i];
            if (k == null) {
                return -i - 1;
            }
            if (k.equals(key)) {
                return i;
            }
        }
    }

    private static int home(Object key, int mask) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & mask;
    }

    UpfEntity entity(int slot) {
        return entities[slot];
    }

    int count(int slot) {
        return counts[slot];
    }

    /** Holds {@code e} under {@code key}, held by {@code count} sessions, at the free slot {@link #slot} gave. */
    void insert(int freeSlot, Object key, UpfEntity e, int count) {
        int i = -freeSlot - 1;
        keys[i] = key;
        entities[i] = e;
        counts[i] = count;
        if (++size * 2 > keys.length) {
            rehash();
        }
    }

    /** @return the slot's count after one more holder */
    int increment(int slot) {
        return ++counts[slot];
    }

    /** @return the slot's count after one holder less: at 0 the slot is freed (other slots may move) */
    int decrement(int slot) {
        int left = --counts[slot];
        if (left == 0) {
            free(slot);
            size--;
        }
        return left;
    }

    /** Calls {@code each} with every entity held. */
    void forEach(Consumer<UpfEntity> each) {
        for (UpfEntity e : entities) {
            if (e != null) {
                each.accept(e);
            }
        }
    }

    @Override
    int capacity() {
        return keys.length;
    }

    @Override
    boolean occupied(int slot) {
        return keys[slot] != null;
    }

    @Override
    int home(int slot) {
        return home(keys[slot], keys.length - 1);
    }

    @Override
    void move(int from, int to) {
        keys[to] = keys[from];
        entities[to] = entities[from];
        counts[to] = counts[from];
    }

    @Override
    void clear(int slot) {
        keys[slot] = null;
        entities[slot] = null;
        counts[slot] = 0;
    }

    /** Twice the slots: every entity held again. */
    private void rehash() {
        Object[] oldKeys = keys;
        UpfEntity[] oldEntities = entities;
        int[] oldCounts = counts;
        allocate(oldKeys.length * 2);
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = -slot(oldKeys[j]) - 1;
                keys[i] = oldKeys[j];
                entities[i] = oldEntities[j];
                counts[i] = oldCounts[j];
            }
        }
    }
}
