package org.hupf.core.offload;

import org.hupf.core.device.EntityKeys;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The entries the manager holds on one device, reference-counted by match key: sessions share tunnel
 * peers (one per gNB), and a changed session is installed as "acquire new, release old" so that keys
 * present in both are overwritten in place instead of deleted and re-added.
 */
final class DeviceTable {

    private static final class Ref {
        private UpfEntity entity;
        private int count;

        private Ref(UpfEntity entity) {
            this.entity = entity;
        }
    }

    private final HupfUpfDevice device;
    private final Map<Object, Ref> refs = new HashMap<>();
    private final Map<UpfEntityType, Integer> occupancy = new EnumMap<>(UpfEntityType.class);

    DeviceTable(HupfUpfDevice device) {
        this.device = device;
    }

    HupfUpfDevice device() {
        return device;
    }

    int occupancy(UpfEntityType type) {
        return occupancy.getOrDefault(type, 0);
    }

    /**
     * Counts, per type, the entries that acquiring these entities would add.
     */
    Map<UpfEntityType, Integer> newEntries(Collection<? extends UpfEntity> entities) {
        Map<UpfEntityType, Integer> n = new EnumMap<>(UpfEntityType.class);
        for (Map.Entry<Object, UpfEntity> e : distinct(entities).entrySet()) {
            if (!refs.containsKey(e.getKey())) {
                n.merge(e.getValue().type(), 1, Integer::sum);
            }
        }
        return n;
    }

    /**
     * Takes a reference on every entity, writing those that are new or changed, in install order.
     * On a failed write the writes of this call are undone and the exception is rethrown.
     */
    void acquire(Collection<? extends UpfEntity> entities) throws UpfProgrammableException {
        List<UpfEntity> ordered = new ArrayList<>(distinct(entities).values());
        ordered.sort(Comparator.comparingInt(WriteOrder::installRank));
        Deque<Object[]> undo = new ArrayDeque<>();
        try {
            for (UpfEntity e : ordered) {
                Object key = EntityKeys.key(e);
                Ref ref = refs.get(key);
                UpfEntity previous = ref == null ? null : ref.entity;
                if (ref == null || !ref.entity.equals(e)) {
                    device.apply(e);
                }
                if (ref == null) {
                    ref = new Ref(e);
                    refs.put(key, ref);
                    occupancy.merge(e.type(), 1, Integer::sum);
                }
                ref.entity = e;
                ref.count++;
                undo.push(new Object[]{key, previous});
            }
        } catch (UpfProgrammableException | RuntimeException ex) {
            rollback(undo);
            throw ex;
        }
    }

    private void rollback(Deque<Object[]> undo) {
        while (!undo.isEmpty()) {
            Object[] u = undo.pop();
            Object key = u[0];
            UpfEntity previous = (UpfEntity) u[1];
            Ref ref = refs.get(key);
            try {
                if (previous == null) {
                    device.delete(ref.entity);
                } else if (!previous.equals(ref.entity)) {
                    device.apply(previous);
                }
            } catch (UpfProgrammableException ignored) {
                // Best effort: the original failure is what the caller must see.
            }
            if (previous == null) {
                refs.remove(key);
                occupancy.merge(ref.entity.type(), -1, Integer::sum);
            } else {
                ref.entity = previous;
                ref.count--;
            }
        }
    }

    /**
     * Drops a reference on every entity and deletes those no longer referenced, in removal order
     * (sessions first, so traffic falls back to steering before what it led to disappears).
     * Every deletion is attempted; the first failure is rethrown at the end.
     */
    void release(Collection<? extends UpfEntity> entities) throws UpfProgrammableException {
        List<UpfEntity> ordered = new ArrayList<>(distinct(entities).values());
        ordered.sort(Comparator.comparingInt(WriteOrder::installRank).reversed());
        UpfProgrammableException first = null;
        for (UpfEntity e : ordered) {
            Object key = EntityKeys.key(e);
            Ref ref = refs.get(key);
            if (ref == null) {
                continue;
            }
            if (--ref.count > 0) {
                continue;
            }
            refs.remove(key);
            occupancy.merge(e.type(), -1, Integer::sum);
            try {
                device.delete(ref.entity);
            } catch (UpfProgrammableException ex) {
                first = first == null ? ex : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static Map<Object, UpfEntity> distinct(Collection<? extends UpfEntity> entities) {
        Map<Object, UpfEntity> m = new LinkedHashMap<>();
        for (UpfEntity e : entities) {
            m.put(EntityKeys.key(e), e);
        }
        return m;
    }
}
