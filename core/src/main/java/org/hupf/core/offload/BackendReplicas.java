package org.hupf.core.offload;

import org.hupf.core.device.CounterCellReader;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Several backends as the offload manager sees them: each holds every session (the session core writes and
 * reconciles each), the switch splits the sessions' traffic among them by UE hash, so a session's usage is
 * the sum of its cells over all of them. Writes go to each in turn; entries and table sizes are the first's
 * (the one the hybrid indexes), a table fits what the smallest holds.
 */
public final class BackendReplicas implements HupfUpfDevice, CounterCellReader {

    private final Supplier<List<HupfUpfDevice>> live;

    /**
     * @param backends the backends, the hybrid's own first (at least one)
     */
    public BackendReplicas(List<HupfUpfDevice> backends) {
        if (backends.isEmpty()) {
            throw new IllegalArgumentException("no backend");
        }
        List<HupfUpfDevice> all = List.copyOf(backends);
        this.live = () -> all;
    }

    /**
     * Backends that come and go (the standalone lab's, each on its own connection).
     *
     * @param live the backends that hold the sessions now, the hybrid's own first
     */
    public BackendReplicas(Supplier<List<HupfUpfDevice>> live) {
        this.live = live;
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        for (HupfUpfDevice b : live.get()) {
            b.apply(entity);
        }
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        for (HupfUpfDevice b : live.get()) {
            b.delete(entity);
        }
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return live.get().get(0).readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        long[] sum = new long[4];
        for (HupfUpfDevice b : live.get()) {
            add(sum, b.readCounter(cellId));
        }
        return counter(cellId, sum);
    }

    /** Cells every backend answered, summed (a cell one of them lacks is left out, as unread). */
    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        List<Collection<UpfCounter>> reads = new ArrayList<>();
        for (HupfUpfDevice b : live.get()) {
            reads.add(b.readCounters(maxCounterId));
        }
        return sum(reads);
    }

    @Override
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        List<Collection<UpfCounter>> reads = new ArrayList<>();
        for (HupfUpfDevice b : live.get()) {
            reads.add(CounterCellReader.of(b).readCounterCells(cells).values());
        }
        Map<Integer, UpfCounter> out = new TreeMap<>();
        for (UpfCounter c : sum(reads)) {
            out.put(c.cellId(), c);
        }
        return out;
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        long min = Long.MAX_VALUE;
        for (HupfUpfDevice b : live.get()) {
            min = Math.min(min, b.tableSize(type));
        }
        return min;
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        for (HupfUpfDevice b : live.get()) {
            b.deleteAll(type);
        }
    }

    private static Collection<UpfCounter> sum(List<Collection<UpfCounter>> reads) {
        Map<Integer, long[]> sums = new TreeMap<>();
        Map<Integer, Integer> answered = new TreeMap<>();
        for (Collection<UpfCounter> read : reads) {
            for (UpfCounter c : read) {
                add(sums.computeIfAbsent(c.cellId(), k -> new long[4]), c);
                answered.merge(c.cellId(), 1, Integer::sum);
            }
        }
        List<UpfCounter> out = new ArrayList<>(sums.size());
        sums.forEach((cell, s) -> {
            if (answered.get(cell) == reads.size()) {
                out.add(counter(cell, s));
            }
        });
        return out;
    }

    private static void add(long[] sum, UpfCounter c) {
        sum[0] += c.ingressPkts();
        sum[1] += c.ingressBytes();
        sum[2] += c.egressPkts();
        sum[3] += c.egressBytes();
    }

    private static UpfCounter counter(int cell, long[] s) {
        return UpfCounter.builder().withCellId(cell).setIngress(s[0], s[1]).setEgress(s[2], s[3]).build();
    }
}
