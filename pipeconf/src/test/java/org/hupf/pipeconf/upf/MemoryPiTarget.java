package org.hupf.pipeconf.upf;

import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A switch in memory with P4Runtime's rules: entries keyed by (table, match key, priority), table
 * capacity from the model (RESOURCE_EXHAUSTED), delete of a missing key fails (NOT_FOUND), meters and
 * counters sized from the model, unconfigured meter cells reset.
 */
public final class MemoryPiTarget implements PiTarget {

    private final PiPipelineModel model;
    final Map<List<Object>, PiTableEntry> entries = new LinkedHashMap<>();
    final Map<PiMeterCellId, PiMeterCellConfig> meters = new HashMap<>();
    final Map<PiCounterCellId, PiCounterCell> counters = new HashMap<>();
    final Map<List<Object>, PiEntity> profiles = new LinkedHashMap<>();
    /** Counter read requests made. */
    int counterRequests;
    /** Every entity deleted, in order. */
    final List<PiEntity> deleted = new ArrayList<>();

    public MemoryPiTarget(PiPipelineModel model) {
        this.model = model;
    }

    private static List<Object> key(PiTableEntry e) {
        return List.of(e.table(), e.matchKey(), e.priority());
    }

    private static List<Object> profileKey(PiEntity e) {
        if (e instanceof PiActionProfileMember) {
            PiActionProfileMember m = (PiActionProfileMember) e;
            return List.of("member", m.actionProfile(), m.id());
        }
        PiActionProfileGroup g = (PiActionProfileGroup) e;
        return List.of("group", g.actionProfile(), g.id());
    }

    public void setCounter(PiCounterId id, long index, long packets, long bytes) {
        counters.put(PiCounterCellId.ofIndirect(id, index),
                     new PiCounterCell(PiCounterCellId.ofIndirect(id, index), packets, bytes));
    }

    @Override
    public void write(Collection<? extends PiEntity> write) throws PiTargetException {
        for (PiEntity e : write) {
            if (e instanceof PiTableEntry) {
                PiTableEntry t = (PiTableEntry) e;
                if (t.isDefaultAction()) {
                    entries.put(key(t), t);
                    continue;
                }
                long size = model.table(t.table()).orElseThrow().maxSize();
                long used = entries.keySet().stream().filter(k -> k.get(0).equals(t.table())).count();
                if (!entries.containsKey(key(t)) && used >= size) {
                    throw new PiTargetException("RESOURCE_EXHAUSTED: " + t.table() + " is full (" + size + ")", true, null);
                }
                entries.put(key(t), t);
            } else if (e instanceof PiMeterCellConfig) {
                PiMeterCellConfig m = (PiMeterCellConfig) e;
                meters.put(m.cellId(), m);
            } else if (e instanceof PiCounterCell) {
                counters.put(((PiCounterCell) e).cellId(), (PiCounterCell) e);
            } else {
                profiles.put(profileKey(e), e);
            }
        }
    }

    @Override
    public void delete(Collection<? extends PiEntity> delete) throws PiTargetException {
        for (PiEntity e : delete) {
            deleted.add(e);
            Object removed = e instanceof PiTableEntry ? entries.remove(key((PiTableEntry) e))
                    : profiles.remove(profileKey(e));
            if (removed == null) {
                throw new PiTargetException("NOT_FOUND: " + e);
            }
        }
    }

    /** Every entry of a table, default entry included. */
    public List<PiTableEntry> entriesOf(PiTableId table) {
        List<PiTableEntry> out = new ArrayList<>();
        entries.values().stream().filter(e -> e.table().equals(table)).forEach(out::add);
        return out;
    }

    @Override
    public Collection<PiTableEntry> readTable(PiTableId table) {
        List<PiTableEntry> out = new ArrayList<>();
        entries.values().stream().filter(e -> e.table().equals(table) && !e.isDefaultAction()).forEach(out::add);
        return out;
    }

    @Override
    public Collection<PiCounterCell> readCounterCells(Collection<PiCounterCellId> cells) {
        counterRequests++;
        List<PiCounterCell> out = new ArrayList<>();
        cells.forEach(id -> out.add(counters.getOrDefault(id, new PiCounterCell(id, 0, 0))));
        return out;
    }

    @Override
    public Collection<PiCounterCell> readCounter(PiCounterId counter, long index) {
        counterRequests++;
        long size = model.counter(counter).orElseThrow().size();
        List<PiCounterCell> out = new ArrayList<>();
        for (long i = index < 0 ? 0 : index; i < (index < 0 ? size : index + 1); i++) {
            PiCounterCellId id = PiCounterCellId.ofIndirect(counter, i);
            out.add(counters.getOrDefault(id, new PiCounterCell(id, 0, 0)));
        }
        return out;
    }

    @Override
    public Collection<PiMeterCellConfig> readMeter(PiMeterId meter) {
        long size = model.meter(meter).orElseThrow().size();
        List<PiMeterCellConfig> out = new ArrayList<>();
        for (long i = 0; i < size; i++) {
            PiMeterCellId id = PiMeterCellId.ofIndirect(meter, i);
            out.add(meters.getOrDefault(id, PiMeterCellConfig.reset(id)));
        }
        return out;
    }

    @Override
    public Collection<PiActionProfileMember> readMembers(PiActionProfileId profile) {
        List<PiActionProfileMember> out = new ArrayList<>();
        profiles.values().stream().filter(e -> e instanceof PiActionProfileMember
                && Objects.equals(((PiActionProfileMember) e).actionProfile(), profile))
                .forEach(e -> out.add((PiActionProfileMember) e));
        return out;
    }

    @Override
    public Collection<PiActionProfileGroup> readGroups(PiActionProfileId profile) {
        List<PiActionProfileGroup> out = new ArrayList<>();
        profiles.values().stream().filter(e -> e instanceof PiActionProfileGroup
                && Objects.equals(((PiActionProfileGroup) e).actionProfile(), profile))
                .forEach(e -> out.add((PiActionProfileGroup) e));
        return out;
    }
}
