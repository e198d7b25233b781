package org.hupf.core.session;

import org.hupf.core.util.LongMap;
import org.hupf.api.session.Cause;
import org.hupf.api.session.RuleException;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.core.device.EntityKeys;
import org.hupf.core.translation.EntitySet;
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
 *
 * <p>A restarted manager hands its stored sessions over with {@link #trackLater}: translating 100,000 sessions takes
 * CPU seconds, which PFCP need not wait for (heartbeats and associations do not read these refs); the first use of
 * any method tracks them, and the manager does it on its own thread meanwhile.
 */
final class EntityRefs {

    /** Each entity type's install rank, the contract's write rank (p4src/contract.toml); removal runs in reverse. */
    private static final int[] RANK = new int[UpfEntityType.values().length];

    static {
        for (UpfEntityType t : UpfEntityType.values()) {
            RANK[t.ordinal()] = HupfTables.INSTALL_ORDER.indexOf(t);
        }
    }

    private static final Comparator<UpfEntity> INSTALL_ORDER = Comparator.comparingInt(e -> RANK[e.type().ordinal()]);
    private static final Comparator<UpfEntity> REMOVAL_ORDER = INSTALL_ORDER.reversed();

    private LongMap<Set<UpfEntity>> bySession = new LongMap<>();
    /** The entity held under each key, with how many sessions hold it. */
    private HeldByKey held = new HeldByKey(0);
    /**
     * Entities held under a key another entity holds (stored sessions worked out after the configuration changed,
     * a set tracked without its check): counted apart, never the entry's value.
     */
    private final Map<UpfEntity, Integer> displaced = new HashMap<>();
    /** Keys written since a reconciliation's read began (null when none reads), and how many read. */
    private Set<Object> changedWhileRead;
    private int watchers;
    /**
     * The set {@link #checkSharedValues} last checked and the key hashes it worked out for it, in its order (for the
     * entities the session did not hold), for the {@link #track} of that set, which follows it under the same lock.
     */
    private Set<UpfEntity> checked;
    private int[] checkedHashes = new int[16];
    /**
     * The sets the last {@link #track} went from and to, and the counts it left each of their entities with (in
     * the sets' order), for the {@link #updates} of that change, which follows it under the same lock.
     */
    private Set<? extends UpfEntity> trackedFrom;
    private Set<? extends UpfEntity> trackedTo;
    private int[] countsFrom = new int[16];
    private int[] countsTo = new int[16];
    /** Gives each stored session its entities (null: none waiting); run at the first use of these refs. */
    private StoredSessions untracked;

    /** What a restarted manager's stored sessions hold, worked out when the refs are first needed. */
    interface StoredSessions {
        /** @return how many sessions there are, to size the maps for them at once */
        int count();

        /** Calls {@code track} with each session's UP SEID and entities. */
        void forEach(Tracker track);
    }

    interface Tracker {
        void track(long upSeid, Set<UpfEntity> entities);
    }

    /** Defers tracking the stored sessions to the first use of these refs (which must hold nothing yet). */
    void trackLater(StoredSessions stored) {
        if (!bySession.isEmpty() || untracked != null) {
            throw new IllegalStateException("stored sessions are tracked into empty refs, once");
        }
        untracked = stored;
    }

    /** Tracks the stored sessions handed to {@link #trackLater}, if that is not done yet. */
    void trackStored() {
        StoredSessions stored = untracked;
        if (stored == null) {
            return;
        }
        untracked = null;
        int n = stored.count();
        // Sized once for what the sessions hold (a few entities each, some shared): no rehash while they load.
        bySession = new LongMap<>(n);
        held = new HeldByKey(ENTITIES_PER_SESSION * n);
        stored.forEach(this::track);
    }

    /** What a session commonly holds (sessions, terminations, a tunnel peer...): only sizes the maps. */
    private static final int ENTITIES_PER_SESSION = 4;

    /** @return the entities a session holds (empty for an unknown one) */
    Set<UpfEntity> of(long upSeid) {
        trackStored();
        Set<UpfEntity> entities = bySession.get(upSeid);
        return entities == null ? Set.of() : entities;
    }

    boolean holds(long upSeid) {
        trackStored();
        return bySession.containsKey(upSeid);
    }

    /** @return every entity some session holds */
    Set<UpfEntity> all() {
        trackStored();
        Set<UpfEntity> all = new HashSet<>(displaced.keySet());
        held.forEach(all::add);
        return all;
    }

    int size() {
        trackStored();
        return held.size() + displaced.size();
    }

    /**
     * Refuses entities that would give an entry other sessions hold another value: a shared entity's value
     * changes only with the configuration (a tenant's overlay edited in the netcfg), and the sessions that hold
     * the entry keep its value until they go.
     */
    void checkSharedValues(long upSeid, Set<UpfEntity> entities) throws RuleException {
        trackStored();
        Set<UpfEntity> own = of(upSeid);
        checked = null;
        checkedHashes = room(checkedHashes, entities.size());
        int i = 0;
        for (UpfEntity e : entities) {
            if (own.contains(e)) {
                i++;
                continue;  // kept as the session has it: its entry does not change
            }
            int keyHash = EntityKeys.keyHash(e);
            checkedHashes[i++] = keyHash;
            int slot = held.slot(e, keyHash);
            UpfEntity holding = slot < 0 ? null : held.entity(slot);
            int others = holding == null || holding.equals(e) ? 0
                    : held.count(slot) - (own.contains(holding) ? 1 : 0);
            if (others > 0) {
                throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, -1, 0, e + " would replace " + holding
                        + ", which " + others + " other session(s) hold: the configuration changed since they were"
                        + " set up (a tenant's overlay?); they keep it until they go");
            }
        }
        checked = entities;
    }

    /**
     * Gives a session a new entity set (empty: none), moving the reference counts of what it gains and loses: an
     * entity it keeps (most of a modification's) keeps its count and its entry.
     */
    void track(long upSeid, Set<UpfEntity> entities) {
        Set<UpfEntity> before = of(upSeid);
        countsFrom = room(countsFrom, before.size());
        countsTo = room(countsTo, entities.size());
        int from = 0;
        for (UpfEntity e : before) {
            countsFrom[from++] = entities.contains(e) ? 1 : release(e, EntityKeys.keyHash(e));
        }
        // The check of this set, when it came just before, worked out the key hashes of what the session gains.
        boolean hashed = entities == checked;
        checked = null;
        int i = 0;
        for (UpfEntity e : entities) {
            int at = i++;
            countsTo[at] = before.contains(e) ? 1 : gain(e, hashed ? checkedHashes[at] : EntityKeys.keyHash(e));
        }
        trackedFrom = before;
        trackedTo = entities;
        if (entities.isEmpty()) {
            bySession.remove(upSeid);
        } else {
            bySession.put(upSeid, EntitySet.copyOf(entities));
        }
    }

    private static int[] room(int[] counts, int n) {
        return counts.length >= n ? counts : new int[Math.max(n, counts.length * 2)];
    }

    /** @return how many sessions hold {@code e}, whose key hashes to {@code keyHash} */
    private int count(UpfEntity e, int keyHash) {
        int slot = held.slot(e, keyHash);
        return slot >= 0 && held.entity(slot).equals(e) ? held.count(slot) : displaced.getOrDefault(e, 0);
    }

    /** @return how many sessions hold {@code e} once one more does */
    private int gain(UpfEntity e, int keyHash) {
        int slot = held.slot(e, keyHash);
        if (slot < 0) {
            Integer counted = displaced.isEmpty() ? null : displaced.remove(e);
            held.insert(slot, keyHash, e, counted == null ? 1 : counted + 1);
            return counted == null ? 1 : counted + 1;
        }
        return held.entity(slot).equals(e) ? held.increment(slot) : displaced.merge(e, 1, Integer::sum);
    }

    /** @return how many sessions hold {@code e} once one less does */
    private int release(UpfEntity e, int keyHash) {
        int slot = held.slot(e, keyHash);
        if (slot >= 0 && held.entity(slot).equals(e)) {
            return held.decrement(slot);
        }
        Integer left = displaced.computeIfPresent(e, (k, v) -> v == 1 ? null : v - 1);
        return left == null ? 0 : left;
    }

    /**
     * One batch of a change from {@code previous} to {@code wanted}, the reference counts already moved: the
     * removals of what no session or interface needs any more (dependents first), the resets of counter cells
     * new to a session, and the additions (what others refer to first), as the pipeline contract orders them.
     */
    List<DeviceUpdate> updates(Set<? extends UpfEntity> wanted, Set<? extends UpfEntity> previous,
                               List<UpfCounter> resets, Set<UpfInterface> interfaces) {
        // No session holds an interface: a restarted manager installs its interfaces before it tracks its sessions.
        if (!onlyInterfaces(wanted) || !onlyInterfaces(previous) || !resets.isEmpty()) {
            trackStored();
        }
        boolean tracked = wanted == trackedTo && previous == trackedFrom;
        trackedFrom = null;
        trackedTo = null;
        List<DeviceUpdate> updates = diff(wanted, previous, resets, interfaces, tracked);
        if (changedWhileRead != null) {
            updates.forEach(u -> changedWhileRead.add(EntityKeys.key(u.entity())));
        }
        return updates;
    }

    private static boolean onlyInterfaces(Set<? extends UpfEntity> entities) {
        for (UpfEntity e : entities) {
            if (!(e instanceof UpfInterface)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Starts recording the keys of what the changes write from now on: a reconciliation that reads the devices
     * without holding the manager leaves those to the writes already on their way (a removal done twice is
     * refused NOT_FOUND, an insertion done twice ALREADY_EXISTS).
     */
    void watchChanges() {
        trackStored();
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

    /** @param tracked whether the last {@link #track} went from {@code previous} to {@code wanted} (its counts) */
    private List<DeviceUpdate> diff(Set<? extends UpfEntity> wanted, Set<? extends UpfEntity> previous,
                                    List<UpfCounter> resets, Set<UpfInterface> interfaces, boolean tracked) {
        List<UpfEntity> removals = new ArrayList<>();
        int at = 0;
        for (UpfEntity e : previous) {
            int position = at++;
            if (!wanted.contains(e) && (tracked ? countsFrom[position] : count(e, EntityKeys.keyHash(e))) == 0
                    && !interfaces.contains(e) && !sameKeyIn(e, wanted)) {
                removals.add(e);
            }
        }
        List<UpfEntity> additions = new ArrayList<>();
        at = 0;
        for (UpfEntity e : wanted) {
            int position = at++;
            // What another session holds is on the devices, or queued ahead of this batch: a gNB's tunnel peer is
            // written with its first session, not again (an INSERT answered ALREADY_EXISTS, then a MODIFY) with each.
            if (!previous.contains(e) && (tracked ? countsTo[position] : count(e, EntityKeys.keyHash(e))) <= 1) {
                additions.add(e);
            }
        }
        additions.sort(INSTALL_ORDER);
        removals.sort(REMOVAL_ORDER);
        List<DeviceUpdate> updates = new ArrayList<>(removals.size() + resets.size() + additions.size());
        for (int i = 0, n = removals.size(); i < n; i++) {
            updates.add(DeviceUpdate.remove(removals.get(i)));
        }
        for (int i = 0, n = resets.size(); i < n; i++) {
            updates.add(DeviceUpdate.apply(resets.get(i)));
        }
        for (int i = 0, n = additions.size(); i < n; i++) {
            // An entry changed under its key is on the device (its old form is not removed): overwritten, not
            // inserted.
            UpfEntity e = additions.get(i);
            updates.add(sameKeyIn(e, previous) ? DeviceUpdate.overwrite(e) : DeviceUpdate.apply(e));
        }
        return updates;
    }

    /**
     * Whether an entity of {@code in} has the key (the table entry) of {@code e}. A session's entities are few: the
     * keys are worked out only for those of e's type, and only when there is something to compare.
     */
    private static boolean sameKeyIn(UpfEntity e, Set<? extends UpfEntity> in) {
        if (in.isEmpty()) {
            return false;
        }
        Object key = null;
        for (UpfEntity o : in) {
            if (o.type() == e.type()) {
                if (key == null) {
                    key = EntityKeys.key(e);
                }
                if (key.equals(EntityKeys.key(o))) {
                    return true;
                }
            }
        }
        return false;
    }
}
