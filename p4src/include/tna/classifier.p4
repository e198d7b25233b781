// hw on Tofino: MATADOR (thesis ch.5) with Registers and RegisterActions: per flow slot the
// packets per window and the EWMAs of packet size and inter-packet gap, uplink and downlink.
// Each register is reached once per packet: a packet updates its own direction and reads the
// other's, and every stateful stage returns the value before this packet, which is what the
// feature tables classify when the window ends (as include/classifier.p4 does).
// The slot's index and the window's edge do not depend on the UPF; the stateful chain starts once the
// UPF's interface lookup has found the direction, one step per stage beside the UPF's steps (Tofino 1: no
// conditional block spanning stages; docs/TOFINO.md).
// Differences from the v1model version, and why:
// - The EWMAs are Tofino's low-pass filters in sample mode (the stateful ALU cannot shift a
//   register value); their time constant is set by the control plane, so set_cls_params has no
//   alpha_shift here, and a filter's first sample is filtered, not copied.
// - Timestamps are 32-bit, in units of 1.024 us (ingress global timestamp bits 41:10).
// - The last timestamps and the two filters of a direction share a register of 2 x CLS_SLOTS cells,
//   indexed by the direction and the slot (one stateful ALU each instead of two).
#ifndef HUPF_TNA_CLASSIFIER_P4
#define HUPF_TNA_CLASSIFIER_P4

#include "arch.p4"

typedef bit<(CLS_SLOT_BITS + 1)> cls_dir_idx_t;
// What the last-timestamp register returns before a direction's first packet (no gap yet).
const bit<32> CLS_NO_GAP = 0xFFFFFFFF;

// What MATADOR computes beside the interface lookup: the slot, the direction's cell, the window's edge and the
// size sample. Its table and action keep the names of the v1model classifier instance.
struct cls_prep_t {
    cls_idx_t     idx;
    cls_dir_idx_t didx;          // up ++ idx: the direction's cell of the last timestamps and the filters
    bit<32>       window_edge;   // ts - window: a window started at or before it has ended
    bit<32>       ps;            // the packet's size, the size filter's sample
}

control ClassifierPrep(in flow_meta_t flow, in bit<1> up, in bit<32> ts, inout cls_prep_t p) {
    // CRC-32's low CLS_SLOT_BITS bits, as bmv2's crc32 modulo CLS_SLOTS.
    Hash<cls_idx_t>(HashAlgorithm_t.CRC32) flow_hash;

    bit<32> cfg_window_us;

    action set_idx() {
        p.idx = flow_hash.get({ flow.ue_addr, flow.app_addr, flow.ue_port, flow.app_port, flow.proto });
    }

    @hidden
    table idx_table {
        actions = { set_idx; }
        const default_action = set_idx();
        size = 1;
    }

    @name(".HupfIngress.classifier.set_cls_params")
    action set_cls_params(bit<32> window_us) {
        cfg_window_us = window_us;
    }

    // The v1model default window (include/classifier.p4).
    @name(".HupfIngress.classifier.cls_config")
    table cls_config {
        actions = { set_cls_params; }
        default_action = set_cls_params(1000000);
    }

    apply {
        cls_config.apply();
        // Uplink and downlink of a flow share the slot: the key is UE-side/app-side.
        idx_table.apply();
        // A step of its own: bf-p4c forms a register index from one field (and constants), not from two.
        p.didx = up ++ p.idx;
        p.window_edge = ts - cfg_window_us;
        p.ps = (bit<32>)flow.ip_len;
    }
}

