// GTP-U encapsulation of downlink user packets and the UPF's post-QoS counters (egress); the UPF's
// ingress (sessions, applications, terminations, decapsulation) is upf.p4.
#ifndef HUPF_UPF_ENCAP_P4
#define HUPF_UPF_ENCAP_P4

#include "headers.p4"

control UpfEgress(inout headers_t hdr, inout local_metadata_t meta,
                  inout standard_metadata_t std_meta) {
#ifdef HUPF_TNA
    Counter<bit<64>, ctr_idx_t>(UPF_COUNTER_SIZE, CounterType_t.PACKETS_AND_BYTES) post_qos_counter;
#else
#line 14
    counter(UPF_COUNTER_SIZE, CounterType.packets_and_bytes) post_qos_counter;
#endif
    action load_tunnel_params(ipv4_addr_t tunnel_src_addr, ipv4_addr_t tunnel_dst_addr,
                              bit<16> tunnel_src_port) {
        meta.tunnel_src_addr = tunnel_src_addr;
        meta.tunnel_dst_addr = tunnel_dst_addr;
        meta.tunnel_src_port = tunnel_src_port;
    }

    action nop() { }

    table eg_tunnel_peers {
        key = {
            meta.tun_peer_id : exact @name("tun_peer_id");
        }
        actions = { load_tunnel_params; @defaultonly nop; }
        const default_action = nop();
        size = UPF_TUNNEL_PEERS_SIZE;
    }

    // Outer IPv4/UDP/GTP-U around the user packet (TS 29.281 §5.1, G-PDU).
    action gtpu_only() {
        hdr.inner_ipv4 = hdr.ipv4;
        hdr.inner_udp = hdr.udp;
        hdr.inner_tcp = hdr.tcp;
        hdr.inner_icmp = hdr.icmp;
        hdr.tcp.setInvalid();
        hdr.icmp.setInvalid();

        hdr.ipv4.setValid();
        hdr.ipv4.version = 4;
        hdr.ipv4.ihl = 5;
        hdr.ipv4.dscp = 0;
        hdr.ipv4.ecn = 0;
        hdr.ipv4.total_len = hdr.inner_ipv4.total_len + IPV4_HDR_LEN + UDP_HDR_LEN + GTPU_HDR_LEN;
        hdr.ipv4.identification = 0;
        hdr.ipv4.flags = 0;
        hdr.ipv4.frag_offset = 0;
        hdr.ipv4.ttl = DEFAULT_TTL;
        hdr.ipv4.protocol = PROTO_UDP;
        hdr.ipv4.src_addr = meta.tunnel_src_addr;
        hdr.ipv4.dst_addr = meta.tunnel_dst_addr;

        hdr.udp.setValid();
        hdr.udp.sport = meta.tunnel_src_port;
        hdr.udp.dport = GTPU_UDP_PORT;
        hdr.udp.len = hdr.inner_ipv4.total_len + UDP_HDR_LEN + GTPU_HDR_LEN;
        hdr.udp.checksum = 0;

        hdr.gtpu.setValid();
        hdr.gtpu.version = 1;
        hdr.gtpu.pt = 1;
        hdr.gtpu.spare = 0;
        hdr.gtpu.ex_flag = 0;
        hdr.gtpu.seq_flag = 0;
        hdr.gtpu.npdu_flag = 0;
        hdr.gtpu.msgtype = GTPU_GPDU;
        hdr.gtpu.msglen = hdr.inner_ipv4.total_len;
        hdr.gtpu.teid = meta.teid;
    }

    // As gtpu_only, plus the optional fields and a DL PDU Session Container with the QFI.
    action gtpu_with_psc() {
        gtpu_only();
#ifdef HUPF_TNA
        // One add per field, from the inner length: Tofino runs an action in one stage.
        hdr.ipv4.total_len = hdr.inner_ipv4.total_len
                             + (IPV4_HDR_LEN + UDP_HDR_LEN + GTPU_HDR_LEN + GTPU_OPT_LEN + GTPU_PSC_LEN);
        hdr.udp.len = hdr.inner_ipv4.total_len + (UDP_HDR_LEN + GTPU_HDR_LEN + GTPU_OPT_LEN + GTPU_PSC_LEN);
        hdr.gtpu.msglen = hdr.inner_ipv4.total_len + (GTPU_OPT_LEN + GTPU_PSC_LEN);
#else
#line 86
        hdr.ipv4.total_len = hdr.ipv4.total_len + GTPU_OPT_LEN + GTPU_PSC_LEN;
        hdr.udp.len = hdr.udp.len + GTPU_OPT_LEN + GTPU_PSC_LEN;
        hdr.gtpu.msglen = hdr.gtpu.msglen + GTPU_OPT_LEN + GTPU_PSC_LEN;
#endif
#line 91
        hdr.gtpu.ex_flag = 1;
        hdr.gtpu_options.setValid();
        hdr.gtpu_options.seq_num = 0;
        hdr.gtpu_options.n_pdu_num = 0;
        hdr.gtpu_options.next_ext = GTPU_NEXT_EXT_PSC;
        hdr.gtpu_ext_psc.setValid();
        hdr.gtpu_ext_psc.len = 1;
        hdr.gtpu_ext_psc.pdu_type = PSC_TYPE_DL;
        hdr.gtpu_ext_psc.spare0 = 0;
        hdr.gtpu_ext_psc.ppp = 0;
        hdr.gtpu_ext_psc.rqi = 0;
        hdr.gtpu_ext_psc.qfi = meta.qfi;
        hdr.gtpu_ext_psc.next_ext = GTPU_NEXT_EXT_NONE;
    }

    table gtpu_encap {
        actions = { gtpu_only; gtpu_with_psc; }
        default_action = gtpu_only();
    }

    apply {
        if (meta.term_hit) {
            post_qos_counter.count(meta.ctr_idx);
        }
        if (meta.needs_encap) {
            if (eg_tunnel_peers.apply().hit) {
                gtpu_encap.apply();
            } else {
                mark_to_drop(std_meta);
            }
        }
    }
}

#endif
