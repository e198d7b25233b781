package org.hupf.core.offload;

import org.hupf.api.DrainReport;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadPolicy;
import org.hupf.api.OffloadService;
import org.hupf.core.device.InMemoryUpfDevice;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An offload service over a real manager and in-memory devices, for the REST and CLI tests; with no
 * backend it answers like the component before devices appear.
 */
public final class TestOffloadService implements OffloadService {

    private final OffloadManager manager;
    private final Map<String, String> drains = new TreeMap<>();

    private TestOffloadService(OffloadManager manager) {
        this.manager = manager;
    }

    /**
     * @param sessions sessions installed (UEs as {@link #ue})
     * @return a service with a backend and a switch of 8 sessions
     * @throws UpfProgrammableException never with these devices
     */
    public static TestOffloadService withSessions(int sessions) throws UpfProgrammableException {
        OffloadManager m = new OffloadManager(new InMemoryUpfDevice("backend", 1024, 2048, 64),
                                              new InMemoryUpfDevice("switch", 8, 16, 8),
                                              OffloadPolicy.builder().confirmReports(false).build(),
                                              System::currentTimeMillis);
        for (int i = 0; i < sessions; i++) {
            m.put(OffloadManagerTest.session(i));
        }
        return new TestOffloadService(m);
    }

    /**
     * Returns the UE address of session i.
     *
     * @param i session index
     * @return UE address
     */
    public static Ip4Address ue(int i) {
        return OffloadManagerTest.ue(i);
    }

    /** @return a service without any backend */
    public static TestOffloadService withoutBackend() {
        return new TestOffloadService(null);
    }

    @Override
    public OffloadMetrics metrics() {
        return manager == null ? null : manager.metrics();
    }

    /** The one implicit site: {@link #backends()} and what the manager offloaded. */
    @Override
    public Map<String, SiteHybrid> sites() {
        return manager == null ? Map.of() : Map.of("default", new SiteHybrid(manager.offloaded().size(), backends()));
    }

    @Override
    public List<String> backends() {
        return manager == null ? List.of() : List.of("backend");
    }

    @Override
    public List<String> steeredTo() {
        return backends();
    }

    @Override
    public Set<Ip4Address> offloaded() {
        return manager == null ? Set.of() : manager.offloaded();
    }

    @Override
    public double rateBitsPerSec(Ip4Address ue) {
        return manager == null ? 0 : manager.rateBitsPerSec(ue);
    }

    @Override
    public void onHeavyHitter(Ip4Address ue) {
        manager.onHeavyHitter(ue);
    }

    /** Drains "backend2", a second backend this service pretends to steer to: it leaves at once, 7 packets read. */
    @Override
    public DrainReport drain(String backend, long quietMs, long maxMs) throws UpfProgrammableException {
        if (quietMs <= 0 || maxMs < quietMs) {
            throw new IllegalArgumentException("drain: need 0 < quiet <= max");
        }
        if ("DRAINED".equals(drains.get(backend))) {
            throw new IllegalStateException(backend + " is drained already");
        }
        if (!backend.equals("backend2")) {
            throw new IllegalArgumentException(backend + " is not a backend hupf drives");
        }
        if (manager == null) {
            throw new UpfProgrammableException("the switch did not take the steering without " + backend);
        }
        drains.put(backend, "DRAINED");
        return new DrainReport(true, 3, quietMs + 3, 7, 0, 2, null);
    }

    @Override
    public boolean restore(String backend) {
        return drains.remove(backend) != null;
    }

    @Override
    public Map<String, String> drains() {
        return Map.copyOf(drains);
    }
}
