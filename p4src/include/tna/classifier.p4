// hw on Tofino: MATADOR (thesis ch.5) with Registers and RegisterActions: per flow slot the
// packets per window and the EWMAs of packet size and inter-packet gap, uplink and downlink.
// Each register is reached once per packet: a packet updates its own direction and reads the
// other's, and every stateful stage returns the value before this packet, which is what the
// feature tables classify when the window ends (as include/classifier.p4 does).
// Differences from the v1model version, and why:
// - The EWMAs are Tofino's low-pass filters in sample mode (the stateful ALU cannot shift a
//   register value); their time constant is set by the control plane, so set_cls_params has no
//   alpha_shift here, and a filter's first sample is filtered, not copied.
// - Timestamps are 32-bit, in units of 1.024 us (ingress global timestamp >> 10).
#ifndef HUPF_TNA_CLASSIFIER_P4
#define HUPF_TNA_CLASSIFIER_P4

#include "arch.p4"

control Classifier(inout local_metadata_t meta, in bit<48> global_tstamp) {
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) pkts_up;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) pkts_dn;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ps_ewma_up;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ps_ewma_dn;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ipg_ewma_up;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) ipg_ewma_dn;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) last_ts_up;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) last_ts_dn;
    Register<bit<32>, cls_idx_t>(CLS_SLOTS) win_start;
    Register<bit<8>, cls_idx_t>(CLS_SLOTS) flow_class;
    Lpf<bit<32>, cls_idx_t>(CLS_SLOTS) ps_filter_up;
    Lpf<bit<32>, cls_idx_t>(CLS_SLOTS) ps_filter_dn;
    Lpf<bit<32>, cls_idx_t>(CLS_SLOTS) ipg_filter_up;
    Lpf<bit<32>, cls_idx_t>(CLS_SLOTS) ipg_filter_dn;
    // Timestamp bits 41:10 (1.024 us units) through the hash unit's identity: a shift of the 48-bit
    // timestamp in an action puts alignment constraints on its containers that PHV allocation cannot meet.
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) ts_hash;
    // CRC-32's low CLS_SLOT_BITS bits, as bmv2's crc32 modulo CLS_SLOTS.
    Hash<cls_idx_t>(HashAlgorithm_t.CRC32) flow_hash;

    bit<32> cfg_window_us;
    bit<32> ts;
    bit<32> previous;
    bit<32> gap;

    // The Lpf takes a PHV field: the gap is computed by an action of its own (a stage before).
    action set_gap() {
        gap = ts - previous;
    }

    // The timestamp by an action of its own: with the slot's hash in one action, the two hash outputs
    // exceed the 32 bits an action's immediate path takes.
    action set_ts() {
        ts = ts_hash.get({ global_tstamp[41:10] });
    }

    @hidden
    table ts_table {
        actions = { set_ts; }
        const default_action = set_ts();
        size = 1;
    }

    // One per direction: a table is applied in one place only.
    @hidden
    table gap_up_table {
        actions = { set_gap; }
        const default_action = set_gap();
        size = 1;
    }

    @hidden
    table gap_dn_table {
        actions = { set_gap; }
        const default_action = set_gap();
        size = 1;
    }
    bit<32> window_edge;   // ts - window: a window started at or before it has ended
    bool    window_ended;
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

    action set_cls_params(bit<32> window_us) {
        cfg_window_us = window_us;
    }

    // The v1model default window (include/classifier.p4).
    table cls_config {
        actions = { set_cls_params; }
        default_action = set_cls_params(1000000);
    }

    action set_code_pkts_up(bit<8> code) { code_pkts_up = code; }
    action set_code_pkts_dn(bit<8> code) { code_pkts_dn = code; }
    action set_code_ps_up(bit<8> code) { code_ps_up = code; }
    action set_code_ps_dn(bit<8> code) { code_ps_dn = code; }
    action set_code_ipg_up(bit<8> code) { code_ipg_up = code; }
    action set_code_ipg_dn(bit<8> code) { code_ipg_dn = code; }

    table feature_pkts_up {
        key = { f_pkts_up : range @name("value"); }
        actions = { set_code_pkts_up; }
        const default_action = set_code_pkts_up(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_pkts_dn {
        key = { f_pkts_dn : range @name("value"); }
        actions = { set_code_pkts_dn; }
        const default_action = set_code_pkts_dn(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ps_up {
        key = { f_ps_up : range @name("value"); }
        actions = { set_code_ps_up; }
        const default_action = set_code_ps_up(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ps_dn {
        key = { f_ps_dn : range @name("value"); }
        actions = { set_code_ps_dn; }
        const default_action = set_code_ps_dn(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ipg_up {
        key = { f_ipg_up : range @name("value"); }
        actions = { set_code_ipg_up; }
        const default_action = set_code_ipg_up(0);
        size = CLS_FEATURE_TABLE_SIZE;
    }
    table feature_ipg_dn {
        key = { f_ipg_dn : range @name("value"); }
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

    action set_tc(tc_t tc) {
        meta.tc = tc;
    }

    action nop() { }

    table class_to_tc {
        key = {
            meta.class_id : exact @name("class_id");
        }
        actions = { set_tc; @defaultonly nop; }
        const default_action = nop();
        size = CLS_CLASSES;
    }

    // Starts a window at ts on the slot's first packet and when one has ended; returns the start
    // before this packet.
    // Starts a window where none is or the last one ended; returns 1 when one ended (the stateful ALU
    // compares: a gateway cannot compare two 32-bit fields).
    RegisterAction<bit<32>, cls_idx_t, bit<8>>(win_start) check_window = {
        void apply(inout bit<32> start, out bit<8> ended) {
            ended = 0;
            if (start == 0) {
                start = ts;
            } else if (start <= window_edge) {
                start = ts;
                ended = 1;
            }
        }
    };

    // Packet counters: this direction counts, the other is read; both restart with a window.
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(pkts_up) count_up = {
        void apply(inout bit<32> n, out bit<32> before) { before = n; n = n + 1; }
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
        void apply(inout bit<32> n, out bit<32> before) { before = n; n = n + 1; }
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

    // Last timestamps: the previous one, 0 before the direction's first packet.
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(last_ts_up) swap_ts_up = {
        void apply(inout bit<32> last, out bit<32> previous) { previous = last; last = ts; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(last_ts_dn) swap_ts_dn = {
        void apply(inout bit<32> last, out bit<32> previous) { previous = last; last = ts; }
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
        void apply(inout bit<32> v, out bit<32> before) { before = v; v = new_ipg; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ipg_ewma_up) read_ipg_up = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; }
    };
    RegisterAction<bit<32>, cls_idx_t, bit<32>>(ipg_ewma_dn) store_ipg_dn = {
        void apply(inout bit<32> v, out bit<32> before) { before = v; v = new_ipg; }
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

    apply {
        cls_config.apply();
        // Uplink and downlink of a flow share the slot: the key is UE-side/app-side.
        cls_idx_t idx = flow_hash.get({ meta.flow.ue_addr, meta.flow.app_addr, meta.flow.ue_port,
                                        meta.flow.app_port, meta.flow.proto });
        ts_table.apply();
        window_edge = ts - cfg_window_us;
        window_ended = false;
        if (check_window.execute(idx) == 1) {
            window_ended = true;
        }
        bit<32> ps = (bit<32>)meta.flow.ip_len;

        if (meta.uplink) {
            if (window_ended) {
                f_pkts_up = restart_count_up.execute(idx);
                f_pkts_dn = clear_count_dn.execute(idx);
            } else {
                f_pkts_up = count_up.execute(idx);
                f_pkts_dn = read_count_dn.execute(idx);
            }
            new_ps = ps_filter_up.execute(ps, idx);
            f_ps_up = store_ps_up.execute(idx);
            f_ps_dn = read_ps_dn.execute(idx);
            previous = swap_ts_up.execute(idx);
            if (previous != 0) {
                gap_up_table.apply();
                new_ipg = ipg_filter_up.execute(gap, idx);
                f_ipg_up = store_ipg_up.execute(idx);
            } else {
                f_ipg_up = read_ipg_up.execute(idx);
            }
            f_ipg_dn = read_ipg_dn.execute(idx);
        } else {
            if (window_ended) {
                f_pkts_dn = restart_count_dn.execute(idx);
                f_pkts_up = clear_count_up.execute(idx);
            } else {
                f_pkts_dn = count_dn.execute(idx);
                f_pkts_up = read_count_up.execute(idx);
            }
            new_ps = ps_filter_dn.execute(ps, idx);
            f_ps_dn = store_ps_dn.execute(idx);
            f_ps_up = read_ps_up.execute(idx);
            previous = swap_ts_dn.execute(idx);
            if (previous != 0) {
                gap_dn_table.apply();
                new_ipg = ipg_filter_dn.execute(gap, idx);
                f_ipg_dn = store_ipg_dn.execute(idx);
            } else {
                f_ipg_dn = read_ipg_dn.execute(idx);
            }
            f_ipg_up = read_ipg_up.execute(idx);
        }

        if (window_ended) {
            feature_pkts_up.apply();
            feature_pkts_dn.apply();
            feature_ps_up.apply();
            feature_ps_dn.apply();
            feature_ipg_up.apply();
            feature_ipg_dn.apply();
            decision.apply();
            meta.class_id = store_class.execute(idx);
        } else {
            meta.class_id = read_class.execute(idx);
        }
        class_to_tc.apply();
    }
}

#endif
