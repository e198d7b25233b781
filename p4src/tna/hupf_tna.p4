// hupf hw profile for Tofino (TNA): UPF + ACL + routing + QoS + steering to backends.
// NOT COMPILED: no Tofino backend on the machine where it was written (see README.md).
// Same tables, actions and field names as p4src/v1model/hupf_hw.p4 so that one P4Info
// translator serves both; HK-IPG and MATADOR are not part of this program yet.
#include <core.p4>
#include <tna.p4>

#include "../include/size_hw.p4"
#include "../include/headers.p4"

const PortId_t CPU_PORT = 320;
// Tofino meter colours.
const bit<8> TNA_METER_RED = 3;
const MirrorId_t CPU_MIRROR_SESSION = 511;
// First byte of what egress parses: a bridged header or a mirrored copy for the CPU.
const bit<8> PKT_KIND_BRIDGED = 1;
const bit<8> PKT_KIND_CPU_COPY = 2;

// Ingress results egress needs (TNA metadata does not cross the traffic manager).
header bridged_md_t {
    bit<8>        pkt_kind;
    bit<8>        cpu_reason;
    bit<7>        _pad0;
    PortId_t      cpu_ingress_port;
    bit<6>        _pad1;
    bit<1>        needs_encap;
    bit<1>        term_hit;
    tun_peer_id_t tun_peer_id;
    teid_t        teid;
    bit<2>        _pad2;
    qfi_t         qfi;
    ctr_idx_t     ctr_idx;
}

header cpu_mirror_t {
    bit<8>   pkt_kind;
    bit<8>   cpu_reason;
    bit<7>   _pad0;
    PortId_t cpu_ingress_port;
}

// headers_t (include/headers.p4) plus the bridged and mirror headers, in emit order.
struct tna_headers_t {
    bridged_md_t       bridged;
    cpu_mirror_t       cpu_mirror;
    packet_out_t       packet_out;
    packet_in_t        packet_in;
    ethernet_t         ethernet;
    vlan_tag_t         vlan_tag;
    ipv4_t             ipv4;
    udp_t              udp;
    tcp_t              tcp;
    icmp_t             icmp;
    gtpu_t             gtpu;
    gtpu_options_t     gtpu_options;
    gtpu_ext_psc_t     gtpu_ext_psc;
    gtpu_recovery_ie_t gtpu_recovery;
    ipv4_t             inner_ipv4;
    udp_t              inner_udp;
    tcp_t              inner_tcp;
    icmp_t             inner_icmp;
}

struct tna_metadata_t {
    local_metadata_t u;
    bool gtpu_malformed;   // the parser cannot compare lengths: ingress does
}

struct tna_egress_metadata_t {
    ipv4_addr_t tunnel_src_addr;
    ipv4_addr_t tunnel_dst_addr;
    bit<16>     tunnel_src_port;
}

