// Ingress and egress of hupf's gNB user plane (docs/GNB.md, "The P4 program"; seed 001 §5.2):
//   downlink  N3 G-PDU -> GTP-U removed, PDCP data header with SN = the UE's TX_NEXT, service header (op 1,
//             COUNT) -> crypto port; back protected (op 1) -> cloned to BaaS (op 3) and, service header
//             removed, MAC subheader added, to the UE; BaaS's resends (op 5) likewise, without the clone.
//   uplink    air frame -> a status report (D/C 0, type 0) to BaaS (op 4), data to the crypto port (op 2);
//             back deciphered (op 2) -> PDCP header removed, the UE's GTP-U tunnel built -> N3.
#ifndef HUPF_GNB_PIPELINE_P4
#define HUPF_GNB_PIPELINE_P4

#include "headers.p4"

#ifndef GNB_MAX_UES
#define GNB_MAX_UES 1024
#endif

control HupfGnbIngress(inout gnb_headers_t hdr, inout gnb_metadata_t meta,
                       inout standard_metadata_t std_meta) {
    // Per UE: downlink PDUs sent towards the crypto service, uplink PDUs sent to N3, status reports,
    // BaaS's resends; drops by reason.
    counter(GNB_MAX_UES, CounterType.packets_and_bytes) dl_pdus;
    counter(GNB_MAX_UES, CounterType.packets_and_bytes) ul_pdus;
    counter(GNB_MAX_UES, CounterType.packets) status_reports;
    counter(GNB_MAX_UES, CounterType.packets) retransmissions;
    counter(GNB_DROPS_SIZE, CounterType.packets) drops;
    // TS 38.323 §7.1 TX_NEXT of each UE's DRB: the COUNT of its next downlink PDU.
    register<bit<32>>(GNB_MAX_UES) tx_next;

    port_t crypto_port = 0;
    port_t baas_port = 0;
    port_t n3_port = 0;
    ipv4_addr_t n3_addr = 0;
    mac_addr_t n3_mac = 0;
    mac_addr_t upf_mac = 0;

    action drop(bit<32> reason) {
        meta.drop_reason = reason;
        mark_to_drop(std_meta);
    }

    action set_port_role(bit<8> role) {
        meta.port_role = role;
    }

    action port_miss() {
        meta.port_role = 0;
    }

    table ports {
        key = { std_meta.ingress_port : exact @name("port"); }
        actions = { set_port_role; @defaultonly port_miss; }
        const default_action = port_miss();
        size = 64;
    }

    // The services' ports and the N3 side: one entry, written as this table's default action.
    action set_services(port_t crypto, port_t baas, port_t n3, ipv4_addr_t gnb_n3_addr,
                        mac_addr_t gnb_n3_mac, mac_addr_t upf_n3_mac) {
        crypto_port = crypto;
        baas_port = baas;
        n3_port = n3;
        n3_addr = gnb_n3_addr;
        n3_mac = gnb_n3_mac;
        upf_mac = upf_n3_mac;
    }

    table services {
        actions = { set_services; }
        default_action = set_services(0, 0, 0, 0, 0, 0);
        size = 1;
    }

    // Downlink: the N3 tunnel of a UE's DRB (the TEID the gNB allocated) -> the UE and its SN length.
    action set_dl_ue(ue_idx_t ue, bit<1> sn18) {
        meta.ue = ue;
        meta.sn18 = sn18 == 1;
    }

    action dl_ue_miss() {
        drop(GNB_DROP_UNKNOWN_TEID);
    }

    table dl_ues {
        key = { hdr.gtpu.teid : exact @name("teid"); }
        actions = { set_dl_ue; @defaultonly dl_ue_miss; }
        const default_action = dl_ue_miss();
        size = GNB_MAX_UES;
    }

    // Towards a UE: its air port and MAC, the gNB's MAC there, the DRB's logical channel.
    action set_air(port_t port, mac_addr_t ue_mac, mac_addr_t gnb_mac, bit<6> lcid) {
        std_meta.egress_spec = port;
        meta.ue_mac = ue_mac;
        meta.air_mac = gnb_mac;
        meta.lcid = lcid;
        meta.to_ue = true;
    }

    action no_ue_context() {
        drop(GNB_DROP_NO_UE_CONTEXT);
    }

    table air {
        key = { hdr.svc.ue : exact @name("ue"); }
        actions = { set_air; @defaultonly no_ue_context; }
        const default_action = no_ue_context();
        size = GNB_MAX_UES;
    }

    // Uplink: a UE by its air port and MAC -> its index and the DRB's logical channel.
    action set_ul_ue(ue_idx_t ue, bit<6> lcid) {
        meta.ue = ue;
        meta.lcid = lcid;
    }

    action ul_ue_miss() {
        drop(GNB_DROP_UNKNOWN_UE);
    }

    table ul_ues {
        key = {
            std_meta.ingress_port     : exact @name("port");
            hdr.ethernet.src_addr     : exact @name("ue_mac");
        }
        actions = { set_ul_ue; @defaultonly ul_ue_miss; }
        const default_action = ul_ue_miss();
        size = GNB_MAX_UES;
    }

    // A deciphered uplink PDU's N3 tunnel: the TEID the UPF allocated, the QFI, the UPF's N3 address.
    action set_ul_tunnel(teid_t teid, qfi_t qfi, ipv4_addr_t upf_addr, bit<1> sn18) {
        meta.sn18 = sn18 == 1;
        hdr.ipv4.setValid();
        hdr.ipv4.version = 4;
        hdr.ipv4.ihl = 5;
        hdr.ipv4.dscp = 0;
        hdr.ipv4.ecn = 0;
        hdr.ipv4.identification = 0;
        hdr.ipv4.flags = 0;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = DEFAULT_TTL;
        hdr.ipv4.protocol = PROTO_UDP;
        hdr.ipv4.src_addr = n3_addr;
        hdr.ipv4.dst_addr = upf_addr;
        hdr.udp.setValid();
        hdr.udp.sport = GTPU_UDP_PORT;
        hdr.udp.dport = GTPU_UDP_PORT;
        hdr.udp.checksum = 0;
        hdr.gtpu.setValid();
        hdr.gtpu.version = 1;
        hdr.gtpu.pt = 1;
        hdr.gtpu.spare = 0;
        hdr.gtpu.ex_flag = 1;
        hdr.gtpu.seq_flag = 0;
        hdr.gtpu.npdu_flag = 0;
        hdr.gtpu.msgtype = GTPU_GPDU;
        hdr.gtpu.teid = teid;
        hdr.gtpu_options.setValid();
        hdr.gtpu_options.seq_num = 0;
        hdr.gtpu_options.n_pdu_num = 0;
        hdr.gtpu_options.next_ext = GTPU_NEXT_EXT_PSC;
        hdr.gtpu_ext_psc.setValid();
        hdr.gtpu_ext_psc.len = 1;
        hdr.gtpu_ext_psc.pdu_type = PSC_TYPE_UL;
        hdr.gtpu_ext_psc.spare0 = 0;
        hdr.gtpu_ext_psc.ppp = 0;
        hdr.gtpu_ext_psc.rqi = 0;
        hdr.gtpu_ext_psc.qfi = qfi;
        hdr.gtpu_ext_psc.next_ext = GTPU_NEXT_EXT_NONE;
    }

    table ul_tunnels {
        key = { hdr.svc.ue : exact @name("ue"); }
        actions = { set_ul_tunnel; @defaultonly no_ue_context; }
        const default_action = no_ue_context();
        size = GNB_MAX_UES;
    }

    apply {
        ports.apply();
        services.apply();
        if (meta.port_role == 0) {
            drop(GNB_DROP_UNKNOWN_PORT);
        } else if (std_meta.parser_error != error.NoError) {
            drop(GNB_DROP_PARSER_ERROR);
        } else if (meta.port_role == PORT_ROLE_N3) {
            if (!hdr.gtpu.isValid() || hdr.gtpu.msgtype != GTPU_GPDU) {
                drop(GNB_DROP_NOT_GPDU);
            } else if (dl_ues.apply().hit) {
                bit<32> count;
                tx_next.read(count, meta.ue);
                tx_next.write(meta.ue, count + 1);
                dl_pdus.count(meta.ue);
                hdr.ipv4.setInvalid();
                hdr.udp.setInvalid();
                hdr.gtpu.setInvalid();
                hdr.gtpu_options.setInvalid();
                hdr.gtpu_ext_psc.setInvalid();
                if (meta.sn18) {
                    hdr.pdcp_sn18.setValid();
                    hdr.pdcp_sn18.dc = 1;
                    hdr.pdcp_sn18._rsvd = 0;
                    hdr.pdcp_sn18.sn = count[17:0];
                } else {
                    hdr.pdcp_sn12.setValid();
                    hdr.pdcp_sn12.dc = 1;
                    hdr.pdcp_sn12._rsvd = 0;
                    hdr.pdcp_sn12.sn = count[11:0];
                }
                hdr.svc.setValid();
                hdr.svc.ue = meta.ue;
                hdr.svc.count = count;
                hdr.svc.op = SVC_OP_DL_PROTECT;
                hdr.svc._rsvd = 0;
                hdr.ethernet.ether_type = ETHERTYPE_GNB_SVC;
                std_meta.egress_spec = crypto_port;
            }
        } else if (meta.port_role == PORT_ROLE_UE) {
            if (!hdr.mac.isValid()) {
                drop(GNB_DROP_NOT_AIR);
            } else if (ul_ues.apply().hit) {
                if (hdr.mac.lcid != meta.lcid) {
                    drop(GNB_DROP_NOT_AIR);
                } else if (hdr.pdcp_control.isValid() && hdr.pdcp_control.pdu_type != PDCP_PDU_TYPE_STATUS) {
                    drop(GNB_DROP_PDCP_CONTROL);
                } else {
                    hdr.mac.setInvalid();
                    hdr.svc.setValid();
                    hdr.svc.ue = meta.ue;
                    hdr.svc.count = 0;
                    hdr.svc._rsvd = 0;
                    hdr.ethernet.ether_type = ETHERTYPE_GNB_SVC;
                    if (hdr.pdcp_control.isValid()) {
                        status_reports.count(meta.ue);
                        hdr.svc.op = SVC_OP_STATUS;
                        std_meta.egress_spec = baas_port;
                    } else {
                        hdr.svc.op = SVC_OP_UL_UNPROTECT;
                        std_meta.egress_spec = crypto_port;
                    }
                }
            }
        } else if (!hdr.svc.isValid()) {
            drop(GNB_DROP_BAD_SVC_OP);
        } else if ((meta.port_role == PORT_ROLE_CRYPTO && hdr.svc.op == SVC_OP_DL_PROTECT)
                   || (meta.port_role == PORT_ROLE_BAAS && hdr.svc.op == SVC_OP_RETX)) {
            // One application of air for both (bmv2 takes a table applied in one place only).
            if (air.apply().hit) {
                meta.pdu_len = (bit<16>)std_meta.packet_length - (ETH_HDR_LEN + GNB_SVC_HDR_LEN);
                if (hdr.svc.op == SVC_OP_DL_PROTECT) {
                    // Headers untouched here: the clone leaves as it came, egress makes it a hold request.
                    clone(CloneType.I2E, BAAS_CLONE_SESSION_ID);
                } else {
                    retransmissions.count(hdr.svc.ue);
                }
            }
        } else if (meta.port_role == PORT_ROLE_CRYPTO && hdr.svc.op == SVC_OP_UL_UNPROTECT) {
            if (ul_tunnels.apply().hit) {
                // The user packet: what follows the service header and the PDCP header.
                bit<16> sdu_len = (bit<16>)std_meta.packet_length - (ETH_HDR_LEN + GNB_SVC_HDR_LEN);
                hdr.pdcp_sn12.setInvalid();
                if (meta.sn18) {
                    hdr.pdcp_byte.setInvalid();
                    sdu_len = sdu_len - PDCP_SN18_HDR_LEN;
                } else {
                    sdu_len = sdu_len - PDCP_SN12_HDR_LEN;
                }
                hdr.ipv4.total_len = IPV4_HDR_LEN + UDP_HDR_LEN + GNB_GTPU_TOTAL_LEN + sdu_len;
                hdr.udp.len = UDP_HDR_LEN + GNB_GTPU_TOTAL_LEN + sdu_len;
                hdr.gtpu.msglen = (GNB_GTPU_TOTAL_LEN - GTPU_HDR_LEN) + sdu_len;
                ul_pdus.count(hdr.svc.ue);
                hdr.svc.setInvalid();
                hdr.ethernet.ether_type = ETHERTYPE_IPV4;
                hdr.ethernet.src_addr = n3_mac;
                hdr.ethernet.dst_addr = upf_mac;
                std_meta.egress_spec = n3_port;
            }
        } else {
            drop(GNB_DROP_BAD_SVC_OP);
        }
        if (meta.drop_reason != 0) {
            drops.count(meta.drop_reason);
        }
    }
}

control HupfGnbEgress(inout gnb_headers_t hdr, inout gnb_metadata_t meta,
                      inout standard_metadata_t std_meta) {
    apply {
        if (std_meta.instance_type == GNB_INSTANCE_INGRESS_CLONE) {
            // The copy BaaS holds until the UE acknowledges it.
            hdr.svc.op = SVC_OP_BUFFER;
        } else if (meta.to_ue) {
            hdr.svc.setInvalid();
            hdr.mac.setValid();
            hdr.mac.r = 0;
            hdr.mac.f = 1;
            hdr.mac.lcid = meta.lcid;
            hdr.mac.len = meta.pdu_len;
            hdr.ethernet.dst_addr = meta.ue_mac;
            hdr.ethernet.src_addr = meta.air_mac;
            hdr.ethernet.ether_type = ETHERTYPE_GNB_AIR;
        }
    }
}

#endif
