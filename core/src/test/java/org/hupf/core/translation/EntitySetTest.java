package org.hupf.core.translation;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.junit.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

/** A session's entities: each once, in the order the translator made them, and a set as any other. */
public class EntitySetTest {

    private static UpfCounter counter(int cell) {
        return UpfCounter.builder().withCellId(cell).build();
    }

    @Test
    public void keepsEachEntityOnceInTheOrderFirstAdded() {
        EntitySet.Builder b = new EntitySet.Builder();
        for (int i = 20; i > 0; i--) {
            b.add(counter(i)).add(counter(20));
        }
        EntitySet set = b.build();
        assertEquals(20, set.size());
        List<UpfEntity> order = new ArrayList<>(set);
        for (int i = 0; i < 20; i++) {
            assertEquals(counter(20 - i), order.get(i));
        }
        assertTrue(set.contains(counter(7)));
        assertFalse(set.contains(counter(21)));
        assertFalse(set.contains("counter 7"));
    }

    @Test
    public void equalsAHashSetOfTheSameEntitiesAndIsCopiedOnlyFromAnotherSet() {
        Set<UpfEntity> hashed = new HashSet<>(List.of(counter(1), counter(2), counter(3)));
        EntitySet set = EntitySet.copyOf(hashed);
        assertEquals(hashed, set);
        assertEquals(set, hashed);
        assertEquals(hashed.hashCode(), set.hashCode());
        assertSame(set, EntitySet.copyOf(set));
        assertTrue(EntitySet.copyOf(Set.of()).isEmpty());
    }
}