parser HupfIngressParser(packet_in pkt, out tna_headers_t hdr, out tna_metadata_t meta,
                         out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        meta.gtpu_malformed = false;
        meta.u.l4_sport = 0;
        meta.u.l4_dport = 0;
        transition select(ig_intr_md.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }
    state parse_packet_out {
        pkt.extract(hdr.packet_out);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_VLAN: parse_vlan;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan_tag);
        transition select(hdr.vlan_tag.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, PROTO_UDP): parse_udp;
            (5, PROTO_TCP): parse_tcp;
            (5, PROTO_ICMP): parse_icmp;
            default: accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        meta.u.l4_sport = hdr.tcp.sport;
        meta.u.l4_dport = hdr.tcp.dport;
        transition accept;
    }
    state parse_icmp {
        pkt.extract(hdr.icmp);
        transition accept;
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        meta.u.l4_sport = hdr.udp.sport;
        meta.u.l4_dport = hdr.udp.dport;
        transition select(hdr.udp.dport) {
            GTPU_UDP_PORT: parse_gtpu;
            default: accept;
        }
    }
    state parse_gtpu {
        pkt.extract(hdr.gtpu);
        transition select(hdr.gtpu.version, hdr.gtpu.pt, hdr.gtpu.ex_flag, hdr.gtpu.seq_flag,
                          hdr.gtpu.npdu_flag) {
            (1, 1, 0, 0, 0): parse_gtpu_payload;
            (1, 1, _, _, _): parse_gtpu_options;
            default: malformed;
        }
    }
    state parse_gtpu_options {
        pkt.extract(hdr.gtpu_options);
        transition select(hdr.gtpu.ex_flag, hdr.gtpu_options.next_ext) {
            (0, _): parse_gtpu_payload;
            (1, GTPU_NEXT_EXT_NONE): parse_gtpu_payload;
            (1, GTPU_NEXT_EXT_PSC): parse_gtpu_psc;
            default: malformed;
        }
    }
    state parse_gtpu_psc {
        pkt.extract(hdr.gtpu_ext_psc);
        transition select(hdr.gtpu_ext_psc.len, hdr.gtpu_ext_psc.next_ext) {
            (1, GTPU_NEXT_EXT_NONE): parse_gtpu_payload;
            default: malformed;
        }
    }
    state malformed {
        meta.gtpu_malformed = true;
        transition accept;
    }
    state parse_gtpu_payload {
        transition select(hdr.gtpu.msgtype) {
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
        pkt.extract(hdr.inner_ipv4);
        transition select(hdr.inner_ipv4.ihl, hdr.inner_ipv4.protocol) {
            (5, PROTO_UDP): parse_inner_udp;
            (5, PROTO_TCP): parse_inner_tcp;
            (5, PROTO_ICMP): parse_inner_icmp;
            default: accept;
        }
    }
    state parse_inner_udp {
        pkt.extract(hdr.inner_udp);
        transition accept;
    }
    state parse_inner_tcp {
        pkt.extract(hdr.inner_tcp);
        transition accept;
    }
    state parse_inner_icmp {
        pkt.extract(hdr.inner_icmp);
        transition accept;
    }
}

