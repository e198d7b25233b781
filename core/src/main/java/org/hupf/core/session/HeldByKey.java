package org.hupf.core.session;

import org.hupf.pipeconf.api.UpfEntity;

import java.util.function.Consumer;

/**
 * The entity held under each table key and how many sessions hold it, for {@link EntityRefs}: one open-addressed
 * table of three parallel arrays (key, entity, count), linear probing, removal by shifting back (no tombstones).
 * A site holds a few entities per session, 40,000 at 10,000 sessions: two hash maps of nodes (entity to boxed count,
 * key to entity) cost two cache misses per lookup and 64 bytes of nodes per entity; here one lookup finds the
 * count and the entity together, and an entity costs its key and three slots.
 */
final class HeldByKey {

    private static final int MIN_CAPACITY = 16;

    private Object[] keys;
    private UpfEntity[] entities;
    private int[] counts;
    private int size;

    /** @param expected entities expected, to size the table once */
    HeldByKey(int expected) {
        int capacity = MIN_CAPACITY;
        while (capacity < expected * 2L && capacity < 1 << 30) {
            capacity <<= 1;
        }
        allocate(capacity);
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

    /** Holds {@code e} under {@code key} by {@code count} sessions, at the free slot {@link #slot} gave (no change since). */
    void insert(int freeSlot, Object key, UpfEntity e, int count) {
        int i = -freeSlot - 1;
        keys[i] = key;
        entities[i] = e;
        counts[i] = count;
        if (++size * 2 > keys.length) {
            grow();
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
            removeAt(slot);
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

    private void removeAt(int slot) {
        int mask = keys.length - 1;
        int free = slot;
        for (int i = (slot + 1) & mask; keys[i] != null; i = (i + 1) & mask) {
            int home = home(keys[i], mask);
            // The entry at i may fill the free slot unless its home lies cyclically in (free, i].
            boolean stays = free <= i ? free < home && home <= i : free < home || home <= i;
            if (!stays) {
                keys[free] = keys[i];
                entities[free] = entities[i];
                counts[free] = counts[i];
                free = i;
            }
        }
        keys[free] = null;
        entities[free] = null;
        counts[free] = 0;
        size--;
    }

    private void grow() {
        Object[] oldKeys = keys;
        UpfEntity[] oldEntities = entities;
        int[] oldCounts = counts;
        allocate(oldKeys.length * 2);
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = home(oldKeys[j], mask);
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                entities[i] = oldEntities[j];
                counts[i] = oldCounts[j];
            }
        }
    }
}
