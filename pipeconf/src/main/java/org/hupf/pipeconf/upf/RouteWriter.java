package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.Route;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Keeps the routes no session owns ({@code routes_v4}) as wanted, by a read and a diff.
 */
final class RouteWriter {

    private final DataplaneTables tables;

    RouteWriter(DataplaneTables tables) {
        this.tables = tables;
    }

    /**
     * The {@code routes_v4} entry of a route.
     *
     * @param r route
     * @return table entry
     * @throws PiCodecException if this pipeline has no routes or a value does not fit
     */
    PiTableEntry entry(Route r) throws PiCodecException {
        PiCodec codec = tables.codec();
        PiTableId t = HUPF_INGRESS_ROUTING_ROUTES_V4;
        return PiTableEntry.builder().forTable(t)
                .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiLpmFieldMatch(
                        HDR_IPV4_DST, codec.field(t, HDR_IPV4_DST, r.prefix().address().toInt()
                                & DataplaneTables.MAX_U32), r.prefix().prefixLength())).build())
                .withAction(codec.action(HUPF_INGRESS_ROUTING_ROUTE, SRC_MAC, r.srcMac().toLong(),
                                         DST_MAC, r.dstMac().toLong(), PORT, r.port()))
                .build();
    }

    /**
     * Reads a {@code routes_v4} entry back as a route (values compared as numbers: a device may answer
     * with shorter, canonical byte strings than were written).
     *
     * @param e table entry
     * @return the route, empty if the entry is not a route this class writes
     */
    static Optional<Route> route(PiTableEntry e) {
        try {
            PiFieldMatch m = PiCodec.match(e, HDR_IPV4_DST).orElse(null);
            if (!(m instanceof PiLpmFieldMatch) || !(e.action() instanceof PiAction)
                    || !((PiAction) e.action()).id().equals(HUPF_INGRESS_ROUTING_ROUTE)) {
                return Optional.empty();
            }
            PiLpmFieldMatch lpm = (PiLpmFieldMatch) m;
            PiAction a = (PiAction) e.action();
            return Optional.of(new Route(
                    Ip4Prefix.valueOf((int) PiCodec.toLong(lpm.value(), "ipv4_dst"), lpm.prefixLength()),
                    PiCodec.param(a, PORT), MacAddress.valueOf(PiCodec.param(a, SRC_MAC)),
                    MacAddress.valueOf(PiCodec.param(a, DST_MAC))));
        } catch (PiCodecException | IllegalArgumentException ex) {
            return Optional.empty();
        }
    }

    /**
     * Makes the device's routes these, by a read and a diff: entries that differ or are not wanted are
     * removed, missing ones written; routes already right are left alone (no gap in forwarding).
     *
     * @param routes routes (one per prefix)
     * @return entries removed plus entries written (0: the device already held exactly these routes)
     * @throws PiCodecException if this pipeline has no routes, a value does not fit or a prefix repeats
     * @throws PiTargetException if the device refuses an entry
     */
    int setRoutes(Collection<Route> routes) throws PiCodecException, PiTargetException {
        PiTarget target = tables.target();
        PiTableId t = HUPF_INGRESS_ROUTING_ROUTES_V4;
        tables.requireFits(t, routes.size());
        Map<Ip4Prefix, Route> wanted = new HashMap<>();
        for (Route r : routes) {
            if (wanted.put(r.prefix(), r) != null) {
                throw new PiCodecException("two routes for " + r.prefix());
            }
        }
        List<PiEntity> stale = new ArrayList<>();
        Map<Ip4Prefix, Route> held = new HashMap<>();
        for (PiTableEntry e : target.readTable(t)) {
            Optional<Route> r = route(e);
            if (r.isPresent() && r.get().equals(wanted.get(r.get().prefix()))) {
                held.put(r.get().prefix(), r.get());
            } else {
                stale.add(e);
            }
        }
        List<PiEntity> missing = new ArrayList<>();
        for (Route r : wanted.values()) {
            if (!held.containsKey(r.prefix())) {
                missing.add(entry(r));
            }
        }
        if (!stale.isEmpty()) {
            target.delete(stale);
        }
        if (!missing.isEmpty()) {
            target.write(missing);
        }
        return stale.size() + missing.size();
    }
}
