package org.hupf.pipeconf.gnb;

import org.onlab.util.ImmutableByteSequence;
import org.onosproject.net.PortNumber;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiActionParamId;
import org.onosproject.net.pi.model.PiMatchFieldId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiActionParam;
import org.onosproject.net.pi.runtime.PiCloneSessionEntry;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiPreReplica;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.hupf.pipeconf.gnb.GnbConstants.*;

/**
 * The gNB program's entries for a site and its UEs (docs/GNB.md, "Tables, registers, counters"): the ports' roles,
 * the services' default action, the BaaS clone session and four entries per UE; the same entries the RAN control's
 * stand-in writes ({@code hupf_tools.gnb.ran_control}).
 */
public final class GnbEntries {

    /** The replica instance of the BaaS clone session's one copy. */
    static final int CLONE_INSTANCE = 1;

    private GnbEntries() {
    }

    /**
     * Every entity of a site and its UEs, in an order a switch can take them in one write.
     *
     * @throws IllegalArgumentException if a UE index, downlink TEID or (air port, MAC) is given twice, or a UE's air
     *                                  port is the site's N3 or a service's
     */
    public static List<PiEntity> all(GnbSite site, List<GnbUe> ues) {
        Set<Integer> airPorts = new HashSet<>();
        Set<Long> indexes = new HashSet<>();
        Set<Long> dlTeids = new HashSet<>();
        Set<String> air = new HashSet<>();
        Set<Integer> sitePorts = Set.of(site.n3Port(), site.cryptoPort(), site.baasPort());
        List<PiEntity> ueEntries = new ArrayList<>();
        for (GnbUe u : ues) {
            if (sitePorts.contains(u.airPort())) {
                throw new IllegalArgumentException("UE " + u.ue() + ": air port " + u.airPort()
                                                           + " is the gNB's N3 or a service's");
            }
            if (!indexes.add(u.ue()) || !dlTeids.add(u.dlTeid()) || !air.add(u.airPort() + "/" + u.mac())) {
                throw new IllegalArgumentException("UE " + u.ue() + ": its index, downlink TEID or air MAC is "
                                                           + "another UE's too");
            }
            airPorts.add(u.airPort());
            ueEntries.addAll(ue(u, site));
        }
        List<PiEntity> out = new ArrayList<>();
        out.add(portRole(site.n3Port(), PORT_ROLE_N3));
        out.add(portRole(site.cryptoPort(), PORT_ROLE_CRYPTO));
        out.add(portRole(site.baasPort(), PORT_ROLE_BAAS));
        airPorts.stream().sorted().forEach(p -> out.add(portRole(p, PORT_ROLE_UE)));
        out.add(services(site));
        out.add(baasClone(site));
        out.addAll(ueEntries);
        return out;
    }

    static PiTableEntry portRole(int port, int role) {
        return entry(HUPF_GNB_INGRESS_PORTS, key(HDR_PORT, port),
                     action(HUPF_GNB_INGRESS_SET_PORT_ROLE, param(ROLE, role)));
    }

    /** The keyless {@code services} table's default action. */
    static PiTableEntry services(GnbSite s) {
        return entry(HUPF_GNB_INGRESS_SERVICES, PiMatchKey.EMPTY, action(
                HUPF_GNB_INGRESS_SET_SERVICES, param(CRYPTO, s.cryptoPort()), param(BAAS, s.baasPort()),
                param(N3, s.n3Port()), param(GNB_N3_ADDR, s.n3Addr().toInt() & 0xFFFF_FFFFL),
                param(GNB_N3_MAC, s.n3Mac().toLong()), param(UPF_N3_MAC, s.upfN3Mac().toLong())));
    }

    /** One copy of each protected downlink PDU to BaaS. */
    static PiCloneSessionEntry baasClone(GnbSite s) {
        return PiCloneSessionEntry.builder().withSessionId(BAAS_CLONE_SESSION_ID)
                .addReplica(new PiPreReplica(PortNumber.portNumber(s.baasPort()), CLONE_INSTANCE)).build();
    }

    /** dl_ues, air, ul_ues and ul_tunnels entries of one UE. */
    static List<PiTableEntry> ue(GnbUe u, GnbSite s) {
        int sn18 = u.sn18() ? 1 : 0;
        return List.of(
                entry(HUPF_GNB_INGRESS_DL_UES, key(HDR_TEID, u.dlTeid()),
                      action(HUPF_GNB_INGRESS_SET_DL_UE, param(UE, u.ue()), param(SN18, sn18))),
                entry(HUPF_GNB_INGRESS_AIR, key(HDR_UE, u.ue()),
                      action(HUPF_GNB_INGRESS_SET_AIR, param(PORT, u.airPort()), param(UE_MAC, u.mac().toLong()),
                             param(GNB_MAC, s.airMac().toLong()), param(LCID, u.lcid()))),
                entry(HUPF_GNB_INGRESS_UL_UES, PiMatchKey.builder()
                              .addFieldMatch(exact(HDR_PORT, u.airPort()))
                              .addFieldMatch(exact(HDR_UE_MAC, u.mac().toLong())).build(),
                      action(HUPF_GNB_INGRESS_SET_UL_UE, param(UE, u.ue()), param(LCID, u.lcid()))),
                entry(HUPF_GNB_INGRESS_UL_TUNNELS, key(HDR_UE, u.ue()),
                      action(HUPF_GNB_INGRESS_SET_UL_TUNNEL, param(TEID, u.ulTeid()), param(QFI, u.qfi()),
                             param(UPF_ADDR, u.upfAddr().toInt() & 0xFFFF_FFFFL), param(SN18, sn18))));
    }

    private static PiTableEntry entry(PiTableId table, PiMatchKey key, PiAction action) {
        return PiTableEntry.builder().forTable(table).withMatchKey(key).withAction(action).build();
    }

    private static PiMatchKey key(PiMatchFieldId field, long value) {
        return PiMatchKey.builder().addFieldMatch(exact(field, value)).build();
    }

    private static PiExactFieldMatch exact(PiMatchFieldId field, long value) {
        return new PiExactFieldMatch(field, ImmutableByteSequence.copyFrom(value));
    }

    private static PiAction action(PiActionId id, PiActionParam... params) {
        return PiAction.builder().withId(id).withParameters(List.of(params)).build();
    }

    private static PiActionParam param(PiActionParamId id, long value) {
        return new PiActionParam(id, ImmutableByteSequence.copyFrom(value));
    }
}
