// Constants and metadata shared by every hupf profile (see docs/PIPELINE_CONTRACT.md).
#ifndef HUPF_DEFINE_P4
#define HUPF_DEFINE_P4

typedef bit<48> mac_addr_t;
typedef bit<32> ipv4_addr_t;
typedef bit<9>  port_t;
typedef bit<4>  slice_id_t;
typedef bit<8>  app_id_t;
typedef bit<8>  tun_peer_id_t;
typedef bit<32> ctr_idx_t;
typedef bit<32> meter_idx_t;
typedef bit<2>  tc_t;
typedef bit<32> teid_t;
typedef bit<6>  qfi_t;
typedef bit<8>  class_id_t;
typedef bit<8>  tenant_id_t;
typedef bit<24> vni_t;

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_VLAN = 0x8100;
// IEEE 802 local experimental ethertype: a controller's state read (packet-out to port 0).
const bit<16> ETHERTYPE_HUPF_STATE = 0x88b5;
const bit<8>  PROTO_ICMP = 1;
const bit<8>  PROTO_TCP  = 6;
const bit<8>  PROTO_UDP  = 17;
const bit<16> GTPU_UDP_PORT = 2152;
// RFC 7348: VXLAN's UDP port and its I flag (the VNI is valid).
const bit<16> VXLAN_UDP_PORT = 4789;
const bit<8>  VXLAN_FLAG_I = 0x08;
// The outer UDP source port of a VXLAN encapsulation: this base | the TEID's low 14 bits (per-session
// entropy for the underlay's ECMP, RFC 7348 §5).
const bit<16> VXLAN_SPORT_BASE = 0xc000;

// TS 29.281 §6.1 message types used here.
const bit<8> GTPU_ECHO_REQUEST  = 1;
const bit<8> GTPU_ECHO_RESPONSE = 2;
const bit<8> GTPU_GPDU          = 0xff;
// TS 29.281 §5.2.1: extension header types; 0x85 = PDU Session Container (TS 38.415).
const bit<8> GTPU_NEXT_EXT_NONE = 0x00;
const bit<8> GTPU_NEXT_EXT_PSC  = 0x85;
// Recovery IE (TS 29.281 §8.2): type 14, one octet restart counter.
const bit<8> GTPU_IE_RECOVERY   = 14;
const bit<4> PSC_TYPE_DL = 0;

const bit<8> DEFAULT_TTL = 64;

// Every length below is in bytes, fixed by the header formats.
const bit<16> IPV4_HDR_LEN = 20;
const bit<16> UDP_HDR_LEN = 8;
const bit<16> GTPU_HDR_LEN = 8;
const bit<16> GTPU_OPT_LEN = 4;
const bit<16> GTPU_PSC_LEN = 4;
const bit<16> ETH_HDR_LEN = 14;
const bit<16> VLAN_HDR_LEN = 4;
const bit<16> VXLAN_HDR_LEN = 8;
const bit<16> RECOVERY_IE_LEN = 2;

// Interface types from HupfIngress.upf.interfaces.
const bit<2> IFACE_NONE   = 0;
const bit<2> IFACE_ACCESS = 1;
const bit<2> IFACE_CORE   = 2;

// packet_in.reason values (contract: Packet I/O).
const bit<8> PKTIN_ACL_PUNT        = 1;
const bit<8> PKTIN_ACL_COPY        = 2;
const bit<8> PKTIN_DOWNLINK_BUFFER = 3;
const bit<8> PKTIN_HH_REPORT       = 4;
const bit<8> PKTIN_STATE_READ      = 6;
const bit<8> PKTIN_RPS             = 7;   // an RPS receipt: rps_receipt_t follows packet_in

// packet_out.egress_port of a state read (hw): no data port is 0 on bmv2.
const bit<9> STATE_READ_PORT = 0;

