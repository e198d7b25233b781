package org.hupf.pipeconf.pdrfar;

import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An in-memory device keyed like the P4 tables: apply overwrites by match key, delete needs the key present. */
final class RecordingUpfDevice implements HupfUpfDevice {

    final Map<List<Object>, UpfEntity> entries = new LinkedHashMap<>();

    static List<Object> key(UpfEntity e) {
        if (e instanceof UpfSessionUplink) {
            return List.of(e.type(), ((UpfSessionUplink) e).tunDstAddr(), ((UpfSessionUplink) e).teid());
        } else if (e instanceof UpfSessionDownlink) {
            return List.of(e.type(), ((UpfSessionDownlink) e).ueAddress());
        } else if (e instanceof UpfTerminationUplink) {
            UpfTerminationUplink t = (UpfTerminationUplink) e;
            return List.of(e.type(), t.ueSessionId(), t.applicationId());
        } else if (e instanceof UpfTerminationDownlink) {
            UpfTerminationDownlink t = (UpfTerminationDownlink) e;
            return List.of(e.type(), t.ueSessionId(), t.applicationId());
        } else if (e instanceof UpfGtpTunnelPeer) {
            return List.of(e.type(), ((UpfGtpTunnelPeer) e).tunPeerId());
        }
        return List.of(e);
    }

    <T extends UpfEntity> List<T> all(Class<T> type) {
        List<T> out = new ArrayList<>();
        entries.values().stream().filter(type::isInstance).map(type::cast).forEach(out::add);
        return out;
    }

    @Override
    public void apply(UpfEntity entity) {
        entries.put(key(entity), entity);
    }

    @Override
    public void delete(UpfEntity entity) throws UpfProgrammableException {
        if (entries.remove(key(entity)) == null) {
            throw new UpfProgrammableException("no such entry: " + entity);
        }
    }

    @Override
    public Collection<? extends UpfEntity> readAll(UpfEntityType type) {
        List<UpfEntity> out = new ArrayList<>();
        entries.values().stream().filter(e -> e.type() == type).forEach(out::add);
        return out;
    }

    @Override
    public UpfCounter readCounter(int cellId) throws UpfProgrammableException {
        throw new UpfProgrammableException("no counters here");
    }

    @Override
    public Collection<UpfCounter> readCounters(long maxCounterId) {
        return List.of();
    }

    @Override
    public long tableSize(UpfEntityType type) {
        return 1024;
    }

    @Override
    public void deleteAll(UpfEntityType type) {
        entries.values().removeIf(e -> e.type() == type);
    }
}
