// Header formats and metadata of hupf's gNB user-plane program. Ethernet, IPv4, UDP and GTP-U are hupf's
// (../include/headers.p4); the rest is the gNB's.
#ifndef HUPF_GNB_HEADERS_P4
#define HUPF_GNB_HEADERS_P4

#include "define.p4"
#include "../include/headers.p4"

// gnb/src/svc.h's struct gnb_svc_hdr.
header gnb_svc_t {
    ue_idx_t ue;
    bit<32>  count;
    bit<8>   op;
    bit<24>  _rsvd;
}

// TS 38.321 §6.1.2: the MAC subheader of a subPDU with a 16-bit length (F = 1).
header mac_subhdr_t {
    bit<1>  r;
    bit<1>  f;
    bit<6>  lcid;
    bit<16> len;
}

// The first byte of a PDCP control PDU (TS 38.323 §6.2.3): D/C = 0, PDU type; the rest is payload.
header pdcp_control_t {
    bit<1> dc;
    bit<3> pdu_type;
    bit<4> _rsvd;
}

// PDCP data PDU headers of a DRB (TS 38.323 §6.2.2): D/C = 1, reserved bits, the SN.
header pdcp_sn12_t {
    bit<1>  dc;
    bit<3>  _rsvd;
    bit<12> sn;
}

header pdcp_sn18_t {
    bit<1>  dc;
    bit<5>  _rsvd;
    bit<18> sn;
}

// The byte after a deciphered uplink PDU's first two: the third header byte of an 18-bit SN, else the SDU's
// first byte (the parser cannot know the UE's SN length; ingress keeps it for a 12-bit SN).
header pdcp_byte_t {
    bit<8> value;
}

struct gnb_headers_t {
    ethernet_t      ethernet;
    gnb_svc_t       svc;
    mac_subhdr_t    mac;
    ipv4_t          ipv4;
    udp_t           udp;
    gtpu_t          gtpu;
    gtpu_options_t  gtpu_options;
    gtpu_ext_psc_t  gtpu_ext_psc;
    pdcp_control_t  pdcp_control;
    pdcp_sn12_t     pdcp_sn12;
    pdcp_sn18_t     pdcp_sn18;
    pdcp_byte_t     pdcp_byte;
}

struct gnb_metadata_t {
    bit<8>     port_role;
    ue_idx_t   ue;
    bool       sn18;
    bit<32>    drop_reason;
    // Towards a UE (ingress finds them, egress builds the air frame): its MAC, the gNB's, the DRB's
    // logical channel and the PDCP PDU's length.
    mac_addr_t ue_mac;
    mac_addr_t air_mac;
    bit<6>     lcid;
    bit<16>    pdu_len;
    bool       to_ue;
}

#endif
