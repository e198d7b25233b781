package org.hupf.standalone.p4rt;

import io.grpc.Status;
import org.hupf.pipeconf.upf.PiTarget;
import org.hupf.pipeconf.upf.PiTargetException;
import org.hupf.pipeconf.upf.PiWrites;
import org.onosproject.net.pi.model.PiActionProfileId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiActionProfileGroup;
import org.onosproject.net.pi.runtime.PiActionProfileMember;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * {@link PiTarget} over a direct P4Runtime connection ({@link P4rtClient} + {@link PiEncoder}).
 */
public final class P4RuntimeTarget implements PiTarget {

    private final P4rtClient client;
    private final PiEncoder encoder;

    public P4RuntimeTarget(P4rtClient client, PiEncoder encoder) {
        this.client = client;
        this.encoder = encoder;
    }

    /**
     * Writes entities. Keyed entities are inserted, and those that already exist are then modified, so
     * that a write means "install or overwrite" as in {@code HupfUpfDevice.apply}.
     */
    @Override
    public void write(Collection<? extends PiEntity> entities) throws PiTargetException {
        List<Entity> inserts = new ArrayList<>();
        List<Entity> modifies = new ArrayList<>();
        for (PiEntity e : entities) {
            Entity encoded = encode(e);
            if (PiWrites.isModifyOnly(e)) {
                modifies.add(encoded);
            } else {
                inserts.add(encoded);
            }
        }
        try {
            client.write(updates(inserts, Update.Type.INSERT));
        } catch (P4RuntimeException e) {
            List<Status.Code> codes = e.updateCodes();
            if (codes.size() != inserts.size()) {
                throw failure(e);
            }
            for (int i = 0; i < codes.size(); i++) {
                if (codes.get(i) == Status.Code.ALREADY_EXISTS) {
                    modifies.add(inserts.get(i));
                } else if (codes.get(i) != Status.Code.OK) {
                    throw failure(e);
                }
            }
        }
        try {
            client.write(updates(modifies, Update.Type.MODIFY));
        } catch (P4RuntimeException e) {
            throw failure(e);
        }
    }

    private static PiTargetException failure(P4RuntimeException e) {
        return new PiTargetException(e.getMessage(), e.updateCodes().contains(Status.Code.RESOURCE_EXHAUSTED), e);
    }

    @Override
    public void delete(Collection<? extends PiEntity> entities) throws PiTargetException {
        List<Entity> deletes = new ArrayList<>();
        for (PiEntity e : entities) {
            deletes.add(encode(e));
        }
        try {
            client.write(updates(deletes, Update.Type.DELETE));
        } catch (P4RuntimeException e) {
            throw new PiTargetException(e.getMessage(), e);
        }
    }

    @Override
    public Collection<PiTableEntry> readTable(PiTableId table) throws PiTargetException {
        List<PiTableEntry> out = new ArrayList<>();
        for (PiEntity e : read(() -> encoder.readTable(table))) {
            out.add((PiTableEntry) e);
        }
        return out;
    }

    @Override
    public Collection<PiCounterCell> readCounter(PiCounterId counter, long index) throws PiTargetException {
        List<PiCounterCell> out = new ArrayList<>();
        for (PiEntity e : read(() -> encoder.readCounter(counter, index))) {
            out.add((PiCounterCell) e);
        }
        return out;
    }

    @Override
    public Collection<PiMeterCellConfig> readMeter(PiMeterId meter) throws PiTargetException {
        List<PiMeterCellConfig> out = new ArrayList<>();
        for (PiEntity e : read(() -> encoder.readMeter(meter))) {
            out.add((PiMeterCellConfig) e);
        }
        return out;
    }

    @Override
    public Collection<PiActionProfileMember> readMembers(PiActionProfileId profile) throws PiTargetException {
        List<PiActionProfileMember> out = new ArrayList<>();
        for (PiEntity e : read(() -> encoder.readMembers(profile))) {
            out.add((PiActionProfileMember) e);
        }
        return out;
    }

    @Override
    public Collection<PiActionProfileGroup> readGroups(PiActionProfileId profile) throws PiTargetException {
        List<PiActionProfileGroup> out = new ArrayList<>();
        for (PiEntity e : read(() -> encoder.readGroups(profile))) {
            out.add((PiActionProfileGroup) e);
        }
        return out;
    }

    private interface Filter {
        Entity get() throws P4RuntimeException;
    }

    private List<PiEntity> read(Filter filter) throws PiTargetException {
        try {
            List<PiEntity> out = new ArrayList<>();
            for (Entity e : client.read(List.of(filter.get()))) {
                out.add(encoder.decode(e));
            }
            return out;
        } catch (P4RuntimeException e) {
            throw new PiTargetException(e.getMessage(), e);
        }
    }

    private Entity encode(PiEntity e) throws PiTargetException {
        try {
            return encoder.encode(e);
        } catch (P4RuntimeException ex) {
            throw new PiTargetException(ex.getMessage(), ex);
        }
    }

    private static List<Update> updates(List<Entity> entities, Update.Type type) {
        List<Update> out = new ArrayList<>();
        entities.forEach(e -> out.add(Update.newBuilder().setType(type).setEntity(e).build()));
        return out;
    }
}
