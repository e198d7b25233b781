package org.hupf.app.core;

import org.hupf.api.session.Cause;
import org.hupf.api.session.RuleException;
import org.hupf.app.device.DeviceUpdate;
import org.hupf.app.device.EntityKeys;
import org.hupf.pipeconf.HupfTables;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The UPF entities the sessions hold, for {@link SessionManager}: each session's set, and every entity's
 * reference count across sessions (applications and tunnel peers are shared), with the entity held under each
 * table key. Not thread-safe: the manager calls it under its lock.
 */
final class EntityRefs {

    /** Each entity type's install rank, the contract's write rank (p4src/contract.toml); removal runs in reverse. */
    private static final int[] RANK = new int[UpfEntityType.values().length];

    static {
        for (UpfEntityType t : UpfEntityType.values()) {
            RANK[t.ordinal()] = HupfTables.INSTALL_ORDER.indexOf(t);
        }
    }

    private final Map<Long, Set<UpfEntity>> bySession = new HashMap<>();
    private final Map<UpfEntity, Integer> refs = new HashMap<>();
    /** Keys written since a reconciliation's read began (null when none reads), and how many read. */
    private Set<Object> changedWhileRead;
    private int watchers;
    /** The entity sessions hold under each key: a table entry has one value, whichever session asks for it. */
    private final Map<Object, UpfEntity> heldByKey = new HashMap<>();

    /** @return the entities a session holds (empty for an unknown one) */
    Set<UpfEntity> of(long upSeid) {
        return bySession.getOrDefault(upSeid, Set.of());
    }

    boolean holds(long upSeid) {
        return bySession.containsKey(upSeid);
    }

    /** @return every entity some session holds */
    Set<UpfEntity> all() {
        return refs.keySet();
    }

    int size() {
        return refs.size();
    }

    /**
     * Refuses entities that would give an entry other sessions hold another value: a shared entity's value
     * changes only with the configuration (a tenant's overlay edited in the netcfg), and the sessions that hold
     * the entry keep its value until they go.
     */
    void checkSharedValues(long upSeid, Set<UpfEntity> entities) throws RuleException {
        Set<UpfEntity> own = of(upSeid);
        for (UpfEntity e : entities) {
            UpfEntity held = heldByKey.get(EntityKeys.key(e));
            int others = held == null || held.equals(e) ? 0 : refs.get(held) - (own.contains(held) ? 1 : 0);
            if (others > 0) {
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, -1, 0, e + " would replace " + held
                        + ", which " + others + " other session(s) hold: the configuration changed since they were"
                        + " set up (a tenant's overlay?); they keep it until they go");
            }
        }
    }

    /** Gives a session a new entity set (empty: none), moving the reference counts. */
    void track(long upSeid, Set<UpfEntity> entities) {
        for (UpfEntity e : of(upSeid)) {
            if (refs.computeIfPresent(e, (k, v) -> v == 1 ? null : v - 1) == null) {
                heldByKey.remove(EntityKeys.key(e), e);
            }
        }
        for (UpfEntity e : entities) {
            refs.merge(e, 1, Integer::sum);
            heldByKey.putIfAbsent(EntityKeys.key(e), e);
        }
        if (entities.isEmpty()) {
            bySession.remove(upSeid);
        } else {
            bySession.put(upSeid, Set.copyOf(entities));
        }
    }

    /**
     * One batch of a change from {@code previous} to {@code wanted}, the reference counts already moved: the
     * removals of what no session or interface needs any more (dependents first), the resets of counter cells
     * new to a session, and the additions (what others refer to first), as the pipeline contract orders them.
     */
    List<DeviceUpdate> updates(Set<? extends UpfEntity> wanted, Set<? extends UpfEntity> previous,
                               List<UpfCounter> resets, Set<UpfInterface> interfaces) {
        List<DeviceUpdate> updates = diff(wanted, previous, resets, interfaces);
        if (changedWhileRead != null) {
            updates.forEach(u -> changedWhileRead.add(EntityKeys.key(u.entity())));
        }
        return updates;
    }

    /**
     * Starts recording the keys of what the changes write from now on: a reconciliation that reads the devices
     * without holding the manager leaves those to the writes already on their way (a removal done twice is
     * refused NOT_FOUND, an insertion done twice ALREADY_EXISTS).
     */
    void watchChanges() {
        if (watchers++ == 0) {
            changedWhileRead = new HashSet<>();
        }
    }

    /** @return the keys written since {@link #watchChanges()}; the recording stops with its last watcher */
    Set<Object> changesWatched() {
        Set<Object> changed = changedWhileRead == null ? Set.of() : Set.copyOf(changedWhileRead);
        if (watchers > 0 && --watchers == 0) {
            changedWhileRead = null;
        }
        return changed;
    }

    private List<DeviceUpdate> diff(Set<? extends UpfEntity> wanted, Set<? extends UpfEntity> previous,
                                    List<UpfCounter> resets, Set<UpfInterface> interfaces) {
        Set<Object> wantedKeys = new HashSet<>();
        wanted.forEach(e -> wantedKeys.add(EntityKeys.key(e)));
        List<UpfEntity> removals = new ArrayList<>();
        for (UpfEntity e : previous) {
            if (!wanted.contains(e) && !refs.containsKey(e) && !interfaces.contains(e)
                    && !wantedKeys.contains(EntityKeys.key(e))) {
                removals.add(e);
            }
        }
        List<UpfEntity> additions = new ArrayList<>();
        for (UpfEntity e : wanted) {
            // What another session holds is on the devices, or queued ahead of this batch: a gNB's tunnel peer is
            // written with its first session, not again (an INSERT answered ALREADY_EXISTS, then a MODIFY) with each.
            if (!previous.contains(e) && refs.getOrDefault(e, 0) <= 1) {
                additions.add(e);
            }
        }
        additions.sort(Comparator.comparingInt(e -> RANK[e.type().ordinal()]));
        removals.sort(Comparator.comparingInt(e -> -RANK[e.type().ordinal()]));
        List<DeviceUpdate> updates = new ArrayList<>(removals.size() + resets.size() + additions.size());
        removals.forEach(e -> updates.add(DeviceUpdate.remove(e)));
        resets.forEach(c -> updates.add(DeviceUpdate.apply(c)));
        additions.forEach(e -> updates.add(DeviceUpdate.apply(e)));
        return updates;
    }
}