control HupfIngress(inout tna_headers_t hdr, inout tna_metadata_t meta,
                    in ingress_intrinsic_metadata_t ig_intr_md,
                    in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                    inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                    inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    @name(".HupfIngress.upf.drop_reasons")
    Counter<bit<32>, bit<32>>(DROP_REASONS_SIZE, CounterType_t.PACKETS) drop_reasons;
    @name(".HupfIngress.upf.pre_qos_counter")
    Counter<bit<64>, bit<32>>(UPF_COUNTER_SIZE, CounterType_t.PACKETS_AND_BYTES) pre_qos_counter;
    @name(".HupfIngress.upf.session_meter")
    Meter<bit<32>>(UPF_SESSION_METER_SIZE, MeterType_t.BYTES) session_meter;
    @name(".HupfIngress.upf.app_meter")
    Meter<bit<32>>(UPF_APP_METER_SIZE, MeterType_t.BYTES) app_meter;

    // ---- ACL ---------------------------------------------------------------------------
    @name(".HupfIngress.acl.punt_to_cpu")
    action punt_to_cpu() {
        ig_tm_md.ucast_egress_port = CPU_PORT;
        meta.u.cpu_reason = PKTIN_ACL_PUNT;
        meta.u.to_cpu = true;
    }
    @name(".HupfIngress.acl.copy_to_cpu")
    action copy_to_cpu() {
        // Tofino copies through the mirror session; its header carries the reason.
        meta.u.cpu_reason = PKTIN_ACL_COPY;
        ig_dprsr_md.mirror_type = 1;
    }
    @name(".HupfIngress.acl.drop")
    action acl_drop() {
        meta.u.drop_reason = DROP_ACL;
    }
    @name(".HupfIngress.acl.nop_acl")
    action nop_acl() { }
    @name(".HupfIngress.acl.acl")
    table acl {
        key = {
            ig_intr_md.ingress_port : ternary @name("ig_port");
            hdr.ethernet.src_addr   : ternary @name("eth_src");
            hdr.ethernet.dst_addr   : ternary @name("eth_dst");
            hdr.ethernet.ether_type : ternary @name("eth_type");
            hdr.ipv4.src_addr       : ternary @name("ipv4_src");
            hdr.ipv4.dst_addr       : ternary @name("ipv4_dst");
            hdr.ipv4.protocol       : ternary @name("ip_proto");
            meta.u.l4_sport         : ternary @name("l4_sport");
            meta.u.l4_dport         : ternary @name("l4_dport");
        }
        actions = { punt_to_cpu; copy_to_cpu; acl_drop; nop_acl; }
        const default_action = nop_acl();
        size = ACL_SIZE;
    }

    // ---- UPF ---------------------------------------------------------------------------
    @name(".HupfIngress.upf.iface_access")
    action iface_access(slice_id_t slice_id) {
        meta.u.iface = IFACE_ACCESS;
        meta.u.slice_id = slice_id;
    }
    @name(".HupfIngress.upf.iface_core")
    action iface_core(slice_id_t slice_id) {
        meta.u.iface = IFACE_CORE;
        meta.u.slice_id = slice_id;
    }
    @name(".HupfIngress.upf.iface_miss")
    action iface_miss() {
        meta.u.iface = IFACE_NONE;
    }
    @name(".HupfIngress.upf.interfaces")
    table interfaces {
        key = {
            hdr.ipv4.dst_addr  : lpm   @name("ipv4_dst_addr");
            hdr.gtpu.isValid() : exact @name("gtpu_is_valid");
        }
        actions = { iface_access; iface_core; @defaultonly iface_miss; }
        const default_action = iface_miss();
        size = UPF_INTERFACES_SIZE;
    }

    @name(".HupfIngress.upf.set_uplink_session")
    action set_uplink_session(ipv4_addr_t ue_addr, meter_idx_t session_meter_idx) {
        meta.u.session_ue_addr = ue_addr;
        meta.u.session_meter_idx = session_meter_idx;
    }
    @name(".HupfIngress.upf.set_uplink_session_drop")
    action set_uplink_session_drop() {
        meta.u.drop_reason = DROP_RULE;
    }
    @name(".HupfIngress.upf.set_uplink_session_miss")
    action set_uplink_session_miss() {
        meta.u.to_backend = true;
    }
    @name(".HupfIngress.upf.uplink_sessions")
    table uplink_sessions {
        key = {
            hdr.ipv4.dst_addr : exact @name("tunnel_ipv4_dst");
            hdr.gtpu.teid     : exact @name("teid");
        }
        actions = { set_uplink_session; set_uplink_session_drop; @defaultonly set_uplink_session_miss; }
        const default_action = set_uplink_session_miss();
        size = UPF_UPLINK_SESSIONS_SIZE;
    }

    @name(".HupfIngress.upf.set_downlink_session")
    action set_downlink_session(tun_peer_id_t tun_peer_id, meter_idx_t session_meter_idx) {
        meta.u.tun_peer_id = tun_peer_id;
        meta.u.session_meter_idx = session_meter_idx;
        meta.u.needs_encap = true;
    }
    @name(".HupfIngress.upf.set_downlink_session_buf")
    action set_downlink_session_buf(meter_idx_t session_meter_idx) {
        meta.u.session_meter_idx = session_meter_idx;
        meta.u.to_cpu = true;
        meta.u.cpu_reason = PKTIN_DOWNLINK_BUFFER;
        ig_tm_md.ucast_egress_port = CPU_PORT;
    }
    @name(".HupfIngress.upf.set_downlink_session_drop")
    action set_downlink_session_drop() {
        meta.u.drop_reason = DROP_RULE;
    }
    @name(".HupfIngress.upf.set_downlink_session_miss")
    action set_downlink_session_miss() {
        meta.u.to_backend = true;
    }
    @name(".HupfIngress.upf.downlink_sessions")
    table downlink_sessions {
        key = {
            meta.u.flow.ue_addr : exact @name("ue_addr");
        }
        actions = {
            set_downlink_session; set_downlink_session_buf; set_downlink_session_drop;
            @defaultonly set_downlink_session_miss;
        }
        const default_action = set_downlink_session_miss();
        size = UPF_DOWNLINK_SESSIONS_SIZE;
    }

    @name(".HupfIngress.upf.set_app_id")
    action set_app_id(app_id_t app_id) {
        meta.u.app_id = app_id;
    }
    @name(".HupfIngress.upf.applications")
    table applications {
        key = {
            meta.u.slice_id      : exact   @name("slice_id");
            meta.u.flow.app_addr : lpm     @name("app_ipv4_addr");
            meta.u.flow.app_port : range   @name("app_l4_port");
            meta.u.flow.proto    : ternary @name("app_ip_proto");
        }
        actions = { set_app_id; }
        const default_action = set_app_id(0);
        size = UPF_APPLICATIONS_SIZE;
    }

    @name(".HupfIngress.upf.uplink_term_fwd")
    action uplink_term_fwd(ctr_idx_t ctr_idx, tc_t tc, meter_idx_t app_meter_idx) {
        meta.u.term_hit = true;
        meta.u.ctr_idx = ctr_idx;
        meta.u.tc = tc;
        meta.u.app_meter_idx = app_meter_idx;
    }
    @name(".HupfIngress.upf.uplink_term_drop")
    action uplink_term_drop(ctr_idx_t ctr_idx) {
        meta.u.term_hit = true;
        meta.u.ctr_idx = ctr_idx;
        meta.u.drop_reason = DROP_RULE;
    }
    @name(".HupfIngress.upf.upf_term_miss")
    action upf_term_miss() {
        meta.u.drop_reason = DROP_TERMINATION_MISS;
    }
    @name(".HupfIngress.upf.uplink_terminations")
    table uplink_terminations {
        key = {
            meta.u.flow.ue_addr : exact @name("ue_session_id");
            meta.u.app_id       : exact @name("app_id");
        }
        actions = { uplink_term_fwd; uplink_term_drop; @defaultonly upf_term_miss; }
        const default_action = upf_term_miss();
        size = UPF_TERMINATIONS_SIZE;
    }

    @name(".HupfIngress.upf.downlink_term_fwd")
    action downlink_term_fwd(ctr_idx_t ctr_idx, teid_t teid, qfi_t qfi, tc_t tc,
                             meter_idx_t app_meter_idx) {
        meta.u.term_hit = true;
        meta.u.ctr_idx = ctr_idx;
        meta.u.teid = teid;
        meta.u.qfi = qfi;
        meta.u.tc = tc;
        meta.u.app_meter_idx = app_meter_idx;
    }
    @name(".HupfIngress.upf.downlink_term_drop")
    action downlink_term_drop(ctr_idx_t ctr_idx) {
        meta.u.term_hit = true;
        meta.u.ctr_idx = ctr_idx;
        meta.u.drop_reason = DROP_RULE;
    }
    @name(".HupfIngress.upf.downlink_terminations")
    table downlink_terminations {
        key = {
            meta.u.flow.ue_addr : exact @name("ue_session_id");
            meta.u.app_id       : exact @name("app_id");
        }
        actions = { downlink_term_fwd; downlink_term_drop; @defaultonly upf_term_miss; }
        const default_action = upf_term_miss();
        size = UPF_TERMINATIONS_SIZE;
    }

    @name(".HupfIngress.upf.set_routing_ipv4_dst")
    action set_routing_ipv4_dst(ipv4_addr_t tun_dst_addr) {
        meta.u.routing_ipv4_dst = tun_dst_addr;
    }
    @name(".HupfIngress.upf.nop")
    action upf_nop() { }
    @name(".HupfIngress.upf.ig_tunnel_peers")
    table ig_tunnel_peers {
        key = {
            meta.u.tun_peer_id : exact @name("tun_peer_id");
        }
        actions = { set_routing_ipv4_dst; @defaultonly upf_nop; }
        const default_action = upf_nop();
        size = UPF_TUNNEL_PEERS_SIZE;
    }

    // ---- steering (hw) -----------------------------------------------------------------
    @name(".HupfIngress.steering.from_backend")
    action from_backend() {
        meta.u.skip_upf = true;
    }
    @name(".HupfIngress.steering.nop")
    action steering_nop() { }
    @name(".HupfIngress.steering.backend_ports")
    table backend_ports {
        key = {
            ig_intr_md.ingress_port : exact @name("ig_port");
        }
        actions = { from_backend; @defaultonly steering_nop; }
        const default_action = steering_nop();
        size = BACKEND_PORTS_SIZE;
    }

    Hash<bit<16>>(HashAlgorithm_t.CRC16) backend_hash;
    ActionProfile(BACKEND_SELECTOR_SIZE) backend_profile;
    @name(".HupfIngress.steering.backend_selector")
    ActionSelector(backend_profile, backend_hash, SelectorMode_t.FAIR, 16, BACKENDS_SIZE) backend_selector;

    @name(".HupfIngress.steering.steer_to_backend")
    action steer_to_backend(PortId_t port, mac_addr_t dst_mac) {
        ig_tm_md.ucast_egress_port = port;
        hdr.ethernet.dst_addr = dst_mac;
        meta.u.skip_routing = true;
    }
    @name(".HupfIngress.steering.no_backend")
    action no_backend() {
        meta.u.drop_reason = DROP_NO_BACKEND;
    }
    @name(".HupfIngress.steering.backends")
    table backends {
        key = {
            meta.u.slice_id     : exact    @name("slice_id");
            meta.u.flow.ue_addr : selector @name("ue_addr");
        }
        actions = { steer_to_backend; @defaultonly no_backend; }
        const default_action = no_backend();
        implementation = backend_selector;
        size = BACKENDS_SIZE;
    }

    // ---- routing, QoS ------------------------------------------------------------------
    @name(".HupfIngress.routing.route")
    action route(mac_addr_t src_mac, mac_addr_t dst_mac, PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
        hdr.ethernet.src_addr = src_mac;
        hdr.ethernet.dst_addr = dst_mac;
    }
    @name(".HupfIngress.routing.drop")
    action routing_drop() {
        meta.u.drop_reason = DROP_ROUTING_MISS;
    }
    @name(".HupfIngress.routing.routes_v4")
    table routes_v4 {
        key = {
            meta.u.routing_ipv4_dst : lpm @name("ipv4_dst");
        }
        actions = { route; @defaultonly routing_drop; }
        const default_action = routing_drop();
        size = ROUTES_V4_SIZE;
    }

    @name(".HupfIngress.qos.set_queue")
    action set_queue(bit<3> qid) {
        ig_tm_md.qid = (QueueId_t)qid;
    }
    @name(".HupfIngress.qos.queues")
    table queues {
        key = {
            meta.u.tc : exact @name("tc");
        }
        actions = { set_queue; }
        const default_action = set_queue(0);
        size = QOS_QUEUES_SIZE;
    }

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
        meta.u.local_reply = true;
        meta.u.routing_ipv4_dst = peer;
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
    }

    apply {
        if (hdr.packet_out.isValid()) {
            ig_tm_md.ucast_egress_port = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            ig_tm_md.bypass_egress = 1;
            exit;
        }
        meta.u.cpu_ingress_port = ig_intr_md.ingress_port;
        meta.u.routing_ipv4_dst = hdr.ipv4.dst_addr;
        // The parser cannot do arithmetic: the GTP-U length check is here.
        if (hdr.gtpu.isValid() && hdr.gtpu.msglen != hdr.udp.len - (UDP_HDR_LEN + GTPU_HDR_LEN)) {
            meta.gtpu_malformed = true;
        }
        if (meta.gtpu_malformed || ig_prsr_md.parser_err != 0) {
            if (hdr.udp.isValid() && hdr.udp.dport == GTPU_UDP_PORT) {
                meta.u.drop_reason = DROP_MALFORMED_GTPU;
            } else {
                meta.u.drop_reason = DROP_PARSER_ERROR;
            }
        } else {
            backend_ports.apply();
            acl.apply();
        }
        if (meta.u.drop_reason == 0 && !meta.u.to_cpu && !meta.u.skip_upf && hdr.ipv4.isValid()) {
            interfaces.apply();
            if (meta.u.iface == IFACE_ACCESS && hdr.gtpu.isValid()) {
                if (hdr.gtpu.msgtype == GTPU_ECHO_REQUEST) {
                    if (hdr.gtpu.seq_flag == 1) {
                        gtpu_echo_response();
                    } else {
                        meta.u.drop_reason = DROP_MALFORMED_GTPU;
                    }
                } else if (hdr.gtpu.msgtype != GTPU_GPDU || !hdr.inner_ipv4.isValid()) {
                    meta.u.drop_reason = DROP_GTPU_UNSUPPORTED;
                } else {
                    meta.u.uplink = true;
                    meta.u.flow.ue_addr = hdr.inner_ipv4.src_addr;
                    meta.u.flow.app_addr = hdr.inner_ipv4.dst_addr;
                    meta.u.flow.proto = hdr.inner_ipv4.protocol;
                    if (hdr.inner_udp.isValid()) {
                        meta.u.flow.ue_port = hdr.inner_udp.sport;
                        meta.u.flow.app_port = hdr.inner_udp.dport;
                    } else if (hdr.inner_tcp.isValid()) {
                        meta.u.flow.ue_port = hdr.inner_tcp.sport;
                        meta.u.flow.app_port = hdr.inner_tcp.dport;
                    }
                    uplink_sessions.apply();
                    if (!meta.u.to_backend && meta.u.drop_reason == 0) {
                        if (hdr.inner_ipv4.src_addr != meta.u.session_ue_addr) {
                            meta.u.drop_reason = DROP_ANTI_SPOOFING;
                        } else {
                            meta.u.routing_ipv4_dst = hdr.inner_ipv4.dst_addr;
                            gtpu_decap();
                        }
                    }
                }
            } else if (meta.u.iface == IFACE_CORE && !hdr.gtpu.isValid()) {
                meta.u.downlink = true;
                meta.u.flow.ue_addr = hdr.ipv4.dst_addr;
                meta.u.flow.app_addr = hdr.ipv4.src_addr;
                meta.u.flow.proto = hdr.ipv4.protocol;
                if (hdr.udp.isValid()) {
                    meta.u.flow.ue_port = hdr.udp.dport;
                    meta.u.flow.app_port = hdr.udp.sport;
                } else if (hdr.tcp.isValid()) {
                    meta.u.flow.ue_port = hdr.tcp.dport;
                    meta.u.flow.app_port = hdr.tcp.sport;
                }
                downlink_sessions.apply();
            }
            if ((meta.u.uplink || meta.u.downlink) && !meta.u.to_backend && !meta.u.to_cpu
                    && meta.u.drop_reason == 0) {
                applications.apply();
                if (meta.u.uplink) {
                    uplink_terminations.apply();
                } else {
                    downlink_terminations.apply();
                }
                if (meta.u.term_hit) {
                    pre_qos_counter.count(meta.u.ctr_idx);
                }
                if (meta.u.drop_reason == 0) {
                    bit<8> session_color = session_meter.execute(meta.u.session_meter_idx);
                    bit<8> app_color = app_meter.execute(meta.u.app_meter_idx);
                    if (session_color == TNA_METER_RED || app_color == TNA_METER_RED) {
                        meta.u.drop_reason = DROP_METER_RED;
                    } else if (meta.u.downlink && !ig_tunnel_peers.apply().hit) {
                        meta.u.drop_reason = DROP_ROUTING_MISS;
                    }
                }
            }
        }
        if (meta.u.to_backend && meta.u.drop_reason == 0) {
            backends.apply();
        }
        if (meta.u.drop_reason == 0 && !meta.u.to_cpu && !meta.u.skip_routing) {
            if (!hdr.ipv4.isValid()) {
                meta.u.drop_reason = DROP_ROUTING_MISS;
            } else if (routes_v4.apply().hit && !meta.u.local_reply) {
                if (hdr.ipv4.ttl <= 1) {
                    meta.u.drop_reason = DROP_TTL_EXPIRED;
                } else {
                    hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
                }
            }
        }
        if (meta.u.drop_reason == 0) {
            queues.apply();
        } else {
            drop_reasons.count(meta.u.drop_reason);
            ig_dprsr_md.drop_ctl = 1;
        }
        hdr.bridged.setValid();
        hdr.bridged.pkt_kind = PKT_KIND_BRIDGED;
        hdr.bridged.cpu_reason = meta.u.cpu_reason;
        hdr.bridged._pad0 = 0;
        hdr.bridged.cpu_ingress_port = meta.u.cpu_ingress_port;
        hdr.bridged._pad1 = 0;
        hdr.bridged.needs_encap = (bit<1>)meta.u.needs_encap;
        hdr.bridged.term_hit = (bit<1>)meta.u.term_hit;
        hdr.bridged.tun_peer_id = meta.u.tun_peer_id;
        hdr.bridged.teid = meta.u.teid;
        hdr.bridged._pad2 = 0;
        hdr.bridged.qfi = meta.u.qfi;
        hdr.bridged.ctr_idx = meta.u.ctr_idx;
    }
}

