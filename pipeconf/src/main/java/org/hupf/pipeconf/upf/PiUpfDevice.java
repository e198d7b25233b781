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
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
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

    private static final int FEW_COUNTERS = 256;

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
        // The sw profile has ~1M cells: a few are read one by one rather than all at once.
        if (limit <= FEW_COUNTERS) {
            for (int i = 0; i < limit; i++) {
                out.addAll(readCounterCells(i));
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

    private Collection<UpfCounter> readCounterCells(long index) throws UpfProgrammableException {
        List<? extends Object> ids = UpfTranslator.piIds(UpfEntityType.COUNTER);
        try {
            Map<Long, PiCounterCell> ig = byIndex(target.readCounter((PiCounterId) ids.get(0), index));
            Map<Long, PiCounterCell> eg = byIndex(target.readCounter((PiCounterId) ids.get(1), index));
            List<UpfCounter> out = new ArrayList<>();
            for (Map.Entry<Long, PiCounterCell> e : ig.entrySet()) {
                PiCounterCell egress = eg.get(e.getKey());
                if (egress == null) {
                    throw new UpfProgrammableException("device returned no egress counter cell " + e.getKey());
                }
                out.add(translator.counter(e.getValue(), egress));
            }
            return out;
        } catch (PiTargetException | PiCodecException e) {
            throw new UpfProgrammableException("cannot read counters: " + e.getMessage());
        }
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
