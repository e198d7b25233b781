package org.hupf.core.device;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.hupf.pipeconf.api.BatchUpfDevice;
import org.hupf.pipeconf.api.DeviceUpdate;
import org.hupf.pipeconf.api.WriteResult;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link HupfUpfDevice} in memory, the one stand-in for a switch or backend: it holds entries by match
 * key, refuses an entry beyond its table size as a device would, and counts a UE's uplink bytes the way
 * the pipeline does (session hit, then the termination's counter cell). Used by unit tests, the
 * backend-less standalone host and the scalability simulation; counters are set or counted by them.
 */
public final class InMemoryUpfDevice implements HupfUpfDevice, BatchUpfDevice {

    private final String name;
    private final Map<UpfEntityType, Long> sizes = new EnumMap<>(UpfEntityType.class);
    private final Map<UpfEntityType, Map<Object, UpfEntity>> tables = new EnumMap<>(UpfEntityType.class);
    private final Map<Integer, UpfCounter> counters = new LinkedHashMap<>();
    private final Map<Ip4Address, UpfTerminationUplink> uplinkTerminations = new HashMap<>();
    private volatile boolean failing;

    /**
     * Creates a device whose tables, counter and meter arrays all have one size.
     *
     * @param name     name for logs
     * @param capacity size of every table and of the counter and meter arrays
     */
    public InMemoryUpfDevice(String name, long capacity) {
        this.name = name;
        for (UpfEntityType t : UpfEntityType.values()) {
            sizes.put(t, capacity);
            tables.put(t, new LinkedHashMap<>());
        }
    }

    /**
     * Creates a device sized like a UPF: {@code sessions} per session table, twice that for the other
     * tables, 256 tunnel peers (and VXLAN overlays).
     *
     * @param name         name for logs
     * @param sessions     size of each session table
     * @param counterCells size of the counter arrays
     * @param meterCells   size of the meter arrays
     */
    public InMemoryUpfDevice(String name, long sessions, long counterCells, long meterCells) {
        this(name, sessions * 2);
        sizes.put(UpfEntityType.SESSION_UPLINK, sessions);
        sizes.put(UpfEntityType.SESSION_DOWNLINK, sessions);
        sizes.put(UpfEntityType.TUNNEL_PEER, 256L);
        sizes.put(UpfEntityType.PEER_VXLAN, 256L);
        sizes.put(UpfEntityType.COUNTER, counterCells);
        sizes.put(UpfEntityType.SESSION_METER, meterCells);
        sizes.put(UpfEntityType.APPLICATION_METER, meterCells);
    }

    public String name() {
        return name;
    }

    /**
     * Makes every operation fail, as an unreachable device would.
     *
     * @param fail true to fail
     */
    public void setFailing(boolean fail) {
        this.failing = fail;
    }

    private void check() throws UpfProgrammableException {
        if (failing) {
            throw new UpfProgrammableException(name + " is unreachable");
        }
    }

    /**
     * Returns the entities of one type, in installation order.
     *
     * @param type entity type
     * @return entities
     */
    public synchronized List<UpfEntity> entities(UpfEntityType type) {
        return new ArrayList<>(tables.get(type).values());
    }

    /**
     * Returns how many entries of a type the device holds.
     *
     * @param type entity type
     * @return entries
     */
    public synchronized int count(UpfEntityType type) {
        return tables.get(type).size();
    }

    /**
     * Tells whether an entry with the same match key is installed.
     *
     * @param keyOf an entity with the key to look up
     * @return true if present
     */
    public synchronized boolean holds(UpfEntity keyOf) {
        return tables.get(keyOf.type()).containsKey(EntityKeys.key(keyOf));
    }

    /**
     * Sets a counter cell, as traffic would have.
     *
     * @param counter cell id and values
     */
    public synchronized void setCounter(UpfCounter counter) {
        counters.put(counter.cellId(), counter);
    }

    /**
     * Counts uplink packets of a UE as the pipeline would: only on a session hit with a termination,
     * into both halves (ingress, egress) of the termination's counter cell.
     *
     * @param session the uplink session key the packets carry (N3 address, TEID)
     * @param ue      UE address
     * @param pkts    packets
     * @param bytes   bytes
     * @return false on a session miss (a switch steers such packets to the backend)
     */
    public synchronized boolean countUplink(UpfSessionUplink session, Ip4Address ue, long pkts, long bytes) {
        UpfTerminationUplink t = uplinkTerminations.get(ue);
        if (t == null || !holds(session)) {
            return false;
        }
        UpfCounter c = counters.getOrDefault(t.counterId(), UpfCounter.builder().withCellId(t.counterId()).build());
        setCounter(UpfCounter.builder().withCellId(t.counterId())
                           .setIngress(c.ingressPkts() + pkts, c.ingressBytes() + bytes)
                           .setEgress(c.egressPkts() + pkts, c.egressBytes() + bytes).build());
        return true;
    }

    @Override
    public synchronized void apply(UpfEntity entity) throws UpfProgrammableException {
        check();
        if (entity.type() == UpfEntityType.COUNTER) {
            readCounter(((UpfCounter) entity).cellId());    // in range
            setCounter((UpfCounter) entity);
            return;
        }
        Map<Object, UpfEntity> t = tables.get(entity.type());
        Object key = EntityKeys.key(entity);
        long size = sizes.get(entity.type());
        if (!t.containsKey(key) && t.size() >= size) {
            throw new UpfProgrammableException(name + ": " + entity.type().humanReadableName() + " table full ("
                                                       + size + ")", UpfProgrammableException.Type.TABLE_EXHAUSTED);
        }
        if (entity instanceof UpfMeter && ((UpfMeter) entity).isReset()) {
            t.remove(key);
        } else {
            t.put(key, entity);
        }
        if (entity instanceof UpfTerminationUplink) {
            uplinkTerminations.put(((UpfTerminationUplink) entity).ueSessionId(), (UpfTerminationUplink) entity);
        }
    }

    /** Applies the batch in order under the device's lock; an unreachable device applies none of it. */
    @Override
    public synchronized CompletableFuture<WriteResult> write(List<DeviceUpdate> updates) {
        WriteResult r = failing ? WriteResult.unreachable(updates.size(), new UpfProgrammableException(
                name + " is unreachable")) : BatchDevices.writeEach(this, updates);
        return CompletableFuture.completedFuture(r);
    }

    @Override
    public synchronized void delete(UpfEntity entity) throws UpfProgrammableException {
        check();
        UpfEntity old = tables.get(entity.type()).remove(EntityKeys.key(entity));
        if (old instanceof UpfTerminationUplink) {
            uplinkTerminations.remove(((UpfTerminationUplink) old).ueSessionId());
        }
    }

    @Override
    public synchronized Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        check();
        if (type == UpfEntityType.COUNTER) {
            return new ArrayList<>(counters.values());
        }
        return entities(type);
    }

    @Override
    public synchronized UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        check();
        long size = sizes.get(UpfEntityType.COUNTER);
        if (cellId < 0 || cellId >= size) {
            throw new UpfProgrammableException("counter index " + cellId + " out of range [0, " + size + ")",
                                               UpfProgrammableException.Type.COUNTER_INDEX_OUT_OF_RANGE);
        }
        return counters.getOrDefault(cellId, UpfCounter.builder().withCellId(cellId).build());
    }

    @Override
    public synchronized Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        check();
        long size = sizes.get(UpfEntityType.COUNTER);
        long max = maxCounterId < 0 ? size : Math.min(maxCounterId, size);
        List<UpfCounter> out = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            out.add(readCounter(i));
        }
        return out;
    }

    @Override
    public long tableSize(UpfEntityType type) {
        return sizes.get(type);
    }

    @Override
    public synchronized void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        check();
        tables.get(type).clear();
        if (type == UpfEntityType.TERMINATION_UPLINK) {
            uplinkTerminations.clear();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
