package org.hupf.core.session;

import org.hupf.core.util.ProbedTable;
import org.hupf.core.device.EntityKeys;
import org.hupf.pipeconf.api.UpfEntity;

import java.util.function.Consumer;

/**
 * The entity held under each table key ({@link EntityKeys}) and how many sessions hold it, for {@link EntityRefs}:
 * one open-addressed table of three parallel arrays (the key's hash, entity, count). A site holds a few entities
 * per session, 40,000 at 10,000 sessions: two hash maps of nodes (entity to boxed count, key to entity) cost two
 * cache misses per lookup and, with a key object per entity, 104 bytes per entity; here one lookup finds the count
 * and the entity together, an entity costs three slots, and no key is built.
 */
final class HeldByKey extends ProbedTable {

    private int[] hashes;
    private UpfEntity[] entities;
    private int[] counts;
    private int size;

    /** @param expected entities expected, to size the table once */
    HeldByKey(int expected) {
        allocate(capacityFor(expected));
    }

    private void allocate(int capacity) {
        hashes = new int[capacity];
        entities = new UpfEntity[capacity];
        counts = new int[capacity];
    }

    int size() {
        return size;
    }

    /**
     * @param e       an entity
     * @param keyHash its key's hash ({@link EntityKeys#keyHash})
     * @return the slot holding an entity with e's key, or {@code -(free slot) - 1} where e would go
     */
    int slot(UpfEntity e, int keyHash) {
        int mask = hashes.length - 1;
        for (int i = home(keyHash, mask); ; i = (i + 1) & mask) {
            UpfEntity held = entities[i];
            if (held == null) {
                return -i - 1;
            }
            if (hashes[i] == keyHash && (held.equals(e) || EntityKeys.sameKey(held, e))) {
                return i;
            }
        }
    }

    private static int home(int keyHash, int mask) {
        return (keyHash ^ (keyHash >>> 16)) & mask;
    }

    UpfEntity entity(int slot) {
        return entities[slot];
    }

    int count(int slot) {
        return counts[slot];
    }

    /** Holds {@code e}, held by {@code count} sessions, at the free slot {@link #slot} gave for it. */
    void insert(int freeSlot, int keyHash, UpfEntity e, int count) {
        int i = -freeSlot - 1;
        hashes[i] = keyHash;
        entities[i] = e;
        counts[i] = count;
        if (++size * 2 > hashes.length) {
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
    protected int capacity() {
        return hashes.length;
    }

    @Override
    protected boolean occupied(int slot) {
        return entities[slot] != null;
    }

    @Override
    protected int home(int slot) {
        return home(hashes[slot], hashes.length - 1);
    }

    @Override
    protected void move(int from, int to) {
        hashes[to] = hashes[from];
        entities[to] = entities[from];
        counts[to] = counts[from];
    }

    @Override
    protected void clear(int slot) {
        hashes[slot] = 0;
        entities[slot] = null;
        counts[slot] = 0;
    }

    /** Twice the slots: every entity held again. */
    private void rehash() {
        int[] oldHashes = hashes;
        UpfEntity[] oldEntities = entities;
        int[] oldCounts = counts;
        allocate(oldHashes.length * 2);
        int mask = hashes.length - 1;
        for (int j = 0; j < oldHashes.length; j++) {
            if (oldEntities[j] != null) {
                int i = home(oldHashes[j], mask);
                while (entities[i] != null) {
                    i = (i + 1) & mask;
                }
                hashes[i] = oldHashes[j];
                entities[i] = oldEntities[j];
                counts[i] = oldCounts[j];
            }
        }
    }
}
