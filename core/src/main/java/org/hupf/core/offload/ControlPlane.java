package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.core.session.SessionManager;
import org.hupf.core.session.SessionSites;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.site.Site;
import org.hupf.core.site.SitePlacement;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.HupfUpfDevice;
import org.hupf.pipeconf.api.UpfInterface;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The one place that composes hupf's control plane, for every host (ONOS's {@code HupfManager} and
 * {@code HybridTakeover}, the standalone host, the lab runner): the session core (translator, resource pool,
 * session manager and its UPF interfaces) from the settings a host reads, and the hybrid device over the
 * backends and the switch. A host brings what differs: its store, its resource pool, its device list.
 * It lives beside the hybrid's classes: ONOS's takeover (in this package) calls it, and a composition
 * root in a package of its own would tie that package and this one in a cycle.
 */
public final class ControlPlane {

    /** How long a session meter's burst lasts at its rate (ms): the translator's bucket depth. */
    private static final long BURST_MS = 10;

    private final SessionStore store;
    private final ResourcePool pool;
    private final Supplier<Collection<HupfUpfDevice>> devices;
    private final List<Ip4Address> n3Addresses;
    private final List<Ip4Prefix> uePools;
    private final int sliceId;
    private final Map<Integer, Integer> qfiToTc;
    private final Supplier<Map<String, SessionTenant>> tenants;
    private final Set<String> networkInstances;
    private final SitePlacement placement;
    private final Function<String, Collection<HupfUpfDevice>> siteDevices;

    private ControlPlane(Builder b) {
        store = Objects.requireNonNull(b.store, "store");
        pool = Objects.requireNonNull(b.pool, "pool");
        devices = Objects.requireNonNull(b.devices, "devices");
        if (b.n3Addresses.isEmpty() || b.uePools.isEmpty()) {
            throw new IllegalArgumentException("a control plane needs an N3 address and a UE pool");
        }
        n3Addresses = List.copyOf(b.n3Addresses);
        uePools = List.copyOf(b.uePools);
        sliceId = b.sliceId;
        qfiToTc = Map.copyOf(b.qfiToTc);
        tenants = b.tenants;
        networkInstances = b.networkInstances;
        placement = b.sites.isEmpty() ? null : new SitePlacement(b.sites);
        if (placement != null && b.siteDevices == null) {
            throw new IllegalArgumentException("a control plane with sites needs each site's devices");
        }
        siteDevices = b.siteDevices;
    }

