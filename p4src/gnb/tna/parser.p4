// TNA parsers and deparsers of the gNB program: the frames of ../parser.p4, Tofino's intrinsic metadata, the
// header ingress bridges to egress and the BaaS copy's mirror header. What the v1model parser verifies (GTP-U
// version, PT, length, extension chain) becomes gtpu_malformed or a length compared in ingress: a Tofino parser
// neither verifies nor compares two fields.
#ifndef HUPF_GNB_TNA_PARSER_P4
#define HUPF_GNB_TNA_PARSER_P4

#include "../headers.p4"

// First byte of what the egress parser sees: the bridged header, or the BaaS copy's mirror header.
const bit<8> GNB_PKT_KIND_BRIDGED = 1;
const bit<8> GNB_PKT_KIND_BAAS_COPY = 2;
const MirrorType_t GNB_MIRROR_TYPE_BAAS = 1;

// What egress needs of ingress's decisions: TNA metadata does not cross the traffic manager.
header gnb_bridged_t {
    bit<8>     pkt_kind;
    bit<6>     lcid;
    bit<1>     to_ue;
    bit<1>     to_n3;
    mac_addr_t ue_mac;
    mac_addr_t air_mac;
}

// The BaaS copy's mirror header (its kind tells egress the copy from the original).
header gnb_baas_mirror_t {
    bit<8> pkt_kind;
}

struct gnb_tna_headers_t {
    gnb_baas_mirror_t baas_copy;
    gnb_bridged_t     bridged;
    gnb_headers_t     g;
}

struct gnb_tna_metadata_t {
    gnb_metadata_t g;
    bool           gtpu_malformed;
    MirrorId_t     mirror_session;
}

parser GnbIngressParser(packet_in pkt, out gnb_tna_headers_t hdr, out gnb_tna_metadata_t meta,
                        out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.g.ethernet);
        transition select(hdr.g.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_GNB_SVC: parse_svc;
            ETHERTYPE_GNB_AIR: parse_mac;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.g.ipv4);
        transition select(hdr.g.ipv4.ihl, hdr.g.ipv4.protocol) {
            (5, PROTO_UDP): parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        pkt.extract(hdr.g.udp);
        transition select(hdr.g.udp.dport) {
            GTPU_UDP_PORT: parse_gtpu;
            default: accept;
        }
    }

    state parse_gtpu {
        pkt.extract(hdr.g.gtpu);
        transition select(hdr.g.gtpu.version, hdr.g.gtpu.pt, hdr.g.gtpu.ex_flag, hdr.g.gtpu.seq_flag,
                          hdr.g.gtpu.npdu_flag) {
            (1, 1, 0, 0, 0): accept;
            (1, 1, _, _, _): parse_gtpu_options;
            default: malformed_gtpu;
        }
    }

    state parse_gtpu_options {
        pkt.extract(hdr.g.gtpu_options);
        transition select(hdr.g.gtpu.ex_flag, hdr.g.gtpu_options.next_ext) {
            (0, _): accept;
            (1, GTPU_NEXT_EXT_NONE): accept;
            (1, GTPU_NEXT_EXT_PSC): parse_gtpu_psc;
            default: malformed_gtpu;
        }
    }

    state parse_gtpu_psc {
        pkt.extract(hdr.g.gtpu_ext_psc);
        transition select(hdr.g.gtpu_ext_psc.len, hdr.g.gtpu_ext_psc.next_ext) {
            (1, GTPU_NEXT_EXT_NONE): accept;
            default: malformed_gtpu;
        }
    }

    // Bad version or PT, a bad PSC length or an extension chain this parser cannot walk.
    state malformed_gtpu {
        meta.gtpu_malformed = true;
        transition accept;
    }

    state parse_svc {
        pkt.extract(hdr.g.svc);
        transition select(hdr.g.svc.op) {
            SVC_OP_UL_UNPROTECT: parse_deciphered;
            default: accept;
        }
    }

    // As ../parser.p4: the 12-bit SN header and one more byte; ingress drops that byte for an 18-bit SN.
    state parse_deciphered {
        pkt.extract(hdr.g.pdcp_sn12);
        pkt.extract(hdr.g.pdcp_byte);
        transition accept;
    }

    state parse_mac {
        pkt.extract(hdr.g.mac);
        transition select(pkt.lookahead<bit<1>>()) {
            0: parse_pdcp_control;
            default: accept;
        }
    }

    state parse_pdcp_control {
        pkt.extract(hdr.g.pdcp_control);
        transition accept;
    }
}

control GnbIngressDeparser(packet_out pkt, inout gnb_tna_headers_t hdr, in gnb_tna_metadata_t meta,
                           in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Mirror() mirror;

    apply {
        if (ig_dprsr_md.mirror_type == GNB_MIRROR_TYPE_BAAS) {
            mirror.emit<gnb_baas_mirror_t>(meta.mirror_session, {GNB_PKT_KIND_BAAS_COPY});
        }
        pkt.emit(hdr.bridged);
        pkt.emit(hdr.g);
    }
}

// Egress rewrites the service header into the MAC subheader (towards the UE), or sets the tunnel's lengths
// (towards N3), or makes the BaaS copy a hold request: it parses what ingress emitted.
parser GnbEgressParser(packet_in pkt, out gnb_tna_headers_t hdr, out gnb_tna_metadata_t meta,
                       out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition select(pkt.lookahead<bit<8>>()) {
            GNB_PKT_KIND_BAAS_COPY: parse_baas_copy;
            default: parse_bridged;
        }
    }

    // A Tofino ingress mirror copies the deparsed packet: the bridged header follows.
    state parse_baas_copy {
        pkt.extract(hdr.baas_copy);
        transition parse_bridged;
    }

    state parse_bridged {
        pkt.extract(hdr.bridged);
        pkt.extract(hdr.g.ethernet);
        transition select(hdr.g.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_GNB_SVC: parse_svc;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.g.ipv4);
        pkt.extract(hdr.g.udp);
        pkt.extract(hdr.g.gtpu);
        pkt.extract(hdr.g.gtpu_options);
        pkt.extract(hdr.g.gtpu_ext_psc);
        transition accept;
    }

    state parse_svc {
        pkt.extract(hdr.g.svc);
        transition accept;
    }
}

// The IPv4 checksum of the uplink tunnel, once egress set its length (Tofino computes checksums in deparsers).
control GnbEgressDeparser(packet_out pkt, inout gnb_tna_headers_t hdr, in gnb_tna_metadata_t meta,
                          in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    Checksum() ipv4_checksum;

    apply {
        hdr.g.ipv4.hdr_checksum = ipv4_checksum.update(
            { hdr.g.ipv4.version, hdr.g.ipv4.ihl, hdr.g.ipv4.dscp, hdr.g.ipv4.ecn, hdr.g.ipv4.total_len,
              hdr.g.ipv4.identification, hdr.g.ipv4.flags, hdr.g.ipv4.frag_offset, hdr.g.ipv4.ttl,
              hdr.g.ipv4.protocol, hdr.g.ipv4.src_addr, hdr.g.ipv4.dst_addr });
        pkt.emit(hdr.g);
    }
}

#endif