control HupfIngressDeparser(packet_out pkt, inout tna_headers_t hdr, in tna_metadata_t meta,
                            in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Mirror() mirror;
    Checksum() ipv4_checksum;

    apply {
        if (ig_dprsr_md.mirror_type == 1) {
            mirror.emit<cpu_mirror_t>(CPU_MIRROR_SESSION,
                {PKT_KIND_CPU_COPY, meta.u.cpu_reason, 0, meta.u.cpu_ingress_port});
        }
        if (hdr.ipv4.isValid()) {
            hdr.ipv4.hdr_checksum = ipv4_checksum.update(
                {hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.total_len,
                 hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.ttl,
                 hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr});
        }
        pkt.emit(hdr);
    }
}

// Egress re-parses only what encapsulation copies into the inner headers.
parser HupfEgressParser(packet_in pkt, out tna_headers_t hdr, out tna_egress_metadata_t meta,
                        out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition select(pkt.lookahead<bit<8>>()) {
            PKT_KIND_CPU_COPY: parse_cpu_mirror;
            default: parse_bridged;
        }
    }
    state parse_cpu_mirror {
        pkt.extract(hdr.cpu_mirror);
        transition accept;
    }
    state parse_bridged {
        pkt.extract(hdr.bridged);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (5, PROTO_UDP): parse_udp;
            (5, PROTO_TCP): parse_tcp;
            (5, PROTO_ICMP): parse_icmp;
            default: accept;
        }
    }
    state parse_udp {
        pkt.extract(hdr.udp);
        transition accept;
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        transition accept;
    }
    state parse_icmp {
        pkt.extract(hdr.icmp);
        transition accept;
    }
}

