package org.hupf.core.translation;

import org.hupf.pipeconf.api.UpfEntity;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The entities of one session, immutable, in the order the translator made them: an array searched by each
 * entity's hash (which entities keep), not a hash table. A session holds about ten entities, and the session core
 * asks several times per change whether its sets hold one; a hash set's table and nodes, and the copy an immutable
 * set makes of one, were most of what those sets cost, and a session's set is kept as long as the session.
 */
public final class EntitySet extends AbstractSet<UpfEntity> {

    private static final EntitySet EMPTY = new EntitySet(new UpfEntity[0]);

    private final UpfEntity[] entities;

    private EntitySet(UpfEntity[] entities) {
        this.entities = entities;
    }

    /**
     * @param entities a set of entities
     * @return them as an entity set: the set itself when it is one
     */
    public static EntitySet copyOf(Set<? extends UpfEntity> entities) {
        if (entities instanceof EntitySet) {
            return (EntitySet) entities;
        }
        Builder b = new Builder();
        for (UpfEntity e : entities) {
            b.add(e);
        }
        return b.build();
    }

    @Override
    public int size() {
        return entities.length;
    }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof UpfEntity)) {
            return false;
        }
        return indexOf(entities, entities.length, (UpfEntity) o) >= 0;
    }

    private static int indexOf(UpfEntity[] entities, int size, UpfEntity e) {
        int h = e.hashCode();
        for (int i = 0; i < size; i++) {
            if (entities[i].hashCode() == h && entities[i].equals(e)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Iterator<UpfEntity> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < entities.length;
            }

            @Override
            public UpfEntity next() {
                if (next >= entities.length) {
                    throw new NoSuchElementException();
                }
                return entities[next++];
            }
        };
    }

    /** Collects entities, each once, in the order first added. */
    public static final class Builder {
        private UpfEntity[] entities = new UpfEntity[8];
        private int size;

        /**
         * Adds an entity unless an equal one is in already.
         *
         * @param e entity
         * @return this builder
         */
        public Builder add(UpfEntity e) {
            if (indexOf(entities, size, e) < 0) {
                if (size == entities.length) {
                    entities = Arrays.copyOf(entities, size * 2);
                }
                entities[size++] = e;
            }
            return this;
        }

        /** @return the set, its array as long as its entities (it is kept as long as its session) */
        public EntitySet build() {
            return size == 0 ? EMPTY : new EntitySet(size == entities.length ? entities
                    : Arrays.copyOf(entities, size));
        }
    }
}
