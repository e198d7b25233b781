// UPF ingress: interface classification, sessions, SDF application filtering, terminations,
// meters and pre-QoS counters; the egress (post-QoS counters, GTP-U encap) is in upf_encap.p4.
#ifndef HUPF_UPF_P4
#define HUPF_UPF_P4

#include "headers.p4"

control UpfIngress(inout headers_t hdr, inout local_metadata_t meta,
                   inout standard_metadata_t std_meta) {
#ifdef HUPF_TNA
    Counter<bit<64>, ctr_idx_t>(UPF_COUNTER_SIZE, CounterType_t.PACKETS_AND_BYTES) pre_qos_counter;
    Meter<meter_idx_t>(UPF_SESSION_METER_SIZE, MeterType_t.BYTES) session_meter;
    Meter<meter_idx_t>(UPF_APP_METER_SIZE, MeterType_t.BYTES) app_meter;
#else
#line 10
    counter(UPF_COUNTER_SIZE, CounterType.packets_and_bytes) pre_qos_counter;
    meter(UPF_SESSION_METER_SIZE, MeterType.bytes) session_meter;
    meter(UPF_APP_METER_SIZE, MeterType.bytes) app_meter;
#endif
#ifndef HUPF_TNA
#line 14
    action iface_access(slice_id_t slice_id) {
        meta.iface = IFACE_ACCESS;
        meta.slice_id = slice_id;
    }

    action iface_core(slice_id_t slice_id) {
        meta.iface = IFACE_CORE;
        meta.slice_id = slice_id;
    }

    action iface_miss() {
        meta.iface = IFACE_NONE;
    }

    table interfaces {
        key = {
            hdr.ipv4.dst_addr  : lpm   @name("ipv4_dst_addr");
            hdr.gtpu.isValid() : exact @name("gtpu_is_valid");
        }
        actions = { iface_access; iface_core; @defaultonly iface_miss; }
        const default_action = iface_miss();
        size = UPF_INTERFACES_SIZE;
    }
#endif
#line 37

// A session miss goes to a backend on the switch and is dropped on the backend.
#ifdef HUPF_HW
#define SESSION_MISS(reason) meta.to_backend = true
#else
#define SESSION_MISS(reason) meta.drop_reason = reason
#endif

    action set_uplink_session(ipv4_addr_t ue_addr, meter_idx_t session_meter_idx) {
        meta.session_ue_addr = ue_addr;
        meta.session_meter_idx = session_meter_idx;
    }

    action set_uplink_session_drop() {
        meta.drop_reason = DROP_RULE;
    }

    action set_uplink_session_miss() {
        SESSION_MISS(DROP_UPLINK_SESSION_MISS);
    }

    table uplink_sessions {
        key = {
            hdr.ipv4.dst_addr : exact @name("tunnel_ipv4_dst");
            hdr.gtpu.teid     : exact @name("teid");
        }
        actions = { set_uplink_session; set_uplink_session_drop; @defaultonly set_uplink_session_miss; }
        const default_action = set_uplink_session_miss();
        size = UPF_UPLINK_SESSIONS_SIZE;
    }

    action set_downlink_session(tun_peer_id_t tun_peer_id, meter_idx_t session_meter_idx) {
        meta.tun_peer_id = tun_peer_id;
        meta.session_meter_idx = session_meter_idx;
        meta.needs_encap = true;
    }

    // Buffer-and-notify: the controller buffers the packet and reports downlink data.
    action set_downlink_session_buf(meter_idx_t session_meter_idx) {
        meta.session_meter_idx = session_meter_idx;
        meta.to_cpu = true;
        meta.cpu_reason = PKTIN_DOWNLINK_BUFFER;
        std_meta.egress_spec = V1MODEL_CPU_PORT;
    }

    action set_downlink_session_drop() {
        meta.drop_reason = DROP_RULE;
    }

    action set_downlink_session_miss() {
        SESSION_MISS(DROP_DOWNLINK_SESSION_MISS);
    }

    table downlink_sessions {
        key = {
            meta.flow.ue_addr : exact @name("ue_addr");
        }
        actions = {
            set_downlink_session; set_downlink_session_buf; set_downlink_session_drop;
            @defaultonly set_downlink_session_miss;
        }
        const default_action = set_downlink_session_miss();
        size = UPF_DOWNLINK_SESSIONS_SIZE;
    }

    action set_app_id(app_id_t app_id) {
        meta.app_id = app_id;
    }

    table applications {
        key = {
            meta.slice_id      : exact   @name("slice_id");
#ifdef HUPF_TNA
            // Tofino matches LPM only alone: beside range and ternary the prefix is a ternary match
            // (the translator reads the match kind from the P4Info).
            meta.flow.app_addr : ternary @name("app_ipv4_addr");
#else
#line 109
            meta.flow.app_addr : lpm     @name("app_ipv4_addr");
#endif
#line 110
            meta.flow.app_port : range   @name("app_l4_port");
            meta.flow.proto    : ternary @name("app_ip_proto");
        }
        actions = { set_app_id; }
        const default_action = set_app_id(0);
        size = UPF_APPLICATIONS_SIZE;
    }

    action uplink_term_fwd(ctr_idx_t ctr_idx, tc_t tc, meter_idx_t app_meter_idx) {
        meta.term_hit = true;
        meta.ctr_idx = ctr_idx;
        meta.tc = tc;
        meta.app_meter_idx = app_meter_idx;
    }

    action uplink_term_drop(ctr_idx_t ctr_idx) {
        meta.term_hit = true;
        meta.ctr_idx = ctr_idx;
        meta.drop_reason = DROP_RULE;
    }

    action upf_term_miss() {
        meta.drop_reason = DROP_TERMINATION_MISS;
    }

    table uplink_terminations {
        key = {
            meta.flow.ue_addr : exact @name("ue_session_id");
            meta.app_id       : exact @name("app_id");
        }
        actions = { uplink_term_fwd; uplink_term_drop; @defaultonly upf_term_miss; }
        const default_action = upf_term_miss();
        size = UPF_TERMINATIONS_SIZE;
    }

    action downlink_term_fwd(ctr_idx_t ctr_idx, teid_t teid, qfi_t qfi, tc_t tc,
                             meter_idx_t app_meter_idx) {
        meta.term_hit = true;
        meta.ctr_idx = ctr_idx;
        meta.teid = teid;
        meta.qfi = qfi;
        meta.tc = tc;
        meta.app_meter_idx = app_meter_idx;
    }

    action downlink_term_drop(ctr_idx_t ctr_idx) {
        meta.term_hit = true;
        meta.ctr_idx = ctr_idx;
        meta.drop_reason = DROP_RULE;
    }

    table downlink_terminations {
        key = {
            meta.flow.ue_addr : exact @name("ue_session_id");
            meta.app_id       : exact @name("app_id");
        }
        actions = { downlink_term_fwd; downlink_term_drop; @defaultonly upf_term_miss; }
        const default_action = upf_term_miss();
        size = UPF_TERMINATIONS_SIZE;
    }

    action set_routing_ipv4_dst(ipv4_addr_t tun_dst_addr) {
        meta.routing_ipv4_dst = tun_dst_addr;
    }

    action nop() { }

    table ig_tunnel_peers {
        key = {
            meta.tun_peer_id : exact @name("tun_peer_id");
        }
        actions = { set_routing_ipv4_dst; @defaultonly nop; }
        const default_action = nop();
        size = UPF_TUNNEL_PEERS_SIZE;
    }

    // TS 29.281 §7.2.2: answer on the path the request came from, same sequence
    // number, with the Recovery IE (restart counter 0: this node does not keep one).
    action gtpu_echo_response() {
        ipv4_addr_t peer = hdr.ipv4.src_addr;
        hdr.ipv4.src_addr = hdr.ipv4.dst_addr;
        hdr.ipv4.dst_addr = peer;
        hdr.ipv4.ttl = DEFAULT_TTL;
        hdr.ipv4.total_len = hdr.ipv4.total_len + RECOVERY_IE_LEN;
        bit<16> peer_port = hdr.udp.sport;
        hdr.udp.sport = hdr.udp.dport;
        hdr.udp.dport = peer_port;
        hdr.udp.len = hdr.udp.len + RECOVERY_IE_LEN;
        hdr.udp.checksum = 0;
        hdr.gtpu.msgtype = GTPU_ECHO_RESPONSE;
        hdr.gtpu.msglen = hdr.gtpu.msglen + RECOVERY_IE_LEN;
        hdr.gtpu_recovery.setValid();
        hdr.gtpu_recovery.ie_type = GTPU_IE_RECOVERY;
        hdr.gtpu_recovery.restart_counter = 0;
        meta.local_reply = true;
        meta.routing_ipv4_dst = peer;
    }

    action gtpu_decap() {
        hdr.ipv4 = hdr.inner_ipv4;
        hdr.udp = hdr.inner_udp;
        hdr.tcp = hdr.inner_tcp;
        hdr.icmp = hdr.inner_icmp;
        hdr.inner_ipv4.setInvalid();
        hdr.inner_udp.setInvalid();
        hdr.inner_tcp.setInvalid();
        hdr.inner_icmp.setInvalid();
        hdr.gtpu.setInvalid();
        hdr.gtpu_options.setInvalid();
        hdr.gtpu_ext_psc.setInvalid();
        meta.routing_ipv4_dst = hdr.ipv4.dst_addr;
    }

    apply {
#ifdef HUPF_TNA
        // Tofino 1 runs one next-table chain through the stages, so a conditional block that spans stages
        // runs alone there. The UPF is therefore a sequence of steps that each fit in one stage, each
        // testing the flags the earlier ones set (no return), which lets HK-IPG's and MATADOR's steps share
        // its stages (docs/TOFINO.md). Before it, include/hupf_tna.p4 runs the interface lookup, sets
        // meta.go (where v1model calls upf.apply() for an IPv4 packet) and meta.user (the UPF sets uplink or
        // downlink), and reads meta.flow from the headers for every packet (here it is read only where
        // v1model sets it, and has the same value).
        // One if/else chain per stage: its branches are exclusive, so their writes of drop_reason do not
        // order them one after the other.
        if (meta.user && meta.iface == IFACE_ACCESS) {
            meta.uplink = true;
            uplink_sessions.apply();
        } else if (meta.user && meta.iface == IFACE_CORE) {
            meta.downlink = true;
            downlink_sessions.apply();
        } else if (meta.go && meta.iface == IFACE_ACCESS && hdr.gtpu.isValid()) {
            if (hdr.gtpu.msgtype == GTPU_ECHO_REQUEST) {
                // An Echo Request must carry a sequence number (TS 29.281 §5.1).
                if (hdr.gtpu.seq_flag == 1) {
                    gtpu_echo_response();
                } else {
                    meta.drop_reason = DROP_MALFORMED_GTPU;
                }
            } else {
                meta.drop_reason = DROP_GTPU_UNSUPPORTED;
            }
        }
        // No side effect: where the sessions stop the packet, nothing reads app_id.
        if (meta.user) {
            applications.apply();
        }
        // The session forwards (v1model returns on a miss, a drop or a punt). drop_reason < 16: its low byte.
        if (meta.uplink && !meta.to_backend && meta.drop_reason[7:0] == 0) {
            if (hdr.inner_ipv4.src_addr != meta.session_ue_addr) {
                meta.drop_reason = DROP_ANTI_SPOOFING;
            } else {
                gtpu_decap();
                uplink_terminations.apply();
            }
        } else if (meta.downlink && !meta.to_backend && !meta.to_cpu && meta.drop_reason[7:0] == 0) {
            downlink_terminations.apply();
            // Looked up beside the termination; a miss drops the packet only where v1model looks it up (after
            // the meters, below).
            if (!ig_tunnel_peers.apply().hit) {
                meta.tun_miss = true;
            }
        }
        if (meta.term_hit) {
            pre_qos_counter.count(meta.ctr_idx);
        }
        // Unconfigured meter cells are green, so index 0 means "not metered". Both meters run, for the
        // packets the termination forwards.
        bit<8> session_color = 0;
        bit<8> app_color = 0;
        if (meta.user && !meta.to_backend && !meta.to_cpu && meta.drop_reason[7:0] == 0) {
            session_color = session_meter.execute(meta.session_meter_idx);
            app_color = app_meter.execute(meta.app_meter_idx);
        }
        // One color per condition: p4c-barefoot fails on the two in one gateway (gateway.cpp: "Didn't cover
        // all bytes").
        if (session_color == (bit<8>)MeterColor_t.RED) {
            meta.drop_reason = DROP_METER_RED;
        } else if (app_color == (bit<8>)MeterColor_t.RED) {
            meta.drop_reason = DROP_METER_RED;
        } else if (meta.tun_miss && meta.drop_reason[7:0] == 0) {
            meta.drop_reason = DROP_ROUTING_MISS;
        }
#else
#line 224
        if (!hdr.ipv4.isValid()) {
            return;
        }
        interfaces.apply();
#line 228
        if (meta.iface == IFACE_ACCESS && hdr.gtpu.isValid()) {
            if (hdr.gtpu.msgtype == GTPU_ECHO_REQUEST) {
                // An Echo Request must carry a sequence number (TS 29.281 §5.1).
                if (hdr.gtpu.seq_flag == 1) {
                    gtpu_echo_response();
                } else {
                    meta.drop_reason = DROP_MALFORMED_GTPU;
                }
                return;
            }
            if (hdr.gtpu.msgtype != GTPU_GPDU || !hdr.inner_ipv4.isValid()) {
                meta.drop_reason = DROP_GTPU_UNSUPPORTED;
                return;
            }
            meta.uplink = true;
            meta.flow.ue_addr = hdr.inner_ipv4.src_addr;
            meta.flow.app_addr = hdr.inner_ipv4.dst_addr;
            meta.flow.proto = hdr.inner_ipv4.protocol;
            meta.flow.ip_len = hdr.inner_ipv4.total_len;
            if (hdr.inner_udp.isValid()) {
                meta.flow.ue_port = hdr.inner_udp.sport;
                meta.flow.app_port = hdr.inner_udp.dport;
            } else if (hdr.inner_tcp.isValid()) {
                meta.flow.ue_port = hdr.inner_tcp.sport;
                meta.flow.app_port = hdr.inner_tcp.dport;
            }
            uplink_sessions.apply();
            if (meta.to_backend || meta.drop_reason != 0) {
                return;
            }
            if (hdr.inner_ipv4.src_addr != meta.session_ue_addr) {
                meta.drop_reason = DROP_ANTI_SPOOFING;
                return;
            }
            gtpu_decap();
        } else if (meta.iface == IFACE_CORE && !hdr.gtpu.isValid()) {
            meta.downlink = true;
            meta.flow.ue_addr = hdr.ipv4.dst_addr;
            meta.flow.app_addr = hdr.ipv4.src_addr;
            meta.flow.proto = hdr.ipv4.protocol;
            meta.flow.ip_len = hdr.ipv4.total_len;
            if (hdr.udp.isValid()) {
                meta.flow.ue_port = hdr.udp.dport;
                meta.flow.app_port = hdr.udp.sport;
            } else if (hdr.tcp.isValid()) {
                meta.flow.ue_port = hdr.tcp.dport;
                meta.flow.app_port = hdr.tcp.sport;
            }
            downlink_sessions.apply();
            if (meta.to_backend || meta.to_cpu || meta.drop_reason != 0) {
                return;
            }
        } else {
            return;
        }

        applications.apply();
        if (meta.uplink) {
            uplink_terminations.apply();
        } else {
            downlink_terminations.apply();
        }
        if (meta.term_hit) {
            pre_qos_counter.count(meta.ctr_idx);
        }
        if (meta.drop_reason != 0) {
            return;
        }

#line 297
        // Unconfigured meter cells are green, so index 0 means "not metered".
        bit<2> session_color;
        bit<2> app_color;
        session_meter.execute_meter(meta.session_meter_idx, session_color);
        app_meter.execute_meter(meta.app_meter_idx, app_color);
        if (session_color == METER_RED || app_color == METER_RED) {
            meta.drop_reason = DROP_METER_RED;
            return;
        }
#line 307
        if (meta.downlink) {
            if (!ig_tunnel_peers.apply().hit) {
                meta.drop_reason = DROP_ROUTING_MISS;
            }
        }
#endif
#line 312
    }
}

#include "upf_encap.p4"

#endif
