// Header formats and the per-packet metadata of hupf.
#ifndef HUPF_HEADERS_P4
#define HUPF_HEADERS_P4

#include "define.p4"

@controller_header("packet_out")
header packet_out_t {
    port_t  egress_port;
    bit<7>  _pad0;
}

@controller_header("packet_in")
header packet_in_t {
    port_t  ingress_port;
    bit<7>  _pad0;
    bit<8>  reason;
}

// Follows packet_in when reason == HH_REPORT.
header hh_report_t {
    bit<32> flow_key;
    bit<32> ipg_ewma;
    bit<16> tau;
    bit<8>  flags;
    bit<8>  _pad;
}

// Follows packet_in when reason == RPS, or hh_report when its flags have HH_FLAG_RPS: one
// RPS receipt (or disclosure) of an observation point (docs/PIPELINE_CONTRACT.md, "RPS").
header rps_receipt_t {
    bit<8>  point;
    bit<8>  kind;
    bit<16> flow_id;
    bit<32> digest;
    bit<32> ts;
    bit<16> dnum;
    bit<16> _pad;
}

// hw: the registers of one HK-IPG slot and one classifier slot, read by the controller
// (bmv2's P4Runtime server cannot read registers). Sent as a packet-out to
// STATE_READ_PORT with ethertype ETHERTYPE_HUPF_STATE, returned as a STATE_READ packet-in.
header state_read_t {
    bit<32> index;
    bit<32> hh_flow_id;
    bit<32> hh_ipg_ewma;
    bit<48> hh_last_ts;
    bit<16> hh_tau;
    bit<8>  hh_reported;
    bit<8>  _pad0;
    bit<32> cls_pkts_up;
    bit<32> cls_pkts_dn;
    bit<32> cls_ps_ewma_up;
    bit<32> cls_ps_ewma_dn;
    bit<32> cls_ipg_ewma_up;
    bit<32> cls_ipg_ewma_dn;
    bit<32> cls_last_ts_up;
    bit<32> cls_last_ts_dn;
    bit<32> cls_win_start;
    bit<8>  cls_flow_class;
    bit<24> _pad1;
}

header ethernet_t {
    mac_addr_t dst_addr;
    mac_addr_t src_addr;
    bit<16>    ether_type;
}

header vlan_tag_t {
    bit<3>  pcp;
    bit<1>  dei;
    bit<12> vlan_id;
    bit<16> ether_type;
}

header ipv4_t {
    bit<4>      version;
    bit<4>      ihl;
    bit<6>      dscp;
    bit<2>      ecn;
    bit<16>     total_len;
    bit<16>     identification;
    bit<3>      flags;
    bit<13>     frag_offset;
    bit<8>      ttl;
    bit<8>      protocol;
    bit<16>     hdr_checksum;
    ipv4_addr_t src_addr;
    ipv4_addr_t dst_addr;
}

header udp_t {
    bit<16> sport;
    bit<16> dport;
    bit<16> len;
    bit<16> checksum;
}

