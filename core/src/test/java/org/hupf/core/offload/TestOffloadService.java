package org.hupf.core.offload;

import org.hupf.api.DrainReport;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadPolicy;
import org.hupf.api.OffloadService;
import org.hupf.core.device.InMemoryUpfDevice;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An offload service over a real manager and in-memory devices, for the REST and CLI tests; with no
 * backend it answers like the component before devices appear.
 */
public final class TestOffloadService implements OffloadService {

    /** A site of this service: its manager, its backends driven and those its switch steers to. */
    private static final class Site {
        final OffloadManager manager;
        final List<String> backends;
        final List<String> steeredTo;

        Site(OffloadManager manager, List<String> backends, List<String> steeredTo) {
            this.manager = manager;
            this.backends = backends;
            this.steeredTo = steeredTo;
        }
    }

    private final Map<String, Site> sites;
    private final Map<String, String> drains = new TreeMap<>();

    private TestOffloadService(Map<String, Site> sites) {
        this.sites = sites;
    }

    private static OffloadManager manager(int first, int count) throws UpfProgrammableException {
        OffloadManager m = new OffloadManager(new InMemoryUpfDevice("backend", 1024, 2048, 64),
                                              new InMemoryUpfDevice("switch", 8, 16, 8),
                                              OffloadPolicy.builder().confirmReports(false).build(),
                                              System::currentTimeMillis);
        for (int i = first; i < first + count; i++) {
            m.put(OffloadManagerTest.session(i));
        }
        return m;
    }

    /**
     * @param sessions sessions installed (UEs as {@link #ue})
     * @return a service with a backend and a switch of 8 sessions, at the one implicit site
     * @throws UpfProgrammableException never with these devices
     */
    public static TestOffloadService withSessions(int sessions) throws UpfProgrammableException {
        return new TestOffloadService(Map.of("default", new Site(manager(0, sessions), List.of("backend"),
                                                                 List.of("backend"))));
    }

    /**
     * Two sites, each a switch of 8 sessions: edge-a with sessions 0 to 2 and backend device:b1 (steered to),
     * edge-b with sessions 3 and 4 and backends device:b2 (steered to) and device:b3 (held, no port on the switch).
     *
     * @return the service
     * @throws UpfProgrammableException never with these devices
     */
    public static TestOffloadService twoSites() throws UpfProgrammableException {
        Map<String, Site> sites = new LinkedHashMap<>();
        sites.put("edge-a", new Site(manager(0, 3), List.of("device:b1"), List.of("device:b1")));
        sites.put("edge-b", new Site(manager(3, 2), List.of("device:b2", "device:b3"), List.of("device:b2")));
        return new TestOffloadService(sites);
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
        return new TestOffloadService(Map.of());
    }

    @Override
    public OffloadMetrics metrics() {
        List<OffloadMetrics> bySite = new ArrayList<>();
        sites.values().forEach(s -> bySite.add(s.manager.metrics()));
        return OffloadMetrics.sum(bySite);
    }

    @Override
    public Map<String, SiteHybrid> sites() {
        Map<String, SiteHybrid> out = new LinkedHashMap<>();
        sites.forEach((id, s) -> out.put(id, new SiteHybrid(s.manager.metrics(), s.manager.offloaded(), s.backends,
                                                             s.steeredTo)));
        return out;
    }

    @Override
    public List<String> backends() {
        List<String> all = new ArrayList<>();
        sites.values().forEach(s -> all.addAll(s.backends));
        return all;
    }

    @Override
    public List<String> steeredTo() {
        List<String> all = new ArrayList<>();
        sites.values().forEach(s -> all.addAll(s.steeredTo));
        return all;
    }

    @Override
    public Set<Ip4Address> offloaded() {
        Set<Ip4Address> all = new TreeSet<>();
        sites.values().forEach(s -> all.addAll(s.manager.offloaded()));
        return all;
    }

    @Override
    public double rateBitsPerSec(Ip4Address ue) {
        double rate = 0;
        for (Site s : sites.values()) {
            rate += s.manager.rateBitsPerSec(ue);
        }
        return rate;
    }

    /** Goes to the site whose manager tracks the UE, as the component does. */
    @Override
    public void onHeavyHitter(Ip4Address ue) {
        for (Site s : sites.values()) {
            if (s.manager.isTracked(ue)) {
                s.manager.onHeavyHitter(ue);
                return;
            }
        }
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
        if (sites.isEmpty()) {
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
