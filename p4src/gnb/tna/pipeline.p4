// The gNB pipeline on TNA: ../pipeline.p4's tables, actions and counters under the same P4Info names (@name),
// on Tofino's externs: TX_NEXT a Register read and incremented by one RegisterAction, drops by drop_ctl, the BaaS
// copy an ingress-to-egress mirror to session BAAS_CLONE_SESSION_ID, the egress port the traffic manager's.
// Tofino's ingress has no packet length: the lengths v1model computes in ingress (the MAC subheader's L, the
// uplink tunnel's IPv4, UDP and GTP-U lengths) are computed in egress from eg_intr_md.pkt_length.
#ifndef HUPF_GNB_TNA_PIPELINE_P4
#define HUPF_GNB_TNA_PIPELINE_P4

#include "parser.p4"

#ifndef GNB_MAX_UES
#define GNB_MAX_UES 1024
#endif
// Tofino takes no register index wider than the register is long: log2(GNB_MAX_UES).
typedef bit<10> gnb_cell_t;
// The bridged header's bytes, which egress's pkt_length counts besides the frame (gnb_bridged_t).
const bit<16> GNB_BRIDGED_LEN = 14;

control HupfGnbIngress(inout gnb_tna_headers_t hdr, inout gnb_tna_metadata_t meta,
                       in ingress_intrinsic_metadata_t ig_intr_md,
                       in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                       inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                       inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    @name(".HupfGnbIngress.dl_pdus")
    Counter<bit<64>, ue_idx_t>(GNB_MAX_UES, CounterType_t.PACKETS_AND_BYTES) dl_pdus;
    @name(".HupfGnbIngress.ul_pdus")
    Counter<bit<64>, ue_idx_t>(GNB_MAX_UES, CounterType_t.PACKETS_AND_BYTES) ul_pdus;
    @name(".HupfGnbIngress.status_reports")
    Counter<bit<64>, ue_idx_t>(GNB_MAX_UES, CounterType_t.PACKETS) status_reports;
    @name(".HupfGnbIngress.retransmissions")
    Counter<bit<64>, ue_idx_t>(GNB_MAX_UES, CounterType_t.PACKETS) retransmissions;
    @name(".HupfGnbIngress.drops")
    Counter<bit<64>, bit<32>>(GNB_DROPS_SIZE, CounterType_t.PACKETS) drops;
    @name(".HupfGnbIngress.tx_next")
    Register<bit<32>, gnb_cell_t>(GNB_MAX_UES, 0) tx_next;

    // TS 38.323's TX_NEXT: the PDU's COUNT, and the next one kept.
    RegisterAction<bit<32>, gnb_cell_t, bit<32>>(tx_next) take_count = {
        void apply(inout bit<32> next, out bit<32> count) {
            count = next;
            next = next + 1;
        }
    };

    PortId_t crypto_port = 0;
    PortId_t baas_port = 0;
    PortId_t n3_port = 0;
    ipv4_addr_t n3_addr = 0;
    mac_addr_t n3_mac = 0;
    mac_addr_t upf_mac = 0;

    @name(".HupfGnbIngress.drop")
    action drop(bit<32> reason) {
        meta.g.drop_reason = reason;
        ig_dprsr_md.drop_ctl = 1;
    }

    @name(".HupfGnbIngress.set_port_role")
    action set_port_role(bit<8> role) {
        meta.g.port_role = role;
    }

    @name(".HupfGnbIngress.port_miss")
    action port_miss() {
        meta.g.port_role = 0;
    }

    @name(".HupfGnbIngress.ports")
    table ports {
        key = { ig_intr_md.ingress_port : exact @name("port"); }
        actions = { set_port_role; @defaultonly port_miss; }
        const default_action = port_miss();
        size = 64;
    }

    @name(".HupfGnbIngress.set_services")
    action set_services(PortId_t crypto, PortId_t baas, PortId_t n3, ipv4_addr_t gnb_n3_addr,
                        mac_addr_t gnb_n3_mac, mac_addr_t upf_n3_mac) {
        crypto_port = crypto;
        baas_port = baas;
        n3_port = n3;
        n3_addr = gnb_n3_addr;
        n3_mac = gnb_n3_mac;
        upf_mac = upf_n3_mac;
    }

    @name(".HupfGnbIngress.services")
    table services {
        actions = { set_services; }
        default_action = set_services(0, 0, 0, 0, 0, 0);
        size = 1;
    }

    @name(".HupfGnbIngress.set_dl_ue")
    action set_dl_ue(ue_idx_t ue, bit<1> sn18) {
        meta.g.ue = ue;
        meta.g.sn18 = sn18 == 1;
    }

    @name(".HupfGnbIngress.dl_ue_miss")
    action dl_ue_miss() {
        drop(GNB_DROP_UNKNOWN_TEID);
    }

    @name(".HupfGnbIngress.dl_ues")
    table dl_ues {
        key = { hdr.g.gtpu.teid : exact @name("teid"); }
        actions = { set_dl_ue; @defaultonly dl_ue_miss; }
        const default_action = dl_ue_miss();
        size = GNB_MAX_UES;
    }

    @name(".HupfGnbIngress.set_air")
    action set_air(PortId_t port, mac_addr_t ue_mac, mac_addr_t gnb_mac, bit<6> lcid) {
        ig_tm_md.ucast_egress_port = port;
        hdr.bridged.ue_mac = ue_mac;
        hdr.bridged.air_mac = gnb_mac;
        hdr.bridged.lcid = lcid;
        hdr.bridged.to_ue = 1;
    }

    @name(".HupfGnbIngress.no_ue_context")
    action no_ue_context() {
        drop(GNB_DROP_NO_UE_CONTEXT);
    }

    @name(".HupfGnbIngress.air")
    table air {
        key = { hdr.g.svc.ue : exact @name("ue"); }
        actions = { set_air; @defaultonly no_ue_context; }
        const default_action = no_ue_context();
        size = GNB_MAX_UES;
    }

    @name(".HupfGnbIngress.set_ul_ue")
    action set_ul_ue(ue_idx_t ue, bit<6> lcid) {
        meta.g.ue = ue;
        meta.g.lcid = lcid;
    }

    @name(".HupfGnbIngress.ul_ue_miss")
    action ul_ue_miss() {
        drop(GNB_DROP_UNKNOWN_UE);
    }

    @name(".HupfGnbIngress.ul_ues")
    table ul_ues {
        key = {
            ig_intr_md.ingress_port : exact @name("port");
            hdr.g.ethernet.src_addr : exact @name("ue_mac");
        }
        actions = { set_ul_ue; @defaultonly ul_ue_miss; }
        const default_action = ul_ue_miss();
        size = GNB_MAX_UES;
    }

    // The uplink tunnel's headers; egress sets their lengths (and the deparser the IPv4 checksum).
    @name(".HupfGnbIngress.set_ul_tunnel")
    action set_ul_tunnel(teid_t teid, qfi_t qfi, ipv4_addr_t upf_addr, bit<1> sn18) {
        meta.g.sn18 = sn18 == 1;
        hdr.bridged.to_n3 = 1;
        hdr.g.ipv4.setValid();
        hdr.g.ipv4.version = 4;
        hdr.g.ipv4.ihl = 5;
        hdr.g.ipv4.ttl = DEFAULT_TTL;
        hdr.g.ipv4.protocol = PROTO_UDP;
        hdr.g.ipv4.src_addr = n3_addr;
        hdr.g.ipv4.dst_addr = upf_addr;
        hdr.g.udp.setValid();
        hdr.g.udp.sport = GTPU_UDP_PORT;
        hdr.g.udp.dport = GTPU_UDP_PORT;
        hdr.g.gtpu.setValid();
        hdr.g.gtpu.version = 1;
        hdr.g.gtpu.pt = 1;
        hdr.g.gtpu.ex_flag = 1;
        hdr.g.gtpu.msgtype = GTPU_GPDU;
        hdr.g.gtpu.teid = teid;
        hdr.g.gtpu_options.setValid();
        hdr.g.gtpu_options.next_ext = GTPU_NEXT_EXT_PSC;
        hdr.g.gtpu_ext_psc.setValid();
        hdr.g.gtpu_ext_psc.len = 1;
        hdr.g.gtpu_ext_psc.pdu_type = PSC_TYPE_UL;
        hdr.g.gtpu_ext_psc.qfi = qfi;
        hdr.g.gtpu_ext_psc.next_ext = GTPU_NEXT_EXT_NONE;
    }

    @name(".HupfGnbIngress.ul_tunnels")
    table ul_tunnels {
        key = { hdr.g.svc.ue : exact @name("ue"); }
        actions = { set_ul_tunnel; @defaultonly no_ue_context; }
        const default_action = no_ue_context();
        size = GNB_MAX_UES;
    }

    apply {
        hdr.bridged.setValid();
        hdr.bridged.pkt_kind = GNB_PKT_KIND_BRIDGED;
        ports.apply();
        services.apply();
        bit<16> gtpu_len = hdr.g.udp.len - (UDP_HDR_LEN + GTPU_HDR_LEN);
        if (meta.g.port_role == 0) {
            drop(GNB_DROP_UNKNOWN_PORT);
        } else if (meta.gtpu_malformed || (hdr.g.gtpu.isValid() && hdr.g.gtpu.msglen != gtpu_len)) {
            drop(GNB_DROP_PARSER_ERROR);
        } else if (meta.g.port_role == PORT_ROLE_N3) {
            if (!hdr.g.gtpu.isValid() || hdr.g.gtpu.msgtype != GTPU_GPDU) {
                drop(GNB_DROP_NOT_GPDU);
            } else if (dl_ues.apply().hit) {
                bit<32> count = take_count.execute((gnb_cell_t)meta.g.ue);
                dl_pdus.count(meta.g.ue);
                hdr.g.ipv4.setInvalid();
                hdr.g.udp.setInvalid();
                hdr.g.gtpu.setInvalid();
                hdr.g.gtpu_options.setInvalid();
                hdr.g.gtpu_ext_psc.setInvalid();
                if (meta.g.sn18) {
                    hdr.g.pdcp_sn18.setValid();
                    hdr.g.pdcp_sn18.dc = 1;
                    hdr.g.pdcp_sn18.sn = count[17:0];
                } else {
                    hdr.g.pdcp_sn12.setValid();
                    hdr.g.pdcp_sn12.dc = 1;
                    hdr.g.pdcp_sn12.sn = count[11:0];
                }
                hdr.g.svc.setValid();
                hdr.g.svc.ue = meta.g.ue;
                hdr.g.svc.count = count;
                hdr.g.svc.op = SVC_OP_DL_PROTECT;
                hdr.g.ethernet.ether_type = ETHERTYPE_GNB_SVC;
                ig_tm_md.ucast_egress_port = crypto_port;
            }
        } else if (meta.g.port_role == PORT_ROLE_UE) {
            if (!hdr.g.mac.isValid()) {
                drop(GNB_DROP_NOT_AIR);
            } else if (ul_ues.apply().hit) {
                if (hdr.g.mac.lcid != meta.g.lcid) {
                    drop(GNB_DROP_NOT_AIR);
                } else if (hdr.g.pdcp_control.isValid()
                           && hdr.g.pdcp_control.pdu_type != PDCP_PDU_TYPE_STATUS) {
                    drop(GNB_DROP_PDCP_CONTROL);
                } else {
                    hdr.g.mac.setInvalid();
                    hdr.g.svc.setValid();
                    hdr.g.svc.ue = meta.g.ue;
                    hdr.g.ethernet.ether_type = ETHERTYPE_GNB_SVC;
                    if (hdr.g.pdcp_control.isValid()) {
                        status_reports.count(meta.g.ue);
                        hdr.g.svc.op = SVC_OP_STATUS;
                        ig_tm_md.ucast_egress_port = baas_port;
                    } else {
                        hdr.g.svc.op = SVC_OP_UL_UNPROTECT;
                        ig_tm_md.ucast_egress_port = crypto_port;
                    }
                }
            }
        } else if (!hdr.g.svc.isValid()) {
            drop(GNB_DROP_BAD_SVC_OP);
        } else if ((meta.g.port_role == PORT_ROLE_CRYPTO && hdr.g.svc.op == SVC_OP_DL_PROTECT)
                   || (meta.g.port_role == PORT_ROLE_BAAS && hdr.g.svc.op == SVC_OP_RETX)) {
            if (air.apply().hit) {
                if (hdr.g.svc.op == SVC_OP_DL_PROTECT) {
                    ig_dprsr_md.mirror_type = GNB_MIRROR_TYPE_BAAS;
                    meta.mirror_session = (MirrorId_t)BAAS_CLONE_SESSION_ID;
                } else {
                    retransmissions.count(hdr.g.svc.ue);
                }
            }
        } else if (meta.g.port_role == PORT_ROLE_CRYPTO && hdr.g.svc.op == SVC_OP_UL_UNPROTECT) {
            if (ul_tunnels.apply().hit) {
                hdr.g.pdcp_sn12.setInvalid();
                if (meta.g.sn18) {
                    hdr.g.pdcp_byte.setInvalid();
                }
                ul_pdus.count(hdr.g.svc.ue);
                hdr.g.svc.setInvalid();
                hdr.g.ethernet.ether_type = ETHERTYPE_IPV4;
                hdr.g.ethernet.src_addr = n3_mac;
                hdr.g.ethernet.dst_addr = upf_mac;
                ig_tm_md.ucast_egress_port = n3_port;
            }
        } else {
            drop(GNB_DROP_BAD_SVC_OP);
        }
        if (meta.g.drop_reason != 0) {
            drops.count(meta.g.drop_reason);
        }
    }
}

