package org.hupf.api;

import org.onlab.packet.Ip4Address;

import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The offload manager as an ONOS service, for the REST API, the CLI and the packet-in path.
 */
public interface OffloadService {

    /**
     * Returns the backends hupf drives: each holds every session and takes the switch's misses by UE hash.
     *
     * @return device ids, in the order of their ids; empty while no backend is available
     */
    List<String> backends();

    /**
     * Returns the backends the switch steers session misses to now: those of {@link #backends()} that have a
     * port on the switch, once the switch has been programmed with them.
     *
     * @return device ids; empty without a switch, or until it is programmed
     */
    List<String> steeredTo();

    /**
     * Drains a backend for a planned removal: the switch steers its UEs to the other backends (it still holds
     * every session, so none is lost), its counts are read until they stay still for quietMs (at most maxMs
     * from the steering's acknowledgement), then hupf no longer writes its sessions nor reads its counters and
     * the sessions' usage keeps what it counted: its process may then stop. It stays out, across leader changes,
     * until {@link #restore}d or until it leaves ONOS's available devices (it then comes back as a backend
     * joining: sessions first, then steering). One drain at a time; blocks until the backend has left.
     *
     * @param backend the backend's device id
     * @param quietMs how long its counts must stay still, ms
     * @param maxMs   how long to wait for that at most, ms
     * @return what the drain saw
     * @throws IllegalArgumentException bad times, or not a backend hupf drives
     * @throws IllegalStateException    not the node driving the backends, drained already, another drain
     *                                  running, or no other backend steered to that could take its UEs
     * @throws UpfProgrammableException the switch did not take the steering without it (it keeps its UEs)
     * @throws InterruptedException     interrupted before the backend left (it is then steered to again)
     */
    DrainReport drain(String backend, long quietMs, long maxMs) throws UpfProgrammableException, InterruptedException;

    /** A drain's quiet when its caller gives none (the command, REST, a resumed drain without limits), ms. */
    long DRAIN_QUIET_MS = 500;
    /** A drain's longest wait when its caller gives none, ms. */
    long DRAIN_MAX_MS = 10_000;

    /**
     * Returns a drained or draining backend to service: taken over again (its sessions reconciled) before the
     * switch steers to it.
     *
     * @param backend the backend's device id
     * @return false when it was not drained
     * @throws IllegalStateException it is being drained on this node right now
     */
    boolean restore(String backend);

    /**
     * Returns the backends drained or being drained.
     *
     * @return device id to DRAINING (not steered to, still written and read) or DRAINED (left)
     */
    Map<String, String> drains();

    /**
     * Returns the current metrics: offloaded sessions, HH reports/s, switch occupancy, bytes per path.
     *
     * @return metrics, or null while no backend is available
     */
    OffloadMetrics metrics();

    /**
     * Returns the UEs whose sessions are on the switch.
     *
     * @return UE addresses
     */
    Set<Ip4Address> offloaded();

    /**
     * Returns a session's last measured rate (both paths).
     *
     * @param ue UE address
     * @return bits per second, 0 if unknown or while no backend is available
     */
    double rateBitsPerSec(Ip4Address ue);

    /**
     * Hands over an HH report (the flow key of an HH_REPORT packet-in of the switch).
     *
     * @param ue UE address
     */
    void onHeavyHitter(Ip4Address ue);

    /**
     * Returns each site's hybrid this node drives now.
     *
     * @return site id ({@code default} without a {@code sites} block) to what its hybrid shows; empty while this
     *     node drives none
     */
    Map<String, SiteHybrid> sites();

    /** What one site's hybrid shows: its metrics, the UEs offloaded to its switch, its backends driven now. */
    final class SiteHybrid {
        /** The site's offload metrics (its sessions, its switch's occupancy, its bytes per path). */
        public final OffloadMetrics metrics;
        public final int offloaded;
        /** The UEs whose sessions are on the site's switch, in address order. */
        public final Set<Ip4Address> offloadedUes;
        public final List<String> backendsUp;
        /** The site's backends its switch steers session misses to now. */
        public final List<String> steeredTo;

        /**
         * @param metrics      the site's offload metrics
         * @param offloadedUes the UEs on its switch
         * @param backendsUp   its backends driven now
         * @param steeredTo    its backends its switch steers to now
         */
        public SiteHybrid(OffloadMetrics metrics, Set<Ip4Address> offloadedUes, List<String> backendsUp,
                          List<String> steeredTo) {
            this.metrics = metrics;
            this.offloadedUes = Collections.unmodifiableSet(new TreeSet<>(offloadedUes));
            this.offloaded = this.offloadedUes.size();
            this.backendsUp = List.copyOf(backendsUp);
            this.steeredTo = List.copyOf(steeredTo);
        }
    }
}