    /** @return a builder of the session core */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The session core: a session manager over the store, writing each session to its site's devices (every
     * device without sites), with an access interface per N3 address and a core interface per UE pool, all in the
     * slice, on every device. The first N3 address is the one the translator and the session manager put in the
     * tunnels they create.
     *
     * @return the session manager
     */
    public SessionManager sessionManager() {
        Ip4Address n3 = n3Addresses.get(0);
        SessionSites sites = placement == null ? SessionSites.one(devices)
                : SessionSites.of(placement.sites().stream().map(s -> s.id).collect(Collectors.toList()),
                                  placement::siteOf, siteDevices, s -> placement.n3Of(placement.siteOf(s), null));
        SessionManager m = new SessionManager(
                store, new SessionTranslator(n3, sliceId, qfiToTc, BURST_MS, tenants, networkInstances, placement),
                pool, devices, sites, n3);
        Set<UpfInterface> ifaces = new HashSet<>();
        for (Ip4Address a : n3Addresses) {
            ifaces.add(UpfInterface.builder()
                               .setPrefix(Ip4Prefix.valueOf(a, 32)).setAccess().setSliceId(sliceId).build());
        }
        for (Ip4Prefix p : uePools) {
            ifaces.add(UpfInterface.builder()
                               .setPrefix(p).setCore().setSliceId(sliceId).build());
        }
        m.setInterfaces(ifaces);
        return m;
    }

    /**
     * The hybrid over a fixed set of backends that each hold every session, and an optional switch.
     *
     * @param backends the backends, the one the hybrid device writes through first (at least one)
     * @param hardware the switch, or null
     * @param policy   the offload policy
     * @param clock    the offload manager's clock, in ms
     * @return the offload manager and the hybrid device
     * @throws UpfProgrammableException if the switch's table sizes cannot be read
     */
    public static Hybrid hybrid(List<HupfUpfDevice> backends, HupfUpfDevice hardware, OffloadPolicy policy,
                                LongSupplier clock) throws UpfProgrammableException {
        HupfUpfDevice measured = backends.size() == 1 ? backends.get(0) : new BackendReplicas(backends);
        return assemble(backends.get(0), measured, hardware, policy, clock);
    }

    /**
     * The hybrid over backends that come and go, and an optional switch.
     *
     * @param first    the backend the hybrid device writes through
     * @param live     the backends that hold the sessions now, {@code first} first
     * @param alone    whether {@code first} is the only backend there will be: measured without replicas
     * @param hardware the switch, or null
     * @param policy   the offload policy
     * @param clock    the offload manager's clock, in ms
     * @return the offload manager and the hybrid device
     * @throws UpfProgrammableException if the switch's table sizes cannot be read
     */
    public static Hybrid hybrid(HupfUpfDevice first, Supplier<List<HupfUpfDevice>> live, boolean alone,
                                HupfUpfDevice hardware, OffloadPolicy policy, LongSupplier clock)
            throws UpfProgrammableException {
        return assemble(first, alone ? first : new BackendReplicas(live), hardware, policy, clock);
    }

    /*
     * The offload manager measures a session over every backend (the sum of their cells: the switch splits
     * the UEs among them); the hybrid device writes through the first backend and the switch.
     */
    private static Hybrid assemble(HupfUpfDevice first, HupfUpfDevice measured, HupfUpfDevice hardware,
                                   OffloadPolicy policy, LongSupplier clock) throws UpfProgrammableException {
        OffloadManager manager = new OffloadManager(measured, hardware, policy, clock);
        return new Hybrid(manager, new HybridUpfDevice(first, hardware, manager, measured == first));
    }

    /** What {@link #hybrid} assembled. */
    public static final class Hybrid {
        /** Decides what goes to the switch and measures sessions over the backends. */
        public final OffloadManager offload;
        /** The device the session manager writes the first backend and the switch through. */
        public final HybridUpfDevice device;

        private Hybrid(OffloadManager offload, HybridUpfDevice device) {
            this.offload = offload;
            this.device = device;
        }
    }

    /** Settings of the session core, each with a host's default. */
    public static final class Builder {
        private SessionStore store;
        private ResourcePool pool;
        private Supplier<Collection<HupfUpfDevice>> devices;
        private List<Ip4Address> n3Addresses = List.of();
        private List<Ip4Prefix> uePools = List.of();
        private int sliceId;
        private Map<Integer, Integer> qfiToTc = Map.of();
        private Supplier<Map<String, SessionTenant>> tenants = Map::of;
        private Set<String> networkInstances;
        private List<Site> sites = List.of();
        private Function<String, Collection<HupfUpfDevice>> siteDevices;

        private Builder() {
        }

        /** @param s where sessions are kept @return this */
        public Builder store(SessionStore s) {
            store = s;
            return this;
        }

        /** @param p counter and meter cells @return this */
        public Builder pool(ResourcePool p) {
            pool = p;
            return this;
        }

        /**
         * @param d every device, read at each use: without sites, each session is written to all of them; with
         *          sites, usage is summed over them
         * @return this
         */
        public Builder devices(Supplier<Collection<HupfUpfDevice>> d) {
            devices = d;
            return this;
        }

        /** @param a the N3 addresses, the first one in the tunnels hupf creates @return this */
        public Builder n3Addresses(List<Ip4Address> a) {
            n3Addresses = a;
            return this;
        }

        /** @param p the UE pools (core interfaces) @return this */
        public Builder uePools(List<Ip4Prefix> p) {
            uePools = p;
            return this;
        }

        /** @param s the slice of the interfaces and sessions @return this */
        public Builder sliceId(int s) {
            sliceId = s;
            return this;
        }

        /** @param m traffic class per QFI @return this */
        public Builder qfiToTc(Map<Integer, Integer> m) {
            qfiToTc = m;
            return this;
        }

        /** @param t the tenants sessions bind to, by Network Instance, read per session @return this */
        public Builder tenants(Supplier<Map<String, SessionTenant>> t) {
            tenants = t;
            return this;
        }

        /** @param n the Network Instances accepted without a tenant; null accepts any @return this */
        public Builder networkInstances(Set<String> n) {
            networkInstances = n;
            return this;
        }

        /**
         * @param s the sites a session is placed at, each refusing what none serves; empty: one implicit site
         *          serving every gNB
         * @return this
         */
        public Builder sites(List<Site> s) {
            sites = s;
            return this;
        }

        /**
         * @param d each site's devices by its {@code siteId}, read at each write: a session is written to its
         *          site's only (needed with {@link #sites})
         * @return this
         */
        public Builder siteDevices(Function<String, Collection<HupfUpfDevice>> d) {
            siteDevices = d;
            return this;
        }

        /** @return the control plane's composition */
        public ControlPlane build() {
            return new ControlPlane(this);
        }
    }
}