control HupfEgress(inout tna_headers_t hdr, inout tna_egress_metadata_t meta,
                   in egress_intrinsic_metadata_t eg_intr_md,
                   in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                   inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                   inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    @name(".HupfEgress.upf.post_qos_counter")
    Counter<bit<64>, bit<32>>(UPF_COUNTER_SIZE, CounterType_t.PACKETS_AND_BYTES) post_qos_counter;

    @name(".HupfEgress.upf.load_tunnel_params")
    action load_tunnel_params(ipv4_addr_t tunnel_src_addr, ipv4_addr_t tunnel_dst_addr,
                              bit<16> tunnel_src_port) {
        meta.tunnel_src_addr = tunnel_src_addr;
        meta.tunnel_dst_addr = tunnel_dst_addr;
        meta.tunnel_src_port = tunnel_src_port;
    }
    @name(".HupfEgress.upf.nop")
    action upf_nop() { }
    @name(".HupfEgress.upf.eg_tunnel_peers")
    table eg_tunnel_peers {
        key = {
            hdr.bridged.tun_peer_id : exact @name("tun_peer_id");
        }
        actions = { load_tunnel_params; @defaultonly upf_nop; }
        const default_action = upf_nop();
        size = UPF_TUNNEL_PEERS_SIZE;
    }

    @name(".HupfEgress.upf.gtpu_only")
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
        hdr.gtpu.teid = hdr.bridged.teid;
    }
    @name(".HupfEgress.upf.gtpu_with_psc")
    action gtpu_with_psc() {
        gtpu_only();
        hdr.ipv4.total_len = hdr.ipv4.total_len + GTPU_OPT_LEN + GTPU_PSC_LEN;
        hdr.udp.len = hdr.udp.len + GTPU_OPT_LEN + GTPU_PSC_LEN;
        hdr.gtpu.msglen = hdr.gtpu.msglen + GTPU_OPT_LEN + GTPU_PSC_LEN;
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
        hdr.gtpu_ext_psc.qfi = hdr.bridged.qfi;
        hdr.gtpu_ext_psc.next_ext = GTPU_NEXT_EXT_NONE;
    }
    @name(".HupfEgress.upf.gtpu_encap")
    table gtpu_encap {
        actions = { gtpu_only; gtpu_with_psc; }
        default_action = gtpu_only();
    }

    apply {
        if (hdr.cpu_mirror.isValid()) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = hdr.cpu_mirror.cpu_ingress_port;
            hdr.packet_in._pad0 = 0;
            hdr.packet_in.reason = hdr.cpu_mirror.cpu_reason;
            hdr.cpu_mirror.setInvalid();
            exit;
        }
        if (eg_intr_md.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = hdr.bridged.cpu_ingress_port;
            hdr.packet_in._pad0 = 0;
            hdr.packet_in.reason = hdr.bridged.cpu_reason;
        } else {
            if (hdr.bridged.term_hit == 1) {
                post_qos_counter.count(hdr.bridged.ctr_idx);
            }
            if (hdr.bridged.needs_encap == 1) {
                if (eg_tunnel_peers.apply().hit) {
                    gtpu_encap.apply();
                } else {
                    eg_dprsr_md.drop_ctl = 1;
                }
            }
        }
        hdr.bridged.setInvalid();
    }
}