// HupfIngress.upf.drop_reasons indices (contract: UPF tables).
const bit<32> DROP_UPLINK_SESSION_MISS   = 1;
const bit<32> DROP_DOWNLINK_SESSION_MISS = 2;
const bit<32> DROP_TERMINATION_MISS      = 3;
const bit<32> DROP_ANTI_SPOOFING         = 4;
const bit<32> DROP_MALFORMED_GTPU        = 5;
const bit<32> DROP_METER_RED             = 6;
const bit<32> DROP_RULE                  = 7;
const bit<32> DROP_PARSER_ERROR          = 8;
const bit<32> DROP_ACL                   = 9;
const bit<32> DROP_ROUTING_MISS          = 10;
const bit<32> DROP_NO_BACKEND            = 11;
const bit<32> DROP_GTPU_UNSUPPORTED      = 12;
const bit<32> DROP_TTL_EXPIRED           = 13;
const bit<32> DROP_UNKNOWN_VNI           = 14;   // VXLAN whose (VNI, VTEP) is no tenant's
const bit<32> DROP_MALFORMED_VXLAN       = 15;   // truncated VXLAN or tenant frame, I flag clear
const bit<32> DROP_REASONS_SIZE          = 16;

// bmv2 CPU port (simple_switch_grpc --cpu-port 255).
const bit<9> V1MODEL_CPU_PORT = 255;

// v1model meter colours.
const bit<2> METER_RED = 2;

// Flow key modes of HupfIngress.hh (set_hh_params key_mode).
const bit<8> HH_KEY_UE_ADDR = 0;
const bit<8> HH_KEY_5TUPLE  = 1;

// hh_report_t.flags
const bit<8> HH_FLAG_BACKEND = 1;   // the reporting packet was steered to a backend (no hw session)
const bit<8> HH_FLAG_RPS     = 0x80;   // an rps_receipt_t follows hh_report_t (the same packet's receipt)

// Clone session towards the CPU port; the controller creates it (contract: Packet I/O).
const bit<32> CPU_CLONE_SESSION_ID = 511;
// An HH report carries packet_in + hh_report + this many bytes of the packet.
const bit<32> HH_REPORT_TRUNC_LEN = 3 + 12 + 64;

// Retroactive Packet Sampling (hw, v1model; docs/PIPELINE_CONTRACT.md "Retroactive Packet Sampling").
// Observation points (rps_receipt_t.point; state index point * size + i).
const bit<8>  RPS_POINT_IN  = 0;   // ingress: the packet arrived from outside hupf
const bit<8>  RPS_POINT_OUT = 1;   // egress: the packet leaves hupf
const bit<8>  RPS_POINTS    = 2;
// set_config mode.
const bit<8>  RPS_MODE_OFF        = 0;
const bit<8>  RPS_MODE_DATA_PLANE = 1;   // FIFO RPS here, disclosures to the controller
const bit<8>  RPS_MODE_HYBRID     = 2;   // every receipt to the controller (reference RPS there)
// rps_receipt_t.kind
const bit<8>  RPS_KIND_DIRECT  = 1;
const bit<8>  RPS_KIND_DELAYED = 2;
const bit<8>  RPS_KIND_RECEIPT = 3;
const bit<8>  RPS_KIND_LATE    = 4;   // late-disclosure warning: the receipt left the buffer undisclosed
// rps_late_warned: this bit | the last dnum warned of (0: none yet).
const bit<17> RPS_LATE_WARNED_FLAG = 0x10000;
// rps.events counter index = point * RPS_EVENTS + event.
const bit<32> RPS_EVENTS            = 8;
const bit<32> RPS_EV_OBSERVED       = 0;
const bit<32> RPS_EV_DIRECT         = 1;
const bit<32> RPS_EV_DELAYED        = 2;
const bit<32> RPS_EV_LATE           = 3;   // late-disclosure warnings emitted
const bit<32> RPS_EV_TRACK_OVERRUN  = 4;   // evicted after its disclosure left the tracker
const bit<32> RPS_EV_EXPORTED       = 5;   // mode 2 receipts
const bit<32> RPS_EV_LATE_REPEATED  = 6;   // late evictions of an already warned (flow, dnum)
const bit<32> RPS_EV_INVALID        = 7;   // not observed: flow_id >= RPS_FLOWS or buffer_len outside 1..size
// A receipt packet-in: packet_in + rps_receipt_t; riding an HH report: packet_in + hh_report_t +
// rps_receipt_t + 64 bytes of the packet.
const bit<32> RPS_RECEIPT_TRUNC_LEN   = 3 + 16;
const bit<32> RPS_HH_REPORT_TRUNC_LEN = 3 + 12 + 16 + 64;
// v1model: egress_spec after mark_to_drop (bmv2's drop port); a packet dropped in egress never leaves.
const bit<9> V1MODEL_DROP_PORT = 511;

// User metadata fields preserved into the CPU clone.
const bit<8> FL_CPU_CLONE = 1;

#endif
