// hw only: MATADOR in-network classifier (thesis ch.5). Per flow slot, six features:
// packets per window, EWMA of packet size and EWMA of inter-packet gap, for uplink and
// downlink. When a packet arrives after the window ended, the finished window's
// features go through one range table each (-> code), the codes through the decision
// table (-> class); the class is kept per flow and mapped to a traffic class.
// The Python model tools/hupf_tools/model/features.py follows this arithmetic exactly.
#ifndef HUPF_CLASSIFIER_P4
#define HUPF_CLASSIFIER_P4

#include "headers.p4"

control Classifier(inout headers_t hdr, inout local_metadata_t meta,
                   inout standard_metadata_t std_meta) {
    register<bit<32>>(CLS_SLOTS) pkts_up;
    register<bit<32>>(CLS_SLOTS) pkts_dn;
    register<bit<32>>(CLS_SLOTS) ps_ewma_up;
    register<bit<32>>(CLS_SLOTS) ps_ewma_dn;
    register<bit<32>>(CLS_SLOTS) ipg_ewma_up;
    register<bit<32>>(CLS_SLOTS) ipg_ewma_dn;
    register<bit<32>>(CLS_SLOTS) last_ts_up;
    register<bit<32>>(CLS_SLOTS) last_ts_dn;
    register<bit<32>>(CLS_SLOTS) win_start;
    register<bit<8>>(CLS_SLOTS) flow_class;

    bit<32> cfg_window_us;
    bit<8>  cfg_alpha_shift;
    bit<32> f_pkts_up;
    bit<32> f_pkts_dn;
    bit<32> f_ps_up;
    bit<32> f_ps_dn;
    bit<32> f_ipg_up;
    bit<32> f_ipg_dn;
    bit<8>  code_pkts_up;
    bit<8>  code_pkts_dn;
    bit<8>  code_ps_up;
    bit<8>  code_ps_dn;
    bit<8>  code_ipg_up;
    bit<8>  code_ipg_dn;

    action set_cls_params(bit<32> window_us, bit<8> alpha_shift) {
        cfg_window_us = window_us;
        cfg_alpha_shift = alpha_shift;
    }

    table cls_config {
        actions = { set_cls_params; }
        default_action = set_cls_params(1000000, 3);
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

    // EWMA with alpha = 1 - 2^-s; the first sample initialises it.
    action ewma(inout bit<32> avg, in bit<32> sample) {
        if (avg == 0) {
            avg = sample;
        } else {
            avg = avg - (avg >> cfg_alpha_shift) + (sample >> cfg_alpha_shift);
        }
    }

    apply {
        if (hdr.state_read.isValid()) {
            bit<32> i = hdr.state_read.index;
            pkts_up.read(hdr.state_read.cls_pkts_up, i);
            pkts_dn.read(hdr.state_read.cls_pkts_dn, i);
            ps_ewma_up.read(hdr.state_read.cls_ps_ewma_up, i);
            ps_ewma_dn.read(hdr.state_read.cls_ps_ewma_dn, i);
            ipg_ewma_up.read(hdr.state_read.cls_ipg_ewma_up, i);
            ipg_ewma_dn.read(hdr.state_read.cls_ipg_ewma_dn, i);
            last_ts_up.read(hdr.state_read.cls_last_ts_up, i);
            last_ts_dn.read(hdr.state_read.cls_last_ts_dn, i);
            win_start.read(hdr.state_read.cls_win_start, i);
            flow_class.read(hdr.state_read.cls_flow_class, i);
            return;
        }
        cls_config.apply();
        bit<32> idx;
        // Uplink and downlink of a flow share the slot: the key is UE-side/app-side.
        hash(idx, HashAlgorithm.crc32, 32w0,
             { meta.flow.ue_addr, meta.flow.app_addr, meta.flow.ue_port,
               meta.flow.app_port, meta.flow.proto }, (bit<32>)CLS_SLOTS);
        bit<32> ts = (bit<32>)std_meta.ingress_global_timestamp;

        bit<32> w;
        bit<8> c;
        win_start.read(w, idx);
        flow_class.read(c, idx);
        pkts_up.read(f_pkts_up, idx);
        pkts_dn.read(f_pkts_dn, idx);
        ps_ewma_up.read(f_ps_up, idx);
        ps_ewma_dn.read(f_ps_dn, idx);
        ipg_ewma_up.read(f_ipg_up, idx);
        ipg_ewma_dn.read(f_ipg_dn, idx);

        if (w == 0) {
            w = ts;
        } else if (ts - w >= cfg_window_us) {
            feature_pkts_up.apply();
            feature_pkts_dn.apply();
            feature_ps_up.apply();
            feature_ps_dn.apply();
            feature_ipg_up.apply();
            feature_ipg_dn.apply();
            decision.apply();
            c = meta.class_id;
            f_pkts_up = 0;
            f_pkts_dn = 0;
            w = ts;
        }

        bit<32> ps = (bit<32>)meta.flow.ip_len;
        bit<32> last;
        if (meta.uplink) {
            last_ts_up.read(last, idx);
            f_pkts_up = f_pkts_up + 1;
            ewma(f_ps_up, ps);
            if (last != 0) {
                ewma(f_ipg_up, ts - last);
            }
            last_ts_up.write(idx, ts);
            pkts_up.write(idx, f_pkts_up);
            ps_ewma_up.write(idx, f_ps_up);
            ipg_ewma_up.write(idx, f_ipg_up);
        } else {
            last_ts_dn.read(last, idx);
            f_pkts_dn = f_pkts_dn + 1;
            ewma(f_ps_dn, ps);
            if (last != 0) {
                ewma(f_ipg_dn, ts - last);
            }
            last_ts_dn.write(idx, ts);
            pkts_dn.write(idx, f_pkts_dn);
            ps_ewma_dn.write(idx, f_ps_dn);
            ipg_ewma_dn.write(idx, f_ipg_dn);
        }
        // The other direction's packet counter restarts with the window too.
        if (meta.uplink) {
            pkts_dn.write(idx, f_pkts_dn);
        } else {
            pkts_up.write(idx, f_pkts_up);
        }
        win_start.write(idx, w);
        flow_class.write(idx, c);

        meta.class_id = c;
        class_to_tc.apply();
    }
}

#endif
