package org.hupf.app.offload;

import org.hupf.app.lab.MemoryUpfDevice;
import org.hupf.app.lab.ScaleSimulation;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Set;

/**
 * An offload service over a real manager and in-memory devices, for the REST and CLI tests; with no
 * backend it answers like the component before devices appear.
 */
public final class TestOffloadService implements OffloadService {

    private final OffloadManager manager;

    private TestOffloadService(OffloadManager manager) {
        this.manager = manager;
    }

    /**
     * @param sessions sessions installed (UEs as {@link ScaleSimulation#ue})
     * @return a service with a backend and a switch of 8 sessions
     * @throws UpfProgrammableException never with these devices
     */
    public static TestOffloadService withSessions(int sessions) throws UpfProgrammableException {
        OffloadManager m = new OffloadManager(new MemoryUpfDevice(1024, 2048, 64), new MemoryUpfDevice(8, 16, 8),
                                              OffloadPolicy.builder().confirmReports(false).build(),
                                              System::currentTimeMillis);
        for (int i = 0; i < sessions; i++) {
            m.put(ScaleSimulation.session(i));
        }
        return new TestOffloadService(m);
    }

    /** @return a service without any backend */
    public static TestOffloadService withoutBackend() {
        return new TestOffloadService(null);
    }

    @Override
    public OffloadMetrics metrics() {
        return manager == null ? null : manager.metrics();
    }

    @Override
    public Set<Ip4Address> offloaded() {
        return manager == null ? Set.of() : manager.offloaded();
    }

    @Override
    public void onHeavyHitter(Ip4Address ue) {
        manager.onHeavyHitter(ue);
    }
}
