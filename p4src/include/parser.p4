// v1model parser: Ethernet, VLAN, IPv4, UDP/TCP/ICMP, GTP-U (TS 29.281) with its
// extension header chain, inner IPv4/UDP/TCP/ICMP. Malformed GTP-U ends in a parser
// error that ingress drops and counts (v1model hands errored packets to ingress).
// VXLAN (UDP 4789, one level, not in packet-outs): the VNI and the outer IPv4 destination go
// to metadata, the outer headers move to the vx_* instances and the tenant frame is parsed into
// the same headers as any frame, so that every later stage works on it; ingress removes the outer
// headers of a tenant's frame (decapsulation on the way in) and keeps those of a backend's (hw).
#ifndef HUPF_PARSER_P4
#define HUPF_PARSER_P4

#include "headers.p4"

error {
    GtpuBadVersion,
    GtpuBadLength,
    GtpuUnknownExt,
    VxlanBadFlags
}

parser HupfParser(packet_in packet, out headers_t hdr, inout local_metadata_t meta,
                  inout standard_metadata_t std_meta) {
    state start {
        transition select(std_meta.ingress_port) {
            V1MODEL_CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            ETHERTYPE_HUPF_STATE: parse_state_read;
            default: accept;
        }
    }

    state parse_state_read {
        packet.extract(hdr.state_read);
        transition accept;
    }

    state parse_vlan {
        packet.extract(hdr.vlan_tag);
        transition select(hdr.vlan_tag.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        // L4 is only parsed behind a 20-octet header; options are carried, not parsed.
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, PROTO_UDP): parse_udp;
            (5, PROTO_TCP): parse_tcp;
            (5, PROTO_ICMP): parse_icmp;
            default: accept;
        }
    }

    state parse_tcp {
        packet.extract(hdr.tcp);
        meta.l4_sport = hdr.tcp.sport;
        meta.l4_dport = hdr.tcp.dport;
        transition accept;
    }

    state parse_icmp {
        packet.extract(hdr.icmp);
        transition accept;
    }

    state parse_udp {
        packet.extract(hdr.udp);
        meta.l4_sport = hdr.udp.sport;
        meta.l4_dport = hdr.udp.dport;
        transition select(hdr.udp.dport, hdr.vx_vxlan.isValid(), hdr.packet_out.isValid()) {
            (GTPU_UDP_PORT, _, _): parse_gtpu;
            (VXLAN_UDP_PORT, false, false): parse_vxlan;
            default: accept;
        }
    }

    // meta.vxlan is set before anything can fail: a truncated VXLAN frame is told apart in
    // ingress (DROP_MALFORMED_VXLAN) from other parser errors.
    state parse_vxlan {
        meta.vxlan = true;
        meta.vtep_dst = hdr.ipv4.dst_addr;
        meta.l4_sport = 0;
        meta.l4_dport = 0;
        // (p4c warns that hdr.vlan_tag may be uninitialized here: copying an invalid header gives an invalid one.)
        hdr.vx_ethernet = hdr.ethernet;
        hdr.vx_vlan_tag = hdr.vlan_tag;
        hdr.vx_ipv4 = hdr.ipv4;
        hdr.vx_udp = hdr.udp;
        hdr.ethernet.setInvalid();
        hdr.vlan_tag.setInvalid();
        hdr.ipv4.setInvalid();
        hdr.udp.setInvalid();
        packet.extract(hdr.vx_vxlan);
        meta.vni = hdr.vx_vxlan.vni;
        verify(hdr.vx_vxlan.flags & VXLAN_FLAG_I == VXLAN_FLAG_I, error.VxlanBadFlags);
        transition parse_tenant_ethernet;
    }

    state parse_tenant_ethernet {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_gtpu {
        packet.extract(hdr.gtpu);
        verify(hdr.gtpu.version == 1 && hdr.gtpu.pt == 1, error.GtpuBadVersion);
        // Length = octets after the mandatory 8-octet header (TS 29.281 §5.1).
        verify(hdr.gtpu.msglen == hdr.udp.len - (UDP_HDR_LEN + GTPU_HDR_LEN), error.GtpuBadLength);
        transition select(hdr.gtpu.ex_flag, hdr.gtpu.seq_flag, hdr.gtpu.npdu_flag) {
            (0, 0, 0): parse_gtpu_payload;
            default: parse_gtpu_options;
        }
    }

    state parse_gtpu_options {
        packet.extract(hdr.gtpu_options);
        transition select(hdr.gtpu.ex_flag, hdr.gtpu_options.next_ext) {
            (0, _): parse_gtpu_payload;
            (1, GTPU_NEXT_EXT_NONE): parse_gtpu_payload;
            (1, GTPU_NEXT_EXT_PSC): parse_gtpu_psc;
            default: unknown_ext;
        }
    }

    state parse_gtpu_psc {
        packet.extract(hdr.gtpu_ext_psc);
        verify(hdr.gtpu_ext_psc.len == 1, error.GtpuBadLength);
        transition select(hdr.gtpu_ext_psc.next_ext) {
            GTPU_NEXT_EXT_NONE: parse_gtpu_payload;
            default: unknown_ext;
        }
    }

    // Extension headers are variable-length; a chain this parser cannot walk is
    // refused rather than forwarded with an unknown prefix on the inner packet.
    state unknown_ext {
        verify(false, error.GtpuUnknownExt);
        transition accept;
    }

    state parse_gtpu_payload {
        transition select(hdr.gtpu.msgtype) {
            GTPU_GPDU: parse_gpdu;
            default: accept;
        }
    }

    // Only a G-PDU is looked into (an Echo Request may end right here).
    state parse_gpdu {
        transition select(packet.lookahead<bit<4>>()) {
            4: parse_inner_ipv4;
            default: accept;
        }
    }

    state parse_inner_ipv4 {
        packet.extract(hdr.inner_ipv4);
        transition select(hdr.inner_ipv4.ihl, hdr.inner_ipv4.protocol) {
            (5, PROTO_UDP): parse_inner_udp;
            (5, PROTO_TCP): parse_inner_tcp;
            (5, PROTO_ICMP): parse_inner_icmp;
            default: accept;
        }
    }

    state parse_inner_udp {
        packet.extract(hdr.inner_udp);
        transition accept;
    }

    state parse_inner_tcp {
        packet.extract(hdr.inner_tcp);
        transition accept;
    }

    state parse_inner_icmp {
        packet.extract(hdr.inner_icmp);
        transition accept;
    }
}

#endif
