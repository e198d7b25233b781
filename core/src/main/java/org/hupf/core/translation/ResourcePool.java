package org.hupf.core.translation;

import org.hupf.api.session.Allocations;
import org.hupf.api.session.AppFilter;
import org.hupf.api.session.Cause;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onlab.packet.Ip4Address;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Device indices shared by all sessions: counter cells, session and application meter cells (one
 * pool each, index 0 reserved for "none"), application ids and tunnel peer ids (1..255, shared by
 * identical filters and gNB addresses and reference-counted by session). A gNB's tunnel peer is bound to the
 * tenant of the sessions towards it (its key names the tenant), or to none, as long as a session holds it.
 *
 * <p>A session keeps its allocations as keys in {@link PfcpSession#allocations}; {@link #rebuild}
 * restores the pool from stored sessions after a restart.
 */
public final class ResourcePool {

    private static final int MAX_SHARED_ID = 255;
    /** The keys of the rule ids sessions commonly have, made once: a translation asks for each of them. */
    private static final int KEYED_IDS = 64;
    private static final String[] COUNTER_KEYS = new String[KEYED_IDS];
    /** By id, then session (0) or application (2) meter, plus 1 for the uplink's. */
    private static final String[][] METER_KEYS = new String[KEYED_IDS][4];

    static {
        for (int id = 0; id < KEYED_IDS; id++) {
            COUNTER_KEYS[id] = counterKey(id);
            for (int m = 0; m < 4; m++) {
                METER_KEYS[id][m] = meterKey(id, (m & 1) != 0, m < 2);
            }
        }
    }

    /** Cells per array, asked at each allocation: devices report their P4Info sizes once connected. */
    private final ToIntFunction<UpfEntityType> cells;
    private final UsedIndices counters = new UsedIndices();
    private final UsedIndices sessionMeters = new UsedIndices();
    private final UsedIndices appMeters = new UsedIndices();
    private final Map<String, Integer> sharedIds = new HashMap<>();
    private final Map<String, Integer> sharedRefs = new HashMap<>();
    private final UsedIndices appIds = new UsedIndices();
    private final UsedIndices peerIds = new UsedIndices();

    /**
     * Creates a pool.
     *
     * @param counterCells size of the counter arrays
     * @param meterCells   size of each meter array
     */
    public ResourcePool(int counterCells, int meterCells) {
        this(t -> t == UpfEntityType.COUNTER ? counterCells : meterCells);
    }

    /**
     * Creates a pool whose sizes come from the devices.
     *
     * @param cells cells of the COUNTER, SESSION_METER and APPLICATION_METER arrays
     */
    public ResourcePool(ToIntFunction<UpfEntityType> cells) {
        this.cells = cells;
    }

    /**
     * Starts an allocation for one session, reusing what it already holds.
     *
     * @param held the session's current allocations
     * @return allocation to pass to the translator, then to {@link #commit} or {@link #abort}
     */
    public Allocation begin(Map<String, Integer> held) {
        return new Allocation(held);
    }

    /**
     * Keeps what the translation used and frees what the session held but no longer uses.
     *
     * @param a allocation
     * @return the session's new allocations
     */
    public synchronized Map<String, Integer> commit(Allocation a) {
        for (Map.Entry<String, Integer> held : a.held.entrySet()) {
            if (!a.uses(held.getKey())) {
                release(held.getKey(), held.getValue());
            }
        }
        return a.allocations();
    }

    /**
     * Frees what the translation newly allocated; the session keeps its previous allocations.
     *
     * @param a allocation
     */
    public synchronized void abort(Allocation a) {
        for (int i = 0; i < a.used; i++) {
            if (!a.held.containsKey(a.usedKeys[i])) {
                release(a.usedKeys[i], a.usedValues[i]);
            }
        }
    }

    /**
     * Frees everything a deleted session held.
     *
     * @param held the session's allocations
     */
    public synchronized void releaseAll(Map<String, Integer> held) {
        held.forEach(this::release);
    }

    /**
     * Re-marks the allocations of stored sessions as taken.
     *
     * @param sessions stored sessions
     */
    public synchronized void rebuild(Collection<PfcpSession> sessions) {
        for (PfcpSession s : sessions) {
            s.allocations.forEach(this::take);
        }
    }

    /** @return counter cells in use, for stats */
    public synchronized int countersInUse() {
        return counters.inUse();
    }

    private UsedIndices bits(String key) {
        if (key.startsWith("ctr:")) {
            return counters;
        }
        if (key.startsWith("sm:")) {
            return sessionMeters;
        }
        if (key.startsWith("am:")) {
            return appMeters;
        }
        return key.startsWith("app:") ? appIds : peerIds;
    }

    private static boolean shared(String key) {
        return key.startsWith("app:") || key.startsWith("peer:");
    }

    private void take(String key, int v) {
        if (shared(key)) {
            if (sharedRefs.merge(key, 1, Integer::sum) == 1) {
                sharedIds.put(key, v);
                bits(key).set(v);
            }
        } else {
            bits(key).set(v);
        }
    }

    private void release(String key, int v) {
        if (shared(key)) {
            if (sharedRefs.merge(key, -1, Integer::sum) == 0) {
                sharedRefs.remove(key);
                sharedIds.remove(key);
                bits(key).clear(v);
            }
        } else {
            bits(key).clear(v);
        }
    }

    private synchronized int allocate(String key, int limit, String what) throws RuleException {
        if (shared(key) && sharedIds.containsKey(key)) {
            int v = sharedIds.get(key);
            take(key, v);
            return v;
        }
        int v = bits(key).lowestFree();
        if (v >= limit) {
            throw new RuleException(Cause.NO_RESOURCES_AVAILABLE, -1, 0, "no free " + what + " (" + (limit - 1)
                    + " in use)");
        }
        take(key, v);
        return v;
    }

    private static String counterKey(int pdrId) {
        return "ctr:" + pdrId;
    }

    private static String meterKey(long qerId, boolean uplink, boolean session) {
        return (session ? "sm:" : "am:") + qerId + (uplink ? ":ul" : ":dl");
    }

    /** The allocation key of a gNB's tunnel peer: unbound peers keep the key they had before tenants. */
    private static String peerKey(Ip4Address peer, String tenant) {
        String key = "peer:" + dotted(peer);
        return tenant == null ? key : key + "@" + tenant;
    }

    /** What Ip4Address.toString() says, without its String.format: one call per session change. */
    private static String dotted(Ip4Address a) {
        byte[] b = a.toOctets();
        return (b[0] & 0xFF) + "." + (b[1] & 0xFF) + "." + (b[2] & 0xFF) + "." + (b[3] & 0xFF);
    }

    /**
     * Refuses a binding of a gNB other than the one its tunnel peer has, unless the only session holding that
     * peer is the one being changed (it moves to a new peer id, the old one goes when the change is committed).
     */
    private synchronized void checkBinding(Ip4Address peer, String key, Map<String, Integer> heldBySession)
            throws RuleException {
        String unbound = peerKey(peer, null);
        for (Map.Entry<String, Integer> other : sharedRefs.entrySet()) {
            String k = other.getKey();
            boolean samePeer = k.equals(unbound) || k.startsWith(unbound + "@");
            if (!samePeer || k.equals(key) || heldBySession.containsKey(k) && other.getValue() == 1) {
                continue;
            }
            String bound = k.equals(unbound) ? "no tenant" : "tenant " + k.substring(unbound.length() + 1);
            String wanted = key.equals(unbound) ? "no tenant" : "tenant " + key.substring(unbound.length() + 1);
            throw new RuleException(Cause.RULE_CREATION_MODIFICATION_FAILURE, -1, 0,
                                    "gNB " + peer + " is bound to " + bound + " by " + other.getValue()
                                            + " session(s): it cannot carry a session of " + wanted);
        }
    }

    /** One session's allocation in progress. */
    public final class Allocation implements SessionResources {
        private final Map<String, Integer> held;
        /** What the translation used, in the order it asked: a session uses a handful, searched in place. */
        private String[] usedKeys = new String[8];
        private Integer[] usedValues = new Integer[8];
        private int used;

        private Allocation(Map<String, Integer> held) {
            this.held = Allocations.copyOf(held);
        }

        private int get(String key, int limit, String what) throws RuleException {
            for (int i = 0; i < used; i++) {
                if (usedKeys[i].equals(key)) {
                    return usedValues[i];
                }
            }
            Integer kept = held.get(key);
            Integer v = kept != null ? kept : (Integer) allocate(key, limit, what);
            if (used == usedKeys.length) {
                usedKeys = Arrays.copyOf(usedKeys, 2 * used);
                usedValues = Arrays.copyOf(usedValues, 2 * used);
            }
            usedKeys[used] = key;
            usedValues[used++] = v;
            return v;
        }

        private boolean uses(String key) {
            for (int i = 0; i < used; i++) {
                if (usedKeys[i].equals(key)) {
                    return true;
                }
            }
            return false;
        }

        /** @return what the translation used so far: the session's allocations once committed */
        public Map<String, Integer> allocations() {
            if (used == held.size() && usesAsHeld()) {
                return held;  // a modification commonly keeps what the session held: shared, not copied
            }
            @SuppressWarnings("unchecked")
            Map.Entry<String, Integer>[] entries = new Map.Entry[used];
            for (int i = 0; i < used; i++) {
                entries[i] = Map.entry(usedKeys[i], usedValues[i]);
            }
            return Map.ofEntries(entries);
        }

        private boolean usesAsHeld() {
            for (int i = 0; i < used; i++) {
                Integer kept = held.get(usedKeys[i]);
                if (!usedValues[i].equals(kept)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int counter(int pdrId) throws RuleException {
            String key = pdrId >= 0 && pdrId < KEYED_IDS ? COUNTER_KEYS[pdrId] : counterKey(pdrId);
            return get(key, cells.applyAsInt(UpfEntityType.COUNTER), "counter cell");
        }

        @Override
        public int meter(long qerId, boolean uplink, boolean session) throws RuleException {
            String key = qerId >= 0 && qerId < KEYED_IDS ? METER_KEYS[(int) qerId][(session ? 0 : 2) + (uplink ? 1 : 0)]
                    : meterKey(qerId, uplink, session);
            return get(key, cells.applyAsInt(session ? UpfEntityType.SESSION_METER : UpfEntityType.APPLICATION_METER),
                       session ? "session meter cell" : "application meter cell");
        }

        @Override
        public int appId(AppFilter filter, long precedence) throws RuleException {
            return get("app:" + filter.key() + "@" + precedence, MAX_SHARED_ID + 1, "application id");
        }

        @Override
        public int tunnelPeer(Ip4Address peer, String tenant) throws RuleException {
            String key = peerKey(peer, tenant);
            if (!uses(key) && !held.containsKey(key)) {
                checkBinding(peer, key, held);
            }
            return get(key, MAX_SHARED_ID + 1, "tunnel peer id");
        }
    }
}
