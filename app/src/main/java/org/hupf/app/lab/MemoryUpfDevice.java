package org.hupf.app.lab;

import org.hupf.app.device.EntityKeys;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A UPF device in memory with per-type capacities, for the scalability simulation: it holds entries by
 * match key, refuses an entry beyond its table size as a switch would, and counts a UE's uplink bytes
 * the way the pipeline does (session hit, then the termination's counter cell).
 */
public final class MemoryUpfDevice implements HupfUpfDevice {

    private final Map<UpfEntityType, Long> sizes = new EnumMap<>(UpfEntityType.class);
    private final Map<UpfEntityType, Integer> used = new EnumMap<>(UpfEntityType.class);
    private final Map<Object, UpfEntity> entries = new HashMap<>();
    private final Map<Ip4Address, UpfTerminationUplink> uplinkTerms = new HashMap<>();
    private final Map<Integer, long[]> counters = new HashMap<>();

    /**
     * Creates a device.
     *
     * @param sessions     size of each session table
     * @param counterCells size of the counter arrays
     * @param meterCells   size of the meter arrays
     */
    public MemoryUpfDevice(long sessions, long counterCells, long meterCells) {
        for (UpfEntityType t : UpfEntityType.values()) {
            sizes.put(t, sessions * 2);
        }
        sizes.put(UpfEntityType.SESSION_UPLINK, sessions);
        sizes.put(UpfEntityType.SESSION_DOWNLINK, sessions);
        sizes.put(UpfEntityType.TUNNEL_PEER, 256L);
        sizes.put(UpfEntityType.COUNTER, counterCells);
        sizes.put(UpfEntityType.SESSION_METER, meterCells);
        sizes.put(UpfEntityType.APPLICATION_METER, meterCells);
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        Object key = EntityKeys.key(entity);
        UpfEntity old = entries.get(key);
        if (old == null && used.getOrDefault(entity.type(), 0) >= sizes.get(entity.type())) {
            throw new UpfProgrammableException(entity.type().humanReadableName() + " table full",
                                               UpfProgrammableException.Type.TABLE_EXHAUSTED);
        }
        entries.put(key, entity);
        if (old == null) {
            used.merge(entity.type(), 1, Integer::sum);
        }
        if (entity instanceof UpfTerminationUplink) {
            uplinkTerms.put(((UpfTerminationUplink) entity).ueSessionId(), (UpfTerminationUplink) entity);
        }
    }

    @Override
    public void delete(UpfEntity entity) {
        UpfEntity old = entries.remove(EntityKeys.key(entity));
        if (old != null) {
            used.merge(old.type(), -1, Integer::sum);
            if (old instanceof UpfTerminationUplink) {
                uplinkTerms.remove(((UpfTerminationUplink) old).ueSessionId());
            }
        }
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) {
        List<UpfEntity> out = new ArrayList<>();
        for (UpfEntity e : entries.values()) {
            if (e.type() == type) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        if (cellId < 0 || cellId >= sizes.get(UpfEntityType.COUNTER)) {
            throw new UpfProgrammableException("counter cell " + cellId + " out of range",
                                               UpfProgrammableException.Type.COUNTER_INDEX_OUT_OF_RANGE);
        }
        long[] v = counters.getOrDefault(cellId, new long[4]);
        return UpfCounter.builder().withCellId(cellId).setIngress(v[0], v[1]).setEgress(v[2], v[3]).build();
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        long n = maxCounterId < 0 ? sizes.get(UpfEntityType.COUNTER)
                : Math.min(maxCounterId, sizes.get(UpfEntityType.COUNTER));
        List<UpfCounter> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(readCounter(i));
        }
        return out;
    }

    @Override
    public long tableSize(UpfEntityType type) {
        return sizes.get(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) {
        for (UpfEntity e : readAll(type)) {
            delete(e);
        }
    }

    /**
     * Returns how many entries of a type the device holds.
     *
     * @param type entity type
     * @return entries
     */
    public int count(UpfEntityType type) {
        return used.getOrDefault(type, 0);
    }

    /**
     * Tells whether an entry with the same match key is installed.
     *
     * @param keyOf an entity with the key to look up
     * @return true if present
     */
    public boolean holds(UpfEntity keyOf) {
        return entries.containsKey(EntityKeys.key(keyOf));
    }

    /**
     * Counts uplink packets of a UE as the pipeline would: only on a session hit with a termination.
     *
     * @param session the uplink session key the packets carry (N3 address, TEID)
     * @param ue      UE address
     * @param pkts    packets
     * @param bytes   bytes
     * @return false on a session miss (a switch steers such packets to the backend)
     */
    public boolean countUplink(UpfSessionUplink session, Ip4Address ue, long pkts, long bytes) {
        UpfTerminationUplink t = uplinkTerms.get(ue);
        if (t == null || !holds(session)) {
            return false;
        }
        long[] v = counters.computeIfAbsent(t.counterId(), k -> new long[4]);
        v[0] += pkts;
        v[1] += bytes;
        v[2] += pkts;
        v[3] += bytes;
        return true;
    }

    /**
     * Sets a counter cell, e.g. to leave stale counts from an earlier user.
     *
     * @param cell  cell index
     * @param pkts  packets
     * @param bytes bytes
     */
    public void setCounter(int cell, long pkts, long bytes) {
        counters.put(cell, new long[]{pkts, bytes, pkts, bytes});
    }
}
