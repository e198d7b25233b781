package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.hupf.pipeconf.HupfConstants.HDR_TUN_PEER_ID;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.COUNTER_INDEX_OUT_OF_RANGE;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.TABLE_EXHAUSTED;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.UNKNOWN;
import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.UNSUPPORTED_OPERATION;

/**
 * {@link HupfUpfDevice} over any {@link PiTarget}: entities go through the {@link UpfTranslator}, so the
 * ONOS behaviour and the standalone P4Runtime device behave the same.
 */
public final class PiUpfDevice implements HupfUpfDevice {

    /** Counter cells (each an ingress and an egress cell) read by index in one request. */
    static final int CELLS_PER_READ = 8192;

    private final UpfTranslator translator;
    private final PiTarget target;

    public PiUpfDevice(UpfTranslator translator, PiTarget target) {
        this.translator = translator;
        this.target = target;
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        List<PiEntity> pi = translate(entity);
        try {
            target.write(pi);
        } catch (PiTargetException e) {
            throw new UpfProgrammableException("cannot apply " + entity + ": " + e.getMessage(),
                                               e.exhausted() ? TABLE_EXHAUSTED : UNKNOWN);
        }
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        deleteAll(List.of(entity));
    }

    /** One target write for all of them where the target keeps their write rank within a write. */
    @Override
    public void applyInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        if (!target.keepsWriteRank() || entities.size() < 2) {
            HupfUpfDevice.super.applyInOrder(entities);
            return;
        }
        List<PiEntity> pi = new ArrayList<>();
        for (UpfEntity e : entities) {
            pi.addAll(translate(e));
        }
        try {
            target.write(pi);
        } catch (PiTargetException e) {
            throw new UpfProgrammableException("cannot apply " + entities.size() + " entities: " + e.getMessage(),
                                               e.exhausted() ? TABLE_EXHAUSTED : UNKNOWN);
        }
    }

    /** One target deletion (and one write of meter resets) where the target keeps their order within a call. */
    @Override
    public void deleteInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        if (!target.keepsWriteRank() || entities.size() < 2) {
            HupfUpfDevice.super.deleteInOrder(entities);
            return;
        }
        deleteAll(entities);
    }

    private void deleteAll(Collection<? extends UpfEntity> entities) throws UpfProgrammableException {
        List<PiEntity> entries = new ArrayList<>();
        List<PiEntity> resets = new ArrayList<>();
        for (UpfEntity entity : entities) {
            if (entity instanceof UpfMeter) {
                try {
                    resets.add(translator.meterReset((UpfMeter) entity));
                } catch (PiCodecException e) {
                    throw new UpfProgrammableException("cannot reset " + entity + ": " + e.getMessage());
                }
            } else {
                entries.addAll(translate(entity));
            }
        }
        try {
            if (!entries.isEmpty()) {
                target.delete(entries);
            }
            if (!resets.isEmpty()) {
                target.write(resets);
            }
        } catch (PiTargetException e) {
            throw new UpfProgrammableException("cannot delete " + entities.size() + " entities: " + e.getMessage());
        }
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        if (type == UpfEntityType.COUNTER) {
            return readCounters(-1);
        }
        List<UpfEntity> out = new ArrayList<>();
        if (!translator.holds(type)) {
            // A pipeline without the table (the TNA program has no VXLAN overlays) holds none of them.
            return out;
        }
        Object id = UpfTranslator.piIds(type).get(0);
        try {
            if (type == UpfEntityType.TUNNEL_PEER) {
                return readTunnelPeers();
            }
            if (id instanceof PiMeterId) {
                for (PiMeterCellConfig cell : target.readMeter((PiMeterId) id)) {
                    out.add(translator.fromMeterCell(cell));
                }
            } else {
                for (PiTableEntry e : target.readTable((PiTableId) id)) {
                    out.add(translator.fromTableEntry(e));
                }
            }
        } catch (PiTargetException | PiCodecException e) {
            throw new UpfProgrammableException("cannot read " + type.humanReadableName() + ": " + e.getMessage());
        }
        return out;
    }

    /**
     * Tunnel peers whose two entries are both there: a half-written peer reads as missing, so that
     * reconciliation writes it whole again.
     */
    private List<UpfEntity> readTunnelPeers() throws PiTargetException, PiCodecException {
        List<? extends Object> ids = UpfTranslator.piIds(UpfEntityType.TUNNEL_PEER);
        Map<Long, PiTableEntry> routing = new TreeMap<>();
        for (PiTableEntry e : target.readTable((PiTableId) ids.get(0))) {
            routing.put(PiCodec.exact(e, HDR_TUN_PEER_ID), e);
        }
        List<UpfEntity> out = new ArrayList<>();
        for (PiTableEntry e : target.readTable((PiTableId) ids.get(1))) {
            PiTableEntry ingress = routing.get(PiCodec.exact(e, HDR_TUN_PEER_ID));
            if (ingress != null) {
                out.add(translator.tunnelPeer(e, ingress));
            }
        }
        return out;
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        long size = tableSize(UpfEntityType.COUNTER);
        if (cellId < 0 || cellId >= size) {
            throw new UpfProgrammableException("counter index " + cellId + " outside [0, " + size + ")",
                                               COUNTER_INDEX_OUT_OF_RANGE);
        }
        Collection<UpfCounter> all = readCounterCells(cellId);
        if (all.size() != 1) {
            throw new UpfProgrammableException("device returned " + all.size() + " cells for counter " + cellId);
        }
        return all.iterator().next();
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        long size = tableSize(UpfEntityType.COUNTER);
        long limit = maxCounterId < 0 ? size : Math.min(maxCounterId, size);
        List<UpfCounter> out = new ArrayList<>();
        // The sw profile has ~1M cells, sessions use the first ones: those are read by index, in requests a
        // device answers well within a deadline (ONOS's is 10 s), rather than the whole arrays at once.
        if (2 * limit <= size) {
            for (int first = 0; first < limit; first += CELLS_PER_READ) {
                List<Integer> cells = new ArrayList<>(CELLS_PER_READ);
                for (int c = first; c < Math.min(limit, (long) first + CELLS_PER_READ); c++) {
                    cells.add(c);
                }
                out.addAll(readCounterCells(cells).values());
            }
            return out;
        }
        for (UpfCounter c : readCounterCells(-1)) {
            if (c.cellId() < limit) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * Reads some counter cells together: their ingress and egress cells in one target request (one P4Runtime
     * ReadRequest inside ONOS), e.g. the final usage of the sessions one batch removed.
     *
     * @param cells cell indexes
     * @return cell index to its counts, for every cell asked
     * @throws UpfProgrammableException if a cell is out of range, missing or the read fails
     */
    public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) throws UpfProgrammableException {
        long size = tableSize(UpfEntityType.COUNTER);
        List<PiCounterCellId> ids = new ArrayList<>(2 * cells.size());
        for (int c : cells) {
            if (c < 0 || c >= size) {
                throw new UpfProgrammableException("counter index " + c + " outside [0, " + size + ")",
                                                   COUNTER_INDEX_OUT_OF_RANGE);
            }
            ids.add(PiCounterCellId.ofIndirect(ingressCounter(), c));
            ids.add(PiCounterCellId.ofIndirect(egressCounter(), c));
        }
        Map<Integer, UpfCounter> out = new HashMap<>();
        try {
            List<PiCounterCell> ig = new ArrayList<>();
            List<PiCounterCell> eg = new ArrayList<>();
            for (PiCounterCell c : ids.isEmpty() ? List.<PiCounterCell>of() : target.readCounterCells(ids)) {
                (c.cellId().counterId().equals(ingressCounter()) ? ig : eg).add(c);
            }
            pair(ig, eg).forEach(c -> out.put((int) c.cellId(), c));
        } catch (PiTargetException e) {
            throw new UpfProgrammableException("cannot read counters: " + e.getMessage());
        }
        for (int c : cells) {
            if (!out.containsKey(c)) {
                throw new UpfProgrammableException("device returned no counter cell " + c);
            }
        }
        return out;
    }

    private static PiCounterId ingressCounter() {
        return (PiCounterId) UpfTranslator.piIds(UpfEntityType.COUNTER).get(0);
    }

    private static PiCounterId egressCounter() {
        return (PiCounterId) UpfTranslator.piIds(UpfEntityType.COUNTER).get(1);
    }

    private Collection<UpfCounter> readCounterCells(long index) throws UpfProgrammableException {
        try {
            return pair(target.readCounter(ingressCounter(), index), target.readCounter(egressCounter(), index));
        } catch (PiTargetException e) {
            throw new UpfProgrammableException("cannot read counters: " + e.getMessage());
        }
    }

    /** The counts of each cell of ingress, with its egress cell of the same index. */
    private List<UpfCounter> pair(Collection<PiCounterCell> ingress, Collection<PiCounterCell> egress)
            throws UpfProgrammableException {
        Map<Long, PiCounterCell> ig = byIndex(ingress);
        Map<Long, PiCounterCell> eg = byIndex(egress);
        List<UpfCounter> out = new ArrayList<>();
        try {
            for (Map.Entry<Long, PiCounterCell> e : ig.entrySet()) {
                PiCounterCell cell = eg.get(e.getKey());
                if (cell == null) {
                    throw new UpfProgrammableException("device returned no egress counter cell " + e.getKey());
                }
                out.add(translator.counter(e.getValue(), cell));
            }
        } catch (PiCodecException e) {
            throw new UpfProgrammableException("cannot read counters: " + e.getMessage());
        }
        return out;
    }

    private static Map<Long, PiCounterCell> byIndex(Collection<PiCounterCell> cells) {
        Map<Long, PiCounterCell> m = new TreeMap<>();
        cells.forEach(c -> m.put(c.cellId().index(), c));
        return m;
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        try {
            return translator.capacity(type);
        } catch (PiCodecException e) {
            throw new UpfProgrammableException(e.getMessage(), UNSUPPORTED_OPERATION);
        }
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        if (type == UpfEntityType.COUNTER) {
            throw new UpfProgrammableException("counters are read-only: they cannot be deleted",
                                               UNSUPPORTED_OPERATION);
        }
        Collection<? extends UpfEntity> all = readAll(type);
        if (!all.isEmpty()) {
            deleteAll(all);
        }
    }

    private List<PiEntity> translate(UpfEntity entity) throws UpfProgrammableException {
        try {
            return translator.toPi(entity);
        } catch (PiCodecException e) {
            throw new UpfProgrammableException("cannot express " + entity + ": " + e.getMessage(),
                                               UNSUPPORTED_OPERATION);
        }
    }
}
