package org.hupf.core.offload;

import org.onlab.packet.Ip4Address;

import java.util.Map;

/**
 * Where the offload manager keeps each session's {@link OffloadRecord}: in ONOS, a map of the cluster's
 * distributed store ({@link DistributedOffloadStore}), so the next leader finds it.
 */
public interface OffloadStore {

    /** A store that keeps nothing: one process that never hands over (the standalone lab, unit tests). */
    OffloadStore NONE = new OffloadStore() {
        @Override
        public OffloadRecord get(Ip4Address ue) {
            return null;
        }

        @Override
        public void put(Ip4Address ue, OffloadRecord record) {
        }

        @Override
        public void remove(Ip4Address ue) {
        }

        @Override
        public Map<Ip4Address, OffloadRecord> all() {
            return Map.of();
        }
    };

    /** @return the session's record, or null */
    OffloadRecord get(Ip4Address ue);

    void put(Ip4Address ue, OffloadRecord record);

    void remove(Ip4Address ue);

    /** @return every record (a copy) */
    Map<Ip4Address, OffloadRecord> all();
}