// meta.user: the UPF finds the packet to be uplink or downlink user traffic (include/hupf_tna.p4); up: 1 uplink,
// 0 downlink; takeover: the second pass of an HK-IPG takeover, whose first pass was classified.
// Tofino 1 runs one next-table chain through the stages: a conditional block that spans stages runs alone.
// So each step below is one stage's: a table (hidden, constant entries) that picks the RegisterAction of its
// register by the direction and the window's end, or a condition on flags the earlier steps set.
control Classifier(inout local_metadata_t meta, in cls_prep_t p, in bit<1> up, in bit<32> ts, in bool takeover) {
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) pkts_up;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) pkts_dn;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ps_ewma_up;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ps_ewma_dn;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ipg_ewma_up;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ipg_ewma_dn;
    Register<bit<32>, cls_dir_idx_t>(2 * CLS_SLOTS) last_ts;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) win_start;
    Register<bit<8>, cls_idx_t>(CLS_SLOTS) flow_class;
    Lpf<bit<32>, cls_dir_idx_t>(2 * CLS_SLOTS) ps_filter;
    Lpf<bit<32>, cls_dir_idx_t>(2 * CLS_SLOTS) ipg_filter;
    bit<32> since;
    bit<8>  ended = 0;    // a window ended (check_window)
    bit<1>  has_gap = 0;  // this direction had a packet before (the IPG filter ran)

    bit<32> f_pkts_up;
    bit<32> f_pkts_dn;
    bit<32> f_ps_up;
    bit<32> f_ps_dn;
    bit<32> f_ipg_up;
    bit<32> f_ipg_dn;
    bit<32> new_ps;
    bit<32> new_ipg;
    bit<8>  code_pkts_up;
    bit<8>  code_pkts_dn;
    bit<8>  code_ps_up;
    bit<8>  code_ps_dn;
    bit<8>  code_ipg_up;
    bit<8>  code_ipg_dn;

    action set_code_pkts_up(bit<8> code) { code_pkts_up = code; }
    action set_code_pkts_dn(bit<8> code) { code_pkts_dn = code; }
    action set_code_ps_up(bit<8> code) { code_ps_up = code; }
    action set_code_ps_dn(bit<8> code) { code_ps_dn = code; }
    action set_code_ipg_up(bit<8> code) { code_ipg_up = code; }
    action set_code_ipg_dn(bit<8> code) { code_ipg_dn = code; }

    // Range keys of 20 bits (p4c-barefoot matches ranges on at most 5 PHV nibbles): the bits 19:0 of values
    // that never exceed RANGE_KEY_MAX, so the key is min(value, 2^20 - 1). The packet counters and the stored
    // IPG EWMAs saturate there when written; the stored size EWMAs are filtered IPv4 lengths (< 2^16).
    // Saturating in the registers, not in an action, costs no stage; the controller clips the ranges
    // (HupfDataplane).
    table feature_pkts_up {
        key = { f_pkts_up[19:0] : range @name("value"); }
        actions = { set_code_pkts_up; }
        const default_action = set_code_pkts_up(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_pkts_dn {
        key = { f_pkts_dn[19:0] : range @name("value"); }
        actions = { set_code_pkts_dn; }
        const default_action = set_code_pkts_dn(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ps_up {
        key = { f_ps_up[19:0] : range @name("value"); }
        actions = { set_code_ps_up; }
        const default_action = set_code_ps_up(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ps_dn {
        key = { f_ps_dn[19:0] : range @name("value"); }
        actions = { set_code_ps_dn; }
        const default_action = set_code_ps_dn(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ipg_up {
        key = { f_ipg_up[19:0] : range @name("value"); }
        actions = { set_code_ipg_up; }
        const default_action = set_code_ipg_up(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ipg_dn {
        key = { f_ipg_dn[19:0] : range @name("value"); }
        actions = { set_code_ipg_dn; }
        const default_action = set_code_ipg_dn(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }

    action set_class(class_id_t class_id) {
        meta.class_id = class_id;
    }

    table decision {
        key = {
            code_pkts_up : exact @name("code_pkts_up");
            code_pkts_dn : exact @name("code_pkts_dn");
            code_ps_up   : exact @name("code_ps_up");
            code_ps_dn   : exact @name("code_ps_dn");
            code_ipg_up  : exact @name("code_ipg_up");
            code_ipg_dn  : exact @name("code_ipg_dn");
        }
        actions = { set_class; }
        const default_action = set_class(0);
        size = CLS_DECISION_SIZE;
    }

    // Starts a window at ts on the slot's first packet and when one has ended; returns the start
    // before this packet.
    // Starts a window where none is or the last one ended; returns 1 when one ended (the stateful ALU
    // compares: a gateway cannot compare two 32-bit fields).
    RegisterAction<bit<32>, cls_idx_t, bit<8>>(win_start) check_window = {
        void apply(inout bit<32> start, out bit<8> over) {
            over = 0;
            if (start == 0) {
                start = ts;
            } else if (start <= p.window_edge) {
                start = ts;
                over = 1;
            }
        }
    };

    // Packet counters: this direction counts, the other is read; both restart with a window.
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_up) count_up = {
        void apply(inout bit<32> n, out bit<32> before) {
            before = n;
            if (n < RANGE_KEY_MAX) {
                n = n + 1;
            }
        }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_up) restart_count_up = {
        void apply(inout bit<32> n, out bit<32> before) { before = n; n = 1; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_up) read_count_up = {
        void apply(inout bit<32> n, out bit<32> before) { before = n; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_up) clear_count_up = {
        void apply(inout bit<32> n, out bit<32> before) { before = n; n = 0; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_dn) count_dn = {
        void apply(inout bit<32> n, out bit<32> before) {
            before = n;
            if (n < RANGE_KEY_MAX) {
                n = n + 1;
            }
        }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_dn) restart_count_dn = {
        void apply(inout bit<32> n, out bit<32> before) { before = n; n = 1; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_dn) read_count_dn = {
        void apply(inout bit<32> n, out bit<32> before) { before = n; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_dn) clear_count_dn = {
        void apply(inout bit<32> n, out bit<32> before) { before = n; n = 0; }
    };

    // The gap to the direction's previous packet; CLS_NO_GAP before its first.
    RegisterAction<bit<32>, cls_dir_idx_t, bit<32>>(last_ts) swap_ts = {
        void apply(inout bit<32> last, out bit<32> gap) {
            if (last == 0) {
                gap = CLS_NO_GAP;
            } else {
                gap = ts - last;
            }
            last = ts;
        }
    };

    // Stored filter outputs: this direction writes its new EWMA, the other reads; both return
    // the value before this packet.
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ps_ewma_up) store_ps_up = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; v = new_ps; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ps_ewma_up) read_ps_up = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ps_ewma_dn) store_ps_dn = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; v = new_ps; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ps_ewma_dn) read_ps_dn = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ipg_ewma_up) store_ipg_up = {
        void apply(inout bit<32> v, out bit<32> before) {
            before = v;
            if (new_ipg > RANGE_KEY_MAX) {
                v = RANGE_KEY_MAX;
            } else {
                v = new_ipg;
            }
        }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ipg_ewma_up) read_ipg_up = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ipg_ewma_dn) store_ipg_dn = {
        void apply(inout bit<32> v, out bit<32> before) {
            before = v;
            if (new_ipg > RANGE_KEY_MAX) {
                v = RANGE_KEY_MAX;
            } else {
                v = new_ipg;
            }
        }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ipg_ewma_dn) read_ipg_dn = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; }
    };

    // The class decided at the last window end.
    RegisterAction<bit<8>, cls_idx_t, bit<8>>(flow_class) store_class = {
        void apply(inout bit<8> c, out bit<8> current) { c = meta.class_id; current = c; }
    };
    RegisterAction<bit<8>, cls_idx_t, bit<8>>(flow_class) read_class = {
        void apply(inout bit<8> c, out bit<8> current) { current = c; }
    };

    @hidden action count_pkts_up_restart() { f_pkts_up = restart_count_up.execute(p.idx); }
    @hidden action count_pkts_up() { f_pkts_up = count_up.execute(p.idx); }
    @hidden action clear_pkts_up() { f_pkts_up = clear_count_up.execute(p.idx); }
    @hidden action read_pkts_up() { f_pkts_up = read_count_up.execute(p.idx); }
    @hidden action count_pkts_dn_restart() { f_pkts_dn = restart_count_dn.execute(p.idx); }
    @hidden action count_pkts_dn() { f_pkts_dn = count_dn.execute(p.idx); }
    @hidden action clear_pkts_dn() { f_pkts_dn = clear_count_dn.execute(p.idx); }
    @hidden action read_pkts_dn() { f_pkts_dn = read_count_dn.execute(p.idx); }

    // This direction counts, the other is read; both restart with a window.
    @hidden
    table pkts_up_step {
        key = { up : exact; ended : exact; }
        actions = { count_pkts_up_restart; count_pkts_up; clear_pkts_up; read_pkts_up; @defaultonly NoAction; }
        const entries = {
            (1, 1) : count_pkts_up_restart();
            (1, 0) : count_pkts_up();
            (0, 1) : clear_pkts_up();
            (0, 0) : read_pkts_up();
        }
        const default_action = NoAction();  // never taken: the entries cover every key
        size = 4;
    }

    @hidden
    table pkts_dn_step {
        key = { up : exact; ended : exact; }
        actions = { count_pkts_dn_restart; count_pkts_dn; clear_pkts_dn; read_pkts_dn; @defaultonly NoAction; }
        const entries = {
            (0, 1) : count_pkts_dn_restart();
            (0, 0) : count_pkts_dn();
            (1, 1) : clear_pkts_dn();
            (1, 0) : read_pkts_dn();
        }
        const default_action = NoAction();  // never taken: the entries cover every key
        size = 4;
    }

    @hidden action store_ps_up_a() { f_ps_up = store_ps_up.execute(p.idx); }
    @hidden action read_ps_up_a() { f_ps_up = read_ps_up.execute(p.idx); }
    @hidden action store_ps_dn_a() { f_ps_dn = store_ps_dn.execute(p.idx); }
    @hidden action read_ps_dn_a() { f_ps_dn = read_ps_dn.execute(p.idx); }

    // This direction stores its new size EWMA, the other is read.
    @hidden
    table ps_up_step {
        key = { up : exact; }
        actions = { store_ps_up_a; read_ps_up_a; @defaultonly NoAction; }
        const entries = {
            1 : store_ps_up_a();
            0 : read_ps_up_a();
        }
        const default_action = NoAction();  // never taken: the entries cover every key
        size = 2;
    }

    @hidden
    table ps_dn_step {
        key = { up : exact; }
        actions = { store_ps_dn_a; read_ps_dn_a; @defaultonly NoAction; }
        const entries = {
            0 : store_ps_dn_a();
            1 : read_ps_dn_a();
        }
        const default_action = NoAction();  // never taken: the entries cover every key
        size = 2;
    }

    @hidden action store_ipg_up_a() { f_ipg_up = store_ipg_up.execute(p.idx); }
    @hidden action read_ipg_up_a() { f_ipg_up = read_ipg_up.execute(p.idx); }
    @hidden action store_ipg_dn_a() { f_ipg_dn = store_ipg_dn.execute(p.idx); }
    @hidden action read_ipg_dn_a() { f_ipg_dn = read_ipg_dn.execute(p.idx); }

    // This direction stores its new IPG EWMA when it had a gap, the other is read.
    @hidden
    table ipg_up_step {
        key = { up : exact; has_gap : exact; }
        actions = { store_ipg_up_a; read_ipg_up_a; @defaultonly NoAction; }
        const entries = {
            (1, 1) : store_ipg_up_a();
            (1, 0) : read_ipg_up_a();
            (0, 1) : read_ipg_up_a();
            (0, 0) : read_ipg_up_a();
        }
        const default_action = NoAction();  // never taken: the entries cover every key
        size = 4;
    }

    @hidden
    table ipg_dn_step {
        key = { up : exact; has_gap : exact; }
        actions = { store_ipg_dn_a; read_ipg_dn_a; @defaultonly NoAction; }
        const entries = {
            (0, 1) : store_ipg_dn_a();
            (0, 0) : read_ipg_dn_a();
            (1, 1) : read_ipg_dn_a();
            (1, 0) : read_ipg_dn_a();
        }
        const default_action = NoAction();  // never taken: the entries cover every key
        size = 4;
    }

    @hidden action decide_class() { meta.class_id = store_class.execute(p.idx); }
    @hidden action keep_class() { meta.class_id = read_class.execute(p.idx); }

    // At a window's end the class decided now, else the class decided at the last one.
    @hidden
    table class_step {
        key = { ended : exact; }
        actions = { decide_class; keep_class; @defaultonly NoAction; }
        const entries = {
            1 : decide_class();
            0 : keep_class();
        }
        const default_action = NoAction();  // never taken: the entries cover every key
        size = 2;
    }

    apply {
        // A takeover's second pass only reads the class (ended stays 0).
        if (meta.user && !takeover) {
            ended = check_window.execute(p.idx);
        }
        if (meta.user && !takeover) {
            new_ps = ps_filter.execute(p.ps, p.didx);
        }
        if (meta.user && !takeover) {
            since = swap_ts.execute(p.didx);
        }
        if (meta.user && !takeover) {
            pkts_up_step.apply();
        }
        if (meta.user && !takeover) {
            pkts_dn_step.apply();
        }
        if (meta.user && !takeover) {
            ps_up_step.apply();
        }
        if (meta.user && !takeover) {
            ps_dn_step.apply();
        }
        if (meta.user && !takeover && since != CLS_NO_GAP) {
            new_ipg = ipg_filter.execute(since, p.didx);
            has_gap = 1;
        }
        if (meta.user && !takeover) {
            ipg_up_step.apply();
        }
        if (meta.user && !takeover) {
            ipg_dn_step.apply();
        }
        if (ended == 1) {
            feature_pkts_up.apply();
        }
        if (ended == 1) {
            feature_pkts_dn.apply();
        }
        if (ended == 1) {
            feature_ps_up.apply();
        }
        if (ended == 1) {
            feature_ps_dn.apply();
        }
        if (ended == 1) {
            feature_ipg_up.apply();
        }
        if (ended == 1) {
            feature_ipg_dn.apply();
        }
        if (ended == 1) {
            decision.apply();
        }
        if (meta.user) {
            class_step.apply();
        }
    }
}

// The class's traffic class, for packets the switch forwards (v1model classifies no others). Applied by the
// caller after the UPF: it writes meta.tc, which the UPF's terminations write, and reads to_backend and to_cpu;
// inside the Classifier block that would order the whole block after the UPF's last table. Its table and
// actions keep the names of the v1model classifier instance.
control ClassifierTc(inout local_metadata_t meta) {
    @name(".HupfIngress.classifier.set_tc")
    action set_tc(tc_t tc) {
        meta.tc = tc;
    }

    @name(".HupfIngress.classifier.nop")
    action nop() { }

    @name(".HupfIngress.classifier.class_to_tc")
    table class_to_tc {
        key = {
            meta.class_id : exact @name("class_id");
        }
        actions = { set_tc; @defaultonly nop; }
        const default_action = nop();
        size = CLS_CLASSES;
    }

    apply {
        class_to_tc.apply();
    }
}

#endif
