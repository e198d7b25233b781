package org.hupf.app.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.core.device.CellChanges;
import org.hupf.core.device.CounterCellReader;
import org.hupf.core.offload.Hybrid;
import org.hupf.core.offload.OffloadManager;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/** A site whose backend's counters cannot be read is polled with a growing pause, every tick again once read. */
public class HybridPollTest {

    /** A backend whose counter reads fail while {@link #failing}; it notes when each read was tried. */
    private static final class Backend implements HupfUpfDevice, CounterCellReader {
        final List<Long> readsAt = new ArrayList<>();
        final long[] now;
        boolean failing = true;

        Backend(long[] now) {
            this.now = now;
        }

        @Override
        public CellChanges readChangedCells(int maxCell, CellChanges since) throws UpfProgrammableException {
            readsAt.add(now[0]);
            if (failing) {
                throw new UpfProgrammableException("injected: the backend does not answer");
            }
            return new CellChanges(true, List.of(), null);
        }

        @Override
        public Map<Integer, UpfCounter> readCounterCells(Collection<Integer> cells) {
            return Map.of();
        }

        @Override
        public void apply(UpfEntity entity) {
        }

        @Override
        public void delete(UpfEntity entity) {
        }

        @Override
        public Collection<? extends UpfEntity> readAll(UpfEntityType type) {
            return List.of();
        }

        @Override
        public UpfCounter readCounter(int cellId) {
            throw new UnsupportedOperationException();
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
        }
    }

    @Test
    public void aFailingBackendIsPolledWithADoublingPauseThenEveryTickOnceItAnswers() throws Exception {
        long[] now = {0};
        Backend backend = new Backend(now);
        DeviceId id = DeviceId.deviceId("device:backend1");
        OffloadManager manager = new OffloadManager(backend, null, OffloadPolicy.builder().build(), () -> now[0]);
        Hybrid site = new Hybrid("edge1", List.of(id), Map.of(id, backend), null, manager, List.of(backend));
        HybridPoll poll = new HybridPoll(() -> List.of(site), Map::of, Map::of, () -> now[0]);

        for (; now[0] <= 70_000; now[0] += HybridPoll.PERIOD_MS) {
            poll.run();
        }
        assertEquals("tried after 1, 2, 4, 8, 16 s, then every 32 s",
                     List.of(0L, 1_000L, 3_000L, 7_000L, 15_000L, 31_000L, 63_000L), backend.readsAt);

        backend.failing = false;
        backend.readsAt.clear();
        for (; now[0] <= 100_000; now[0] += HybridPoll.PERIOD_MS) {
            poll.run();
        }
        assertEquals("read at 95 s, after the pause then under way, then at every tick",
                     List.of(95_000L, 96_000L, 97_000L, 98_000L, 99_000L, 100_000L), backend.readsAt);
    }
}
