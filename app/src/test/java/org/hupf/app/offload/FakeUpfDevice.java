package org.hupf.app.offload;

import org.hupf.app.device.InMemoryUpfDevice;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The in-memory device with a write log and injectable write failures: the runtime boundary of the
 * offload manager in its unit tests.
 */
final class FakeUpfDevice implements HupfUpfDevice {

    private final InMemoryUpfDevice mem;
    final List<String> log = new ArrayList<>();
    UpfEntityType failApplyOf;

    FakeUpfDevice(long sessions, long counterCells, long meterCells) {
        mem = new InMemoryUpfDevice("fake", sessions, counterCells, meterCells);
    }

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        if (entity.type() == failApplyOf) {
            throw new UpfProgrammableException("injected failure on " + entity.type());
        }
        mem.apply(entity);
        log.add("apply " + entity.type());
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        if (mem.holds(entity)) {
            log.add("delete " + entity.type());
        }
        mem.delete(entity);
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return mem.readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        return mem.readCounter(cellId);
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        return mem.readCounters(maxCounterId);
    }

    @Override
    public long tableSize(UpfEntityType type) {
        return mem.tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        mem.deleteAll(type);
    }

    int count(UpfEntityType type) {
        return mem.count(type);
    }

    boolean holds(UpfEntity keyOf) {
        return mem.holds(keyOf);
    }

    /** One uplink packet; false on a session miss (the switch would steer it to the backend). */
    boolean countUplink(UpfSessionUplink key, Ip4Address ue, long bytes) {
        return mem.countUplink(key, ue, 1, bytes);
    }

    void setCounter(int cell, long pkts, long bytes) {
        mem.setCounter(UpfCounter.builder().withCellId(cell).setIngress(pkts, bytes).setEgress(pkts, bytes).build());
    }
}
