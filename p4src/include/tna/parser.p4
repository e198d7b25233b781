// TNA parsers and deparsers: the headers of include/headers.p4 in the same order as the
// v1model parser, plus Tofino's intrinsic, resubmit, bridged and mirror headers. GTP-U checks
// the Tofino parser cannot do (comparing two fields, verify) become gtpu_malformed for ingress.
#ifndef HUPF_TNA_PARSER_P4
#define HUPF_TNA_PARSER_P4

#include "arch.p4"

parser HupfIngressParser(packet_in pkt, out tna_headers_t hdr, out tna_ingress_metadata_t meta,
                         out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        meta.u.l4_sport = 0;
        meta.u.l4_dport = 0;
        meta.gtpu_malformed = false;
        meta.hh_takeover = false;
        transition select(ig_intr_md.resubmit_flag) {
            1: parse_resubmit;
            default: parse_port_metadata;
        }
    }

    // The parser cannot assign a comparison: the resubmit's kind is selected on instead.
    state parse_resubmit {
        pkt.extract(meta.resubmit);
#if __TARGET_TOFINO__ == 2
        // Tofino 2 puts 64 bits after the resubmit data as after the port metadata (PORT_METADATA_SIZE 192).
        pkt.advance(64);
#endif
        transition select(meta.resubmit.kind) {
            (bit<8>)RESUBMIT_TYPE_HH_TAKEOVER: mark_hh_takeover;
            default: select_port;
        }
    }

    state mark_hh_takeover {
        meta.hh_takeover = true;
        transition select_port;
    }

    state parse_port_metadata {
        pkt.advance(PORT_METADATA_SIZE);
        transition select_port;
    }

    state select_port {
        transition select(ig_intr_md.ingress_port) {
            TNA_CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        pkt.extract(hdr.u.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        pkt.extract(hdr.u.ethernet);
        transition select(hdr.u.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_vlan {
        pkt.extract(hdr.u.vlan_tag);
        transition select(hdr.u.vlan_tag.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.u.ipv4);
        transition select(hdr.u.ipv4.ihl, hdr.u.ipv4.protocol) {
            (5, PROTO_UDP): parse_udp;
            (5, PROTO_TCP): parse_tcp;
            (5, PROTO_ICMP): parse_icmp;
            default: accept;
        }
    }

    state parse_tcp {
        pkt.extract(hdr.u.tcp);
        meta.u.l4_sport = hdr.u.tcp.sport;
        meta.u.l4_dport = hdr.u.tcp.dport;
        transition accept;
    }

    state parse_icmp {
        pkt.extract(hdr.u.icmp);
        transition accept;
    }

    state parse_udp {
        pkt.extract(hdr.u.udp);
        meta.u.l4_sport = hdr.u.udp.sport;
        meta.u.l4_dport = hdr.u.udp.dport;
        transition select(hdr.u.udp.dport) {
            GTPU_UDP_PORT: parse_gtpu;
            default: accept;
        }
    }

    state parse_gtpu {
        pkt.extract(hdr.u.gtpu);
        transition select(hdr.u.gtpu.version, hdr.u.gtpu.pt, hdr.u.gtpu.ex_flag,
                          hdr.u.gtpu.seq_flag, hdr.u.gtpu.npdu_flag) {
            (1, 1, 0, 0, 0): parse_gtpu_payload;
            (1, 1, _, _, _): parse_gtpu_options;
            default: malformed_gtpu;
        }
    }

    state parse_gtpu_options {
        pkt.extract(hdr.u.gtpu_options);
        transition select(hdr.u.gtpu.ex_flag, hdr.u.gtpu_options.next_ext) {
            (0, _): parse_gtpu_payload;
            (1, GTPU_NEXT_EXT_NONE): parse_gtpu_payload;
            (1, GTPU_NEXT_EXT_PSC): parse_gtpu_psc;
            default: malformed_gtpu;
        }
    }

    state parse_gtpu_psc {
        pkt.extract(hdr.u.gtpu_ext_psc);
        transition select(hdr.u.gtpu_ext_psc.len, hdr.u.gtpu_ext_psc.next_ext) {
            (1, GTPU_NEXT_EXT_NONE): parse_gtpu_payload;
            default: malformed_gtpu;
        }
    }

    // Bad version, a bad PSC length or an extension chain this parser cannot walk.
    state malformed_gtpu {
        meta.gtpu_malformed = true;
        transition accept;
    }

    state parse_gtpu_payload {
        transition select(hdr.u.gtpu.msgtype) {
            GTPU_GPDU: parse_gpdu;
            default: accept;
        }
    }

    state parse_gpdu {
        transition select(pkt.lookahead<bit<4>>()) {
            4: parse_inner_ipv4;
            default: accept;
        }
    }

    state parse_inner_ipv4 {
        pkt.extract(hdr.u.inner_ipv4);
        transition select(hdr.u.inner_ipv4.ihl, hdr.u.inner_ipv4.protocol) {
            (5, PROTO_UDP): parse_inner_udp;
            (5, PROTO_TCP): parse_inner_tcp;
            (5, PROTO_ICMP): parse_inner_icmp;
            default: accept;
        }
    }

    state parse_inner_udp {
        pkt.extract(hdr.u.inner_udp);
        transition accept;
    }

    state parse_inner_tcp {
        pkt.extract(hdr.u.inner_tcp);
        transition accept;
    }

    state parse_inner_icmp {
        pkt.extract(hdr.u.inner_icmp);
        transition accept;
    }
}

// The IPv4 checksums are recomputed here (Tofino computes checksums in the deparser).
control HupfIngressDeparser(packet_out pkt, inout tna_headers_t hdr, in tna_ingress_metadata_t meta,
                            in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Mirror() mirror;
    Resubmit() resubmit;
    Checksum() ipv4_checksum;
    Checksum() inner_ipv4_checksum;

    apply {
        if (ig_dprsr_md.mirror_type == MIRROR_TYPE_CPU) {
            mirror.emit<cpu_mirror_t>(meta.mirror_session,
                {meta.mirror_kind, meta.u.cpu_ingress_port, 0, meta.u.cpu_reason,
                 meta.u.hh_flow_key, meta.u.hh_ipg_ewma, meta.u.hh_tau, meta.u.hh_flags});
        }
        if (ig_dprsr_md.resubmit_type == RESUBMIT_TYPE_HH_TAKEOVER) {
            resubmit.emit<resubmit_md_t>({meta.resubmit_kind, 0});
        }
        hdr.u.ipv4.hdr_checksum = ipv4_checksum.update(
            { hdr.u.ipv4.version, hdr.u.ipv4.ihl, hdr.u.ipv4.dscp, hdr.u.ipv4.ecn,
              hdr.u.ipv4.total_len, hdr.u.ipv4.identification, hdr.u.ipv4.flags,
              hdr.u.ipv4.frag_offset, hdr.u.ipv4.ttl, hdr.u.ipv4.protocol,
              hdr.u.ipv4.src_addr, hdr.u.ipv4.dst_addr });
        hdr.u.inner_ipv4.hdr_checksum = inner_ipv4_checksum.update(
            { hdr.u.inner_ipv4.version, hdr.u.inner_ipv4.ihl, hdr.u.inner_ipv4.dscp, hdr.u.inner_ipv4.ecn,
              hdr.u.inner_ipv4.total_len, hdr.u.inner_ipv4.identification, hdr.u.inner_ipv4.flags,
              hdr.u.inner_ipv4.frag_offset, hdr.u.inner_ipv4.ttl, hdr.u.inner_ipv4.protocol,
              hdr.u.inner_ipv4.src_addr, hdr.u.inner_ipv4.dst_addr });
        pkt.emit(hdr);
    }
}

// Egress sees either a bridged packet or a mirrored copy for the CPU; the bridged fields
// become the egress local_metadata_t the shared UpfEgress reads.
parser HupfEgressParser(packet_in pkt, out tna_headers_t hdr, out local_metadata_t meta,
                        out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition select(pkt.lookahead<bit<8>>()) {
            PKT_KIND_CPU_COPY: parse_cpu_mirror;
            default: parse_bridged;
        }
    }

    // A Tofino ingress mirror copies the deparsed packet: the bridged header follows.
    state parse_cpu_mirror {
        pkt.extract(hdr.cpu_mirror);
        transition parse_bridged;
    }

    state parse_bridged {
        pkt.extract(hdr.bridged);
        meta.cpu_ingress_port = hdr.bridged.cpu_ingress_port;
        meta.cpu_reason = hdr.bridged.cpu_reason;
        // is_packet_out, needs_encap and term_hit (bools) are set by egress: no comparison in a parser.
        meta.tun_peer_id = hdr.bridged.tun_peer_id;
        meta.teid = hdr.bridged.teid;
        meta.qfi = hdr.bridged.qfi;
        meta.ctr_idx = hdr.bridged.ctr_idx;
        transition parse_ethernet;
    }

    // Egress rewrites Ethernet/IPv4/UDP/GTP-U only: the rest stays payload.
    state parse_ethernet {
        pkt.extract(hdr.u.ethernet);
        transition select(hdr.u.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_vlan {
        pkt.extract(hdr.u.vlan_tag);
        transition select(hdr.u.vlan_tag.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.u.ipv4);
        transition select(hdr.u.ipv4.ihl, hdr.u.ipv4.protocol) {
            (5, PROTO_UDP): parse_udp;
            (5, PROTO_TCP): parse_tcp;
            (5, PROTO_ICMP): parse_icmp;
            default: accept;
        }
    }

    state parse_udp {
        pkt.extract(hdr.u.udp);
        transition accept;
    }

    state parse_tcp {
        pkt.extract(hdr.u.tcp);
        transition accept;
    }

    state parse_icmp {
        pkt.extract(hdr.u.icmp);
        transition accept;
    }
}

control HupfEgressDeparser(packet_out pkt, inout tna_headers_t hdr, in local_metadata_t meta,
                           in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    Checksum() ipv4_checksum;

    apply {
        hdr.u.ipv4.hdr_checksum = ipv4_checksum.update(
            { hdr.u.ipv4.version, hdr.u.ipv4.ihl, hdr.u.ipv4.dscp, hdr.u.ipv4.ecn,
              hdr.u.ipv4.total_len, hdr.u.ipv4.identification, hdr.u.ipv4.flags,
              hdr.u.ipv4.frag_offset, hdr.u.ipv4.ttl, hdr.u.ipv4.protocol,
              hdr.u.ipv4.src_addr, hdr.u.ipv4.dst_addr });
        pkt.emit(hdr.u);
    }
}

#endif
