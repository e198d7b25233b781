package org.hupf.app.offload;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An in-memory UPF device with per-type capacities, a write log, counters that tests drive, and
 * injectable write failures: the runtime boundary of the offload manager.
 */
final class FakeUpfDevice implements HupfUpfDevice {

    private final Map<UpfEntityType, Long> sizes = new EnumMap<>(UpfEntityType.class);
    private final Map<List<Object>, UpfEntity> entries = new LinkedHashMap<>();
    private final Map<Integer, long[]> counters = new HashMap<>();
    final List<String> log = new ArrayList<>();
    UpfEntityType failApplyOf;

    FakeUpfDevice(long sessions, long counterCells, long meterCells) {
        for (UpfEntityType t : UpfEntityType.values()) {
            sizes.put(t, sessions * 2);
        }
        sizes.put(UpfEntityType.SESSION_UPLINK, sessions);
        sizes.put(UpfEntityType.SESSION_DOWNLINK, sessions);
        sizes.put(UpfEntityType.COUNTER, counterCells);
        sizes.put(UpfEntityType.SESSION_METER, meterCells);
        sizes.put(UpfEntityType.APPLICATION_METER, meterCells);
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        if (entity.type() == failApplyOf) {
            throw new UpfProgrammableException("injected failure on " + entity.type());
        }
        List<Object> key = EntityKeys.key(entity);
        if (!entries.containsKey(key) && count(entity.type()) >= sizes.get(entity.type())) {
            throw new UpfProgrammableException(entity.type() + " full", UpfProgrammableException.Type.TABLE_EXHAUSTED);
        }
        entries.put(key, entity);
        log.add("apply " + entity.type());
    }

    @Override
    public void delete(UpfEntity entity) {
        if (entries.remove(EntityKeys.key(entity)) != null) {
            log.add("delete " + entity.type());
        }
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) {
        return entries.values().stream().filter(e -> e.type() == type).collect(Collectors.toList());
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        if (cellId >= sizes.get(UpfEntityType.COUNTER)) {
            throw new UpfProgrammableException("counter " + cellId + " out of range",
                                               UpfProgrammableException.Type.COUNTER_INDEX_OUT_OF_RANGE);
        }
        long[] v = counters.getOrDefault(cellId, new long[4]);
        return UpfCounter.builder().withCellId(cellId).setIngress(v[0], v[1]).setEgress(v[2], v[3]).build();
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        List<UpfCounter> all = new ArrayList<>();
        long n = maxCounterId < 0 ? sizes.get(UpfEntityType.COUNTER) : maxCounterId;
        for (int i = 0; i < n; i++) {
            all.add(readCounter(i));
        }
        return all;
    }

    @Override
    public long tableSize(UpfEntityType type) {
        return sizes.get(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) {
        entries.values().removeIf(e -> e.type() == type);
    }

    int count(UpfEntityType type) {
        return (int) entries.values().stream().filter(e -> e.type() == type).count();
    }

    boolean holds(UpfEntity keyOf) {
        return entries.containsKey(EntityKeys.key(keyOf));
    }

    /**
     * Counts an uplink packet as the data plane would, if this device has the session and its
     * termination: returns false on a session miss (the switch would steer it to the backend).
     */
    boolean countUplink(UpfSessionUplink key, Ip4Address ue, long bytes) {
        if (!holds(key)) {
            return false;
        }
        for (UpfEntity e : entries.values()) {
            if (e instanceof UpfTerminationUplink && ((UpfTerminationUplink) e).ueSessionId().equals(ue)) {
                long[] v = counters.computeIfAbsent(((UpfTerminationUplink) e).counterId(), k -> new long[4]);
                v[0]++;
                v[1] += bytes;
                v[2]++;
                v[3] += bytes;
                return true;
            }
        }
        return false;
    }

    void setCounter(int cell, long pkts, long bytes) {
        counters.put(cell, new long[]{pkts, bytes, pkts, bytes});
    }
}