control HupfGnbEgress(inout gnb_tna_headers_t hdr, inout gnb_tna_metadata_t meta,
                      in egress_intrinsic_metadata_t eg_intr_md,
                      in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                      inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                      inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        if (hdr.baas_copy.isValid()) {
            hdr.g.svc.op = SVC_OP_BUFFER;
        } else if (hdr.bridged.to_ue == 1) {
            hdr.g.svc.setInvalid();
            hdr.g.mac.setValid();
            hdr.g.mac.r = 0;
            hdr.g.mac.f = 1;
            hdr.g.mac.lcid = hdr.bridged.lcid;
            hdr.g.mac.len = eg_intr_md.pkt_length - (GNB_BRIDGED_LEN + ETH_HDR_LEN + GNB_SVC_HDR_LEN);
            hdr.g.ethernet.dst_addr = hdr.bridged.ue_mac;
            hdr.g.ethernet.src_addr = hdr.bridged.air_mac;
            hdr.g.ethernet.ether_type = ETHERTYPE_GNB_AIR;
        } else if (hdr.bridged.to_n3 == 1) {
            bit<16> sdu_len = eg_intr_md.pkt_length
                    - (GNB_BRIDGED_LEN + ETH_HDR_LEN + IPV4_HDR_LEN + UDP_HDR_LEN + GNB_GTPU_TOTAL_LEN);
            hdr.g.ipv4.total_len = IPV4_HDR_LEN + UDP_HDR_LEN + GNB_GTPU_TOTAL_LEN + sdu_len;
            hdr.g.udp.len = UDP_HDR_LEN + GNB_GTPU_TOTAL_LEN + sdu_len;
            hdr.g.gtpu.msglen = (GNB_GTPU_TOTAL_LEN - GTPU_HDR_LEN) + sdu_len;
        }
    }
}

#endif
