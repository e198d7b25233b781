// Constants of hupf's gNB user-plane program (docs/GNB.md, "The P4 program"). The header types it shares
// with hupf's UPF programs (Ethernet, IPv4, UDP, GTP-U) and their constants come from ../include/.
#ifndef HUPF_GNB_DEFINE_P4
#define HUPF_GNB_DEFINE_P4

#include "../include/define.p4"

typedef bit<32> ue_idx_t;

// The frame between the switch and the x86 services (gnb/src/svc.h), IEEE 802 local experimental.
const bit<16> ETHERTYPE_GNB_SVC = 0x88b5;
// The lab's "air": a UE host's frames carry a MAC subPDU (TS 38.321 §6.1.2) and its PDCP PDU over Ethernet
// with the other local experimental ethertype.
const bit<16> ETHERTYPE_GNB_AIR = 0x88b6;

// gnb_svc_t.op (gnb/src/svc.h's enum gnb_svc_op).
const bit<8> SVC_OP_DL_PROTECT   = 1;
const bit<8> SVC_OP_UL_UNPROTECT = 2;
const bit<8> SVC_OP_BUFFER       = 3;
const bit<8> SVC_OP_STATUS       = 4;
const bit<8> SVC_OP_RETX         = 5;

// A port's role (HupfGnbIngress.ports).
const bit<8> PORT_ROLE_N3     = 1;   // GTP-U to and from the UPF
const bit<8> PORT_ROLE_UE     = 2;   // the air towards UE hosts
const bit<8> PORT_ROLE_CRYPTO = 3;   // the ciphering and integrity service
const bit<8> PORT_ROLE_BAAS   = 4;   // Buffer-as-a-Service

// TS 38.323 §6.2.3.1: PDU type of a PDCP status report.
const bit<3> PDCP_PDU_TYPE_STATUS = 0;
// Bytes of a data PDU's header for each SN length (§6.2.2.1, §6.2.2.2).
const bit<16> PDCP_SN12_HDR_LEN = 2;
const bit<16> PDCP_SN18_HDR_LEN = 3;
const bit<16> GNB_SVC_HDR_LEN = 12;
// TS 38.321 §6.1.2: R/F/LCID/L with a 16-bit L (F = 1).
const bit<16> MAC_SUBHDR_LEN = 3;
// TS 38.415 §5.5.2.2: PDU Session Container type of an uplink PDU.
const bit<4> PSC_TYPE_UL = 1;
// The GTP-U header an uplink G-PDU gets: mandatory part, options (sequence number, N-PDU, next type) and
// the PDU Session Container (TS 29.281 §5.1, §5.2.1).
const bit<16> GNB_GTPU_TOTAL_LEN = 16;

// standard_metadata.instance_type of an ingress-to-egress clone (bmv2).
const bit<32> GNB_INSTANCE_INGRESS_CLONE = 1;

// Clone session towards BaaS: the controller creates it with one replica to the BaaS port.
const bit<32> BAAS_CLONE_SESSION_ID = 500;

// HupfGnbIngress.drops indices.
const bit<32> GNB_DROP_UNKNOWN_PORT  = 1;    // the port has no role
const bit<32> GNB_DROP_PARSER_ERROR  = 2;    // malformed GTP-U
const bit<32> GNB_DROP_NOT_GPDU      = 3;    // from N3: not a G-PDU to the GTP-U port
const bit<32> GNB_DROP_UNKNOWN_TEID  = 4;    // a G-PDU whose TEID is no UE's
const bit<32> GNB_DROP_UNKNOWN_UE    = 5;    // from the air: a source MAC that is no UE's
const bit<32> GNB_DROP_NOT_AIR       = 6;    // from the air: not a MAC subPDU, or on another logical channel
const bit<32> GNB_DROP_PDCP_CONTROL  = 7;    // a PDCP control PDU other than a status report
const bit<32> GNB_DROP_BAD_SVC_OP    = 8;    // a service frame with an op its port does not send
const bit<32> GNB_DROP_NO_UE_CONTEXT = 9;    // a service frame for a UE index the switch has no entry of
const bit<32> GNB_DROPS_SIZE         = 10;

#endif
