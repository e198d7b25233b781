package org.hupf.api;

import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Set;

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
     * Returns the offload manager's most recent events, oldest first.
     *
     * @return recent events (a bounded number), empty while no backend is available
     */
    List<OffloadEvent> recentEvents();

    /**
     * Hands over an HH report (the flow key of an HH_REPORT packet-in of the switch).
     *
     * @param ue UE address
     */
    void onHeavyHitter(Ip4Address ue);
}
