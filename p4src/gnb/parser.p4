// Parser, deparser and checksums of hupf's gNB user-plane program. By ethertype: IPv4 (GTP-U from N3,
// TS 29.281, as hupf's parser checks it), a service frame (its header, and behind a deciphered uplink PDU
// the data PDU header's first bytes), an air frame (the MAC subheader and, for a control PDU, its first byte).
#ifndef HUPF_GNB_PARSER_P4
#define HUPF_GNB_PARSER_P4

#include "headers.p4"

error {
    GnbGtpuBadVersion,
    GnbGtpuBadLength,
    GnbGtpuUnknownExt
}

parser GnbParser(packet_in packet, out gnb_headers_t hdr, inout gnb_metadata_t meta,
                 inout standard_metadata_t std_meta) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_GNB_SVC: parse_svc;
            ETHERTYPE_GNB_AIR: parse_mac;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, PROTO_UDP): parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.udp.dport) {
            GTPU_UDP_PORT: parse_gtpu;
            default: accept;
        }
    }

    state parse_gtpu {
        packet.extract(hdr.gtpu);
        verify(hdr.gtpu.version == 1 && hdr.gtpu.pt == 1, error.GnbGtpuBadVersion);
        verify(hdr.gtpu.msglen == hdr.udp.len - (UDP_HDR_LEN + GTPU_HDR_LEN), error.GnbGtpuBadLength);
        transition select(hdr.gtpu.ex_flag, hdr.gtpu.seq_flag, hdr.gtpu.npdu_flag) {
            (0, 0, 0): accept;
            default: parse_gtpu_options;
        }
    }

    state parse_gtpu_options {
        packet.extract(hdr.gtpu_options);
        transition select(hdr.gtpu.ex_flag, hdr.gtpu_options.next_ext) {
            (0, _): accept;
            (1, GTPU_NEXT_EXT_NONE): accept;
            (1, GTPU_NEXT_EXT_PSC): parse_gtpu_psc;
            default: unknown_ext;
        }
    }

    state parse_gtpu_psc {
        packet.extract(hdr.gtpu_ext_psc);
        verify(hdr.gtpu_ext_psc.len == 1, error.GnbGtpuBadLength);
        transition select(hdr.gtpu_ext_psc.next_ext) {
            GTPU_NEXT_EXT_NONE: accept;
            default: unknown_ext;
        }
    }

    // The user packet starts after the whole extension chain: a chain this parser cannot walk is refused.
    state unknown_ext {
        verify(false, error.GnbGtpuUnknownExt);
        transition accept;
    }

    state parse_svc {
        packet.extract(hdr.svc);
        transition select(hdr.svc.op) {
            SVC_OP_UL_UNPROTECT: parse_deciphered;
            default: accept;
        }
    }

    state parse_deciphered {
        packet.extract(hdr.pdcp_sn12);
        packet.extract(hdr.pdcp_byte);
        transition accept;
    }

    state parse_mac {
        packet.extract(hdr.mac);
        transition select(packet.lookahead<bit<1>>()) {
            0: parse_pdcp_control;
            default: accept;
        }
    }

    state parse_pdcp_control {
        packet.extract(hdr.pdcp_control);
        transition accept;
    }
}

control GnbDeparser(packet_out packet, in gnb_headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.mac);
        packet.emit(hdr.svc);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.gtpu);
        packet.emit(hdr.gtpu_options);
        packet.emit(hdr.gtpu_ext_psc);
        packet.emit(hdr.pdcp_control);
        packet.emit(hdr.pdcp_sn12);
        packet.emit(hdr.pdcp_sn18);
        packet.emit(hdr.pdcp_byte);
    }
}

// Received checksums are not verified: the gNB forwards the user packet, it does not terminate it.
control GnbVerifyChecksum(inout gnb_headers_t hdr, inout gnb_metadata_t meta) {
    apply { }
}

// The only IPv4 header written here is the uplink G-PDU's outer one; its UDP checksum is 0 (allowed over IPv4).
control GnbComputeChecksum(inout gnb_headers_t hdr, inout gnb_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.total_len,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

#endif
