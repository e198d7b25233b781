package org.hupf.app.device;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link HupfUpfDevice} that only records entities, with table sizes like a real device's: used by
 * unit tests and the backend-less standalone runner. Counters are set by the test or runner.
 */
public final class InMemoryUpfDevice implements HupfUpfDevice {

    private final String name;
    private final long capacity;
    private final Map<UpfEntityType, Map<Object, UpfEntity>> tables = new EnumMap<>(UpfEntityType.class);
    private final Map<Integer, UpfCounter> counters = new LinkedHashMap<>();
    private volatile boolean failing;

    /**
     * Creates a device.
     *
     * @param name     name for logs
     * @param capacity size of every table and of the counter and meter arrays
     */
    public InMemoryUpfDevice(String name, long capacity) {
        this.name = name;
        this.capacity = capacity;
        for (UpfEntityType t : UpfEntityType.values()) {
            tables.put(t, new LinkedHashMap<>());
        }
    }

    public String name() {
        return name;
    }

    /**
     * Makes every call fail, like an unreachable device, until cleared.
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
     * Returns every entity held, in insertion order.
     *
     * @param type entity type
     * @return entities
     */
    public synchronized List<UpfEntity> entities(UpfEntityType type) {
        return new ArrayList<>(tables.get(type).values());
    }

    /**
     * Sets a counter cell, as traffic through a real device would.
     *
     * @param counter counter value
     */
    public synchronized void setCounter(UpfCounter counter) {
        counters.put(counter.cellId(), counter);
    }

    @Override
    public synchronized void apply(UpfEntity entity) throws UpfProgrammableException {
        check();
        if (entity.type() == UpfEntityType.COUNTER) {
            throw new UpfProgrammableException("counters are read-only", UpfProgrammableException.Type.UNSUPPORTED_OPERATION);
        }
        Map<Object, UpfEntity> t = tables.get(entity.type());
        Object key = EntityKeys.key(entity);
        if (!t.containsKey(key) && t.size() >= capacity) {
            throw new UpfProgrammableException(name + ": " + entity.type().humanReadableName() + " table full ("
                                                       + capacity + ")", UpfProgrammableException.Type.TABLE_EXHAUSTED);
        }
        if (entity instanceof UpfMeter && ((UpfMeter) entity).isReset()) {
            t.remove(key);
        } else {
            t.put(key, entity);
        }
    }

    @Override
    public synchronized void delete(UpfEntity entity) throws UpfProgrammableException {
        check();
        tables.get(entity.type()).remove(EntityKeys.key(entity));
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
        if (cellId < 0 || cellId >= capacity) {
            throw new UpfProgrammableException("counter index " + cellId + " out of range [0, " + capacity + ")",
                                               UpfProgrammableException.Type.COUNTER_INDEX_OUT_OF_RANGE);
        }
        return counters.getOrDefault(cellId, UpfCounter.builder().withCellId(cellId).build());
    }

    @Override
    public synchronized Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        check();
        long max = maxCounterId < 0 ? capacity : Math.min(maxCounterId, capacity);
        List<UpfCounter> out = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            out.add(readCounter(i));
        }
        return out;
    }

    @Override
    public long tableSize(UpfEntityType type) {
        return capacity;
    }

    @Override
    public synchronized void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        check();
        tables.get(type).clear();
    }

    @Override
    public String toString() {
        return name;
    }
}