control HupfEgressDeparser(packet_out pkt, inout tna_headers_t hdr, in tna_egress_metadata_t meta,
                           in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    Checksum() ipv4_checksum;
    Checksum() inner_ipv4_checksum;

    apply {
        if (hdr.ipv4.isValid()) {
            hdr.ipv4.hdr_checksum = ipv4_checksum.update(
                {hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn, hdr.ipv4.total_len,
                 hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.ttl,
                 hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr});
        }
        if (hdr.inner_ipv4.isValid()) {
            hdr.inner_ipv4.hdr_checksum = inner_ipv4_checksum.update(
                {hdr.inner_ipv4.version, hdr.inner_ipv4.ihl, hdr.inner_ipv4.dscp, hdr.inner_ipv4.ecn,
                 hdr.inner_ipv4.total_len, hdr.inner_ipv4.identification, hdr.inner_ipv4.flags,
                 hdr.inner_ipv4.frag_offset, hdr.inner_ipv4.ttl, hdr.inner_ipv4.protocol,
                 hdr.inner_ipv4.src_addr, hdr.inner_ipv4.dst_addr});
        }
        pkt.emit(hdr);
    }
}

Pipeline(HupfIngressParser(), HupfIngress(), HupfIngressDeparser(),
         HupfEgressParser(), HupfEgress(), HupfEgressDeparser()) pipe;

Switch(pipe) main;
