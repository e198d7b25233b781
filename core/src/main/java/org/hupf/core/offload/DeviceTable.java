package org.hupf.core.offload;

import org.hupf.core.device.EntityKeys;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
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
     * Takes a reference on every entity, writing those that are new or changed in install order, in one device
     * write ({@link HupfUpfDevice#applyInOrder}). On a failed write this call's writes are undone and the exception
     * is rethrown.
     */
    void acquire(Collection<? extends UpfEntity> entities) throws UpfProgrammableException {
        List<UpfEntity> ordered = new ArrayList<>(distinct(entities).values());
        ordered.sort(Comparator.comparingInt(WriteOrder::installRank));
        List<UpfEntity> writes = new ArrayList<>();
        List<UpfEntity> added = new ArrayList<>();
        List<UpfEntity> replaced = new ArrayList<>();
        for (UpfEntity e : ordered) {
            Ref ref = refs.get(EntityKeys.key(e));
            if (ref == null) {
                writes.add(e);
                added.add(e);
            } else if (!ref.entity.equals(e)) {
                writes.add(e);
                replaced.add(ref.entity);
            }
        }
        if (!writes.isEmpty()) {
            try {
                device.applyInOrder(writes);
            } catch (UpfProgrammableException | RuntimeException ex) {
                undo(added, replaced);
                throw ex;
            }
        }
        for (UpfEntity e : ordered) {
            Ref ref = refs.computeIfAbsent(EntityKeys.key(e), k -> new Ref(e));
            if (ref.count == 0) {
                occupancy.merge(e.type(), 1, Integer::sum);
            }
            ref.entity = e;
            ref.count++;
        }
    }

    /**
     * Puts back what a failed write replaced, then removes what it added (the device may hold any of them): best
     * effort, the write's failure is what the caller must see.
     */
    private void undo(List<UpfEntity> added, List<UpfEntity> replaced) {
        try {
            if (!replaced.isEmpty()) {
                device.applyInOrder(replaced);
            }
        } catch (UpfProgrammableException | RuntimeException ignored) {
            // Best effort, as below.
        }
        try {
            if (!added.isEmpty()) {
                List<UpfEntity> removal = new ArrayList<>(added);
                Collections.reverse(removal);
                device.deleteInOrder(removal);
            }
        } catch (UpfProgrammableException | RuntimeException ignored) {
            // An entity the failed write never reached is not on the device to remove.
        }
    }

    /**
     * Drops a reference on every entity and deletes those no longer referenced, in removal order (sessions
     * first, so traffic falls back to steering before what it led to disappears), in one device write
     * ({@link HupfUpfDevice#deleteInOrder}: each deletion is attempted).
     */
    void release(Collection<? extends UpfEntity> entities) throws UpfProgrammableException {
        List<UpfEntity> ordered = new ArrayList<>(distinct(entities).values());
        ordered.sort(Comparator.comparingInt(WriteOrder::installRank).reversed());
        List<UpfEntity> deletes = new ArrayList<>();
        for (UpfEntity e : ordered) {
            Object key = EntityKeys.key(e);
            Ref ref = refs.get(key);
            if (ref == null || --ref.count > 0) {
                continue;
            }
            refs.remove(key);
            occupancy.merge(e.type(), -1, Integer::sum);
            deletes.add(ref.entity);
        }
        if (!deletes.isEmpty()) {
            device.deleteInOrder(deletes);
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
