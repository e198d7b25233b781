// TNA side of the controls shared with v1model (include/*.p4): the part of v1model's
// standard_metadata_t and of its calls those controls use, kept in hupf's own metadata and
// applied to Tofino's intrinsic metadata by include/hupf_tna.p4. Headers that only exist on
// Tofino (bridged metadata, mirror and resubmit headers) are here too.
#ifndef HUPF_TNA_ARCH_P4
#define HUPF_TNA_ARCH_P4

#include "../headers.p4"

// The CPU's PCIe port, as bf-drivers' lld_get_pcie_cpu_port gives it: 320 on a 4-pipe Tofino 1, port 0
// of pipe 0 on a 2- or 4-pipe Tofino 2. The shared controls name the CPU V1MODEL_CPU_PORT; the TNA top
// translates it.
#if __TARGET_TOFINO__ == 2
const PortId_t TNA_CPU_PORT = 0;
#else
const PortId_t TNA_CPU_PORT = 320;
#endif
const MirrorType_t MIRROR_TYPE_CPU = 1;
const ResubmitType_t RESUBMIT_TYPE_HH_TAKEOVER = 1;
// First byte of what the egress parser sees: bridged metadata or a mirrored copy for the CPU.
const bit<8> PKT_KIND_BRIDGED = 1;
const bit<8> PKT_KIND_CPU_COPY = 2;

// Register indexes are as wide as the registers are long (Tofino takes no wider index): log2 of
// size_hw.p4's HH_SLOTS and CLS_SLOTS.
#define HH_SLOT_BITS 12
#define CLS_SLOT_BITS 12
typedef bit<HH_SLOT_BITS> hh_idx_t;
// p4c-barefoot range-matches keys of at most 20 bits (5 PHV nibbles): HK-IPG's tau table and MATADOR's
// feature tables match min(value, RANGE_KEY_MAX) in 20 bits; the controller clips ranges to the key width
// it reads from the P4Info (HupfDataplane).
const bit<32> RANGE_KEY_MAX = 0xFFFFF;
typedef bit<CLS_SLOT_BITS> cls_idx_t;

// What the shared controls read and write of v1model's standard_metadata_t.
struct standard_metadata_t {
    port_t     ingress_port;
    port_t     egress_spec;
    bit<3>     priority;
    bool       drop;
    MirrorId_t clone_session;   // 0: no copy
}

// v1model's mark_to_drop: the TNA top turns the flag into drop_ctl.
void mark_to_drop(inout standard_metadata_t std_meta) {
    std_meta.drop = true;
}

// v1model's clone as the shared ACL calls it: the TNA top mirrors the packet to the session
// with the FL_CPU_CLONE fields in cpu_mirror_t (Tofino mirrors I2E only from ingress).
#define clone_preserving_field_list(type, session, field_list) \
    std_meta.clone_session = (MirrorId_t)(session)

// Ingress results the egress controls need: TNA metadata does not cross the traffic manager.
// The ingress port sits where packet_in_t has it (the top 9 bits of 16): egress copies it in one move.
header bridged_md_t {
    bit<8>        pkt_kind;
    port_t        cpu_ingress_port;
    bit<7>        _pad0;
    bit<8>        cpu_reason;
    bit<5>        _pad1;
    bit<1>        is_packet_out;
    bit<1>        needs_encap;
    bit<1>        term_hit;
    tun_peer_id_t tun_peer_id;
    teid_t        teid;
    bit<2>        _pad2;
    qfi_t         qfi;
    ctr_idx_t     ctr_idx;
}

// The FL_CPU_CLONE fields of local_metadata_t, carried by a mirrored copy.
header cpu_mirror_t {
    bit<8>  pkt_kind;
    port_t  cpu_ingress_port;  // aligned as in packet_in_t, as in bridged_md_t
    bit<7>  _pad0;
    bit<8>  cpu_reason;
    bit<32> hh_flow_key;
    bit<32> hh_ipg_ewma;
    bit<16> hh_tau;
    bit<8>  hh_flags;
}

// A resubmit carries the phase-0 size, 64 bits on Tofino 1 and 128 on Tofino 2 (p4c-barefoot's
// bitResubmitSize): HK-IPG's slot takeover needs only its kind.
header resubmit_md_t {
    bit<8>  kind;
#if __TARGET_TOFINO__ == 2
    bit<120> _pad;
#else
    bit<56> _pad;
#endif
}

struct tna_headers_t {
    bridged_md_t bridged;
    cpu_mirror_t cpu_mirror;
    headers_t    u;
}

struct tna_ingress_metadata_t {
    local_metadata_t u;
    resubmit_md_t    resubmit;
    bool             hh_takeover;     // second pass of a packet whose flow takes an HK-IPG slot
    bool             gtpu_malformed;  // the Tofino parser cannot compare two fields: ingress does
    // What the deparser's mirror and resubmit carry: fields, as Tofino takes no non-zero constant there.
    MirrorId_t       mirror_session;
    bit<8>           mirror_kind;
    bit<8>           resubmit_kind;
}

#endif