header tcp_t {
    bit<16> sport;
    bit<16> dport;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4>  data_offset;
    bit<4>  res;
    bit<8>  flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

header icmp_t {
    bit<8>  icmp_type;
    bit<8>  icmp_code;
    bit<16> checksum;
}

// TS 29.281 §5.1: mandatory part of the GTP-U header.
header gtpu_t {
    bit<3>  version;
    bit<1>  pt;
    bit<1>  spare;
    bit<1>  ex_flag;
    bit<1>  seq_flag;
    bit<1>  npdu_flag;
    bit<8>  msgtype;
    bit<16> msglen;
    teid_t  teid;
}

// Present when any of E, S, PN is set.
header gtpu_options_t {
    bit<16> seq_num;
    bit<8>  n_pdu_num;
    bit<8>  next_ext;
}

// PDU Session Container (TS 38.415 §5.5.2), length 1 (4 octets). For DL (type 0) the
// second octet is PPP|RQI|QFI, for UL (type 1) it is N3N9 delay|new IE|QFI: QFI sits
// in the same six bits either way.
header gtpu_ext_psc_t {
    bit<8>  len;
    bit<4>  pdu_type;
    bit<4>  spare0;
    bit<1>  ppp;
    bit<1>  rqi;
    qfi_t   qfi;
    bit<8>  next_ext;
}

// Recovery IE appended to an Echo Response (TS 29.281 §7.2.2, §8.2).
header gtpu_recovery_ie_t {
    bit<8> ie_type;
    bit<8> restart_counter;
}

// RFC 7348 §5: flags (I = 0x08), reserved, VNI, reserved.
header vxlan_t {
    bit<8>  flags;
    bit<24> _rsvd0;
    vni_t   vni;
    bit<8>  _rsvd1;
}

struct headers_t {
    packet_out_t       packet_out;
    packet_in_t        packet_in;
    hh_report_t        hh_report;
#ifndef HUPF_TNA
    rps_receipt_t      rps_receipt;
    // v1model: a VXLAN encapsulation, emitted before the tenant frame: the outer headers of a VXLAN
    // frame as received (the parser keeps them here; ingress removes them from a tenant's frame, the
    // decapsulation, and routes a backend's VXLAN frame by them), or the one a downlink packet gets
    // towards its tunnel peer's tenant VTEP (tenant.p4, TenantEgress; built in egress).
    ethernet_t         vx_ethernet;
    vlan_tag_t         vx_vlan_tag;
    ipv4_t             vx_ipv4;
    udp_t              vx_udp;
    vxlan_t            vx_vxlan;
#endif
    ethernet_t         ethernet;
    state_read_t       state_read;
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

// The user packet's identity, taken from the inner headers on uplink and the outer
// ones on downlink, so that every later stage is direction-agnostic.
struct flow_meta_t {
    ipv4_addr_t ue_addr;
    ipv4_addr_t app_addr;
    bit<16>     ue_port;
    bit<16>     app_port;
    bit<8>      proto;
    bit<16>     ip_len;     // user IPv4 total length: the classifier's packet size
}

struct local_metadata_t {
    bit<16>       l4_sport;     // outer L4 ports, for the ACL
    bit<16>       l4_dport;
    bit<2>        iface;
    slice_id_t    slice_id;
    bool          uplink;
    bool          downlink;
    flow_meta_t   flow;
    meter_idx_t   session_meter_idx;
    meter_idx_t   app_meter_idx;
    ipv4_addr_t   session_ue_addr;
    app_id_t      app_id;
    bool          term_hit;
    ctr_idx_t     ctr_idx;
    tc_t          tc;
    teid_t        teid;
    qfi_t         qfi;
    tun_peer_id_t tun_peer_id;
    bool          needs_encap;
    ipv4_addr_t   tunnel_src_addr;
    ipv4_addr_t   tunnel_dst_addr;
    bit<16>       tunnel_src_port;
    class_id_t    class_id;
    bool          to_cpu;
    bool          local_reply;  // built here (GTP-U echo response): TTL is not decremented
    bool          to_backend;
    bool          skip_upf;
    bool          skip_routing;
    ipv4_addr_t   routing_ipv4_dst;
    bit<32>       drop_reason;
    bool          is_packet_out;
#ifndef HUPF_TNA
    // VXLAN (v1model): the frame arrived in VXLAN (also when truncated), its VNI and outer
    // IPv4 destination (the local VTEP); the tenant the tenants table gave. ethernet, ipv4, udp...
    // hold its tenant frame, vx_* its outer headers. Not in the TNA program yet
    // (docs/PIPELINE_CONTRACT.md, "VXLAN tenants").
    bool          vxlan;
    // hw: a VXLAN frame from a backend port (a downlink G-PDU the backend sent towards a gNB's edge
    // VTEP): no tenant's; it keeps its outer headers and is routed by them.
    bool          vx_transit;
    vni_t         vni;
    ipv4_addr_t   vtep_dst;
    bool          tenant_hit;
    tenant_id_t   tenant_id;
    tc_t          tenant_tc;
    bit<6>        tenant_dscp;
    // The QFI a tenant's slices are looked up by (tenant.p4's TenantSlice), when there is one.
    bool          slice_qfi_valid;
    qfi_t         slice_qfi;
    // hw: the DSCP of the user packet back from a backend (steering.backend_classes' key).
    bit<6>        user_dscp;
    // RPS (v1model hw): the config and the flow ingress found, for the OUT point in egress.
    bit<8>        rps_mode;
    bit<32>       rps_quiet_us;
    bit<32>       rps_select_threshold;
    bit<32>       rps_buffer_len;
    bool          rps_sampled;
    bit<16>       rps_flow_id;
    bit<32>       rps_disc_threshold;
    bit<32>       rps_pkt_digest;
#endif
    // Carried into the CPU clone (ACL copy, HH report).
    @field_list(FL_CPU_CLONE) port_t  cpu_ingress_port;
    @field_list(FL_CPU_CLONE) bit<8>  cpu_reason;
    @field_list(FL_CPU_CLONE) bit<32> hh_flow_key;
    @field_list(FL_CPU_CLONE) bit<32> hh_ipg_ewma;
    @field_list(FL_CPU_CLONE) bit<16> hh_tau;
    @field_list(FL_CPU_CLONE) bit<8>  hh_flags;
#ifndef HUPF_TNA
    // The receipt a PKTIN_RPS copy (or an HH report with HH_FLAG_RPS) carries.
    @field_list(FL_CPU_CLONE) bit<8>  rps_point;
    @field_list(FL_CPU_CLONE) bit<8>  rps_kind;
    @field_list(FL_CPU_CLONE) bit<16> rps_flow;
    @field_list(FL_CPU_CLONE) bit<32> rps_digest;
    @field_list(FL_CPU_CLONE) bit<32> rps_ts;
    @field_list(FL_CPU_CLONE) bit<16> rps_dnum;
#else
    // TNA: flags include/hupf_tna.p4 sets before the UPF, HK-IPG and MATADOR, whose steps each test them
    // (Tofino 1 runs a conditional block spanning stages alone, include/upf.p4).
    bool          go;       // the packet reaches the UPF (v1model: upf.apply() runs)
    bool          user;     // and is uplink or downlink user traffic (the UPF sets uplink or downlink)
    bool          tun_miss; // a downlink's tunnel peer is unknown
#endif
#line 288
}

#endif
