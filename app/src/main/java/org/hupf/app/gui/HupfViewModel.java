package org.hupf.app.gui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadMetrics;
import org.hupf.api.OffloadService;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.pipeconf.HupfPipeconfIds;
import org.hupf.pipeconf.api.UpfEntityType;
import org.onlab.packet.Ip4Address;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.ui.table.TableModel;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What the hupf view shows, computed from hupf's services (no GUI plumbing, so it is testable alone): one
 * table row per session, and a summary with the offload metrics, switch table occupancy and
 * the hupf devices.
 */
final class HupfViewModel {

    static final String ID = "id";
    static final String CP_SEID = "cpSeid";
    static final String UE = "ue";
    static final String TEID_UP = "teidUp";
    static final String TEID_DOWN = "teidDown";
    static final String PATH = "path";
    static final String RATE = "rateKbps";
    static final String SITE = "site";
    static final String[] SESSION_COLUMNS = {ID, CP_SEID, UE, TEID_UP, TEID_DOWN, SITE, PATH, RATE};

    /** Path shown for a session carried by the switch, and by a backend. */
    static final String HW = "HW";
    static final String SW = "SW";
    /** Shown for a TEID or UE address the session does not have (e.g. downlink still buffering). */
    static final String NONE = "-";

    private HupfViewModel() {
    }

    /**
     * Adds one row per session.
     *
     * @param tm       the table
     * @param sessions sessions of the session store
     * @param siteOf   the site a session is served at, null where the netcfg names no sites
     * @param offload  the offload service: path and rate of each UE
     */
    static void populateSessions(TableModel tm, Collection<PfcpSession> sessions,
                                 Function<PfcpSession, String> siteOf, OffloadService offload) {
        Set<Ip4Address> onSwitch = offload.offloaded();
        for (PfcpSession s : sessions) {
            Optional<Ip4Address> ue = ueAddress(s);
            tm.addRow()
                    .cell(ID, Long.toUnsignedString(s.upSeid))
                    .cell(CP_SEID, Long.toUnsignedString(s.cpSeid))
                    .cell(UE, ue.map(Ip4Address::toString).orElse(NONE))
                    .cell(TEID_UP, teids(s, true))
                    .cell(TEID_DOWN, teids(s, false))
                    .cell(SITE, Objects.requireNonNullElse(siteOf.apply(s), NONE))
                    .cell(PATH, ue.filter(onSwitch::contains).isPresent() ? HW : SW)
                    .cell(RATE, ue.map(u -> Math.round(offload.rateBitsPerSec(u) / 1000)).orElse(0L));
        }
    }

    /** The session's UE address (the one its PDRs match on), if it has one. */
    static Optional<Ip4Address> ueAddress(PfcpSession s) {
        return s.pdrs.values().stream().map(p -> p.ueAddress).filter(a -> a != null).findFirst();
    }

    /**
     * Uplink: the F-TEIDs the UPF gave the session's access PDRs; downlink: the gNB TEIDs its FARs encapsulate
     * with. Hex as in packet captures, comma-separated, {@link #NONE} if there is none.
     */
    static String teids(PfcpSession s, boolean uplink) {
        Set<Long> found = new TreeSet<>();
        if (uplink) {
            for (Pdr p : s.pdrs.values()) {
                if (p.isUplink() && p.teid != null) {
                    found.add(p.teid);
                }
            }
        } else {
            for (Far f : s.fars.values()) {
                if (f.ohcTeid != null) {
                    found.add(f.ohcTeid);
                }
            }
        }
        StringBuilder b = new StringBuilder();
        for (long t : found) {
            b.append(b.length() == 0 ? "" : ",").append("0x").append(Long.toHexString(t));
        }
        return b.length() == 0 ? NONE : b.toString();
    }

    /**
     * Fills the summary: metrics (absent while no backend is available), switch
     * occupancy per table, and every device running a hupf pipeconf with its role.
     *
     * @param root       the response's payload
     * @param offload    offload service
     * @param devices    devices known to ONOS
     * @param pipeconfOf pipeconf of a device
     * @param available  whether a device is available
     */
    static void summary(ObjectNode root, OffloadService offload, Iterable<Device> devices,
                        Function<DeviceId, Optional<PiPipeconfId>> pipeconfOf, Predicate<DeviceId> available) {
        OffloadMetrics m = offload.metrics();
        ArrayNode occupancy = root.putArray("occupancy");
        if (m != null) {
            root.putObject("metrics")
                    .put("sessions", m.sessions())
                    .put("offloaded", m.offloaded())
                    .put("hhReports", m.hhReports())
                    .put("promotions", m.promotions())
                    .put("demotions", m.demotions())
                    .put("evictions", m.evictions())
                    .put("rejections", m.rejections())
                    .put("hwSharePercent", Math.round(m.hwShare() * 1000) / 10.0);
            for (Map.Entry<UpfEntityType, long[]> e : m.occupancy().entrySet()) {
                occupancy.addObject().put("table", e.getKey().humanReadableName())
                        .put("used", e.getValue()[0]).put("capacity", e.getValue()[1]);
            }
        }
        ArrayNode hupfDevices = root.putArray("devices");
        for (Device d : devices) {
            Optional<PiPipeconfId> pipeconf = pipeconfOf.apply(d.id());
            Optional<String> role = pipeconf.flatMap(HupfViewModel::role);
            if (role.isPresent()) {
                hupfDevices.addObject().put("id", d.id().toString()).put("role", role.get())
                        .put("pipeconf", pipeconf.get().id()).put("available", available.test(d.id()));
            }
        }
    }

    /** A hupf pipeconf's role: backend or switch; empty for another pipeconf. */
    private static Optional<String> role(PiPipeconfId pipeconf) {
        if (pipeconf.equals(HupfPipeconfIds.BACKEND)) {
            return Optional.of("backend");
        }
        if (HupfPipeconfIds.SWITCHES.contains(pipeconf)) {
            return Optional.of("switch");
        }
        return Optional.empty();
    }
}
