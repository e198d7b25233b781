package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.HupfUpf;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.List;

/**
 * {@link HupfUpf} for both profiles inside ONOS: the translator writes through {@link OnosPiTarget}.
 */
public class HupfUpfProgrammable extends HupfP4RuntimeBehaviour implements HupfUpf {

    @Override
    public void apply(UpfEntity entity) throws UpfProgrammableException {
        upfDevice("apply").apply(entity);
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        upfDevice("delete").delete(entity);
    }

    @Override
    public void applyInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        upfDevice("applyInOrder").applyInOrder(entities);
    }

    @Override
    public void deleteInOrder(List<? extends UpfEntity> entities) throws UpfProgrammableException {
        upfDevice("deleteInOrder").deleteInOrder(entities);
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) throws UpfProgrammableException {
        return upfDevice("readAll").readAll(type);
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        return upfDevice("readCounter").readCounter(cellId);
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) throws UpfProgrammableException {
        return upfDevice("readCounters").readCounters(maxCounterId);
    }

    @Override
    public long tableSize(UpfEntityType type) throws UpfProgrammableException {
        return upfDevice("tableSize").tableSize(type);
    }

    @Override
    public void deleteAll(UpfEntityType type) throws UpfProgrammableException {
        upfDevice("deleteAll").deleteAll(type);
    }
}
