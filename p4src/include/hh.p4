// hw only: HK-IPG heavy-hitter detection (thesis ch.4, Algorithm 1). One slot per
// hash index holds flow id, EWMA of the inter-packet gap, the last packet's full 48-bit
// timestamp, tau and whether the current HH episode was reported. Gaps are measured on
// full timestamps, so a gap longer than the timeslot is not mistaken for a short one.
// The Python model tools/hupf_tools/model/hkipg.py follows this arithmetic exactly.
#ifndef HUPF_HH_P4
#define HUPF_HH_P4

#include "headers.p4"

control HeavyHitter(inout headers_t hdr, inout local_metadata_t meta,
                    inout standard_metadata_t std_meta) {
    register<bit<32>>(HH_SLOTS) flow_id;
    register<bit<32>>(HH_SLOTS) ipg_ewma;
    register<bit<48>>(HH_SLOTS) last_ts;
    register<bit<16>>(HH_SLOTS) tau;
    register<bit<8>>(HH_SLOTS) reported;

    bit<16> cfg_tau_th;
    bit<32> cfg_ipg_init;
    bit<32> cfg_ipg_th;
    bit<32> cfg_decay_k;
    bit<32> cfg_timeslot_us;
    bit<8>  cfg_alpha_shift;
    bit<8>  cfg_key_mode;
    bit<16> tau_inc;
    bit<32> cur_ewma;

    // timeslot_us must be a power of two: timeslot edges are found by masking.
    action set_hh_params(bit<16> tau_th, bit<32> ipg_init, bit<32> ipg_th,
                         bit<32> decay_k, bit<32> timeslot_us, bit<8> alpha_shift,
                         bit<8> key_mode) {
        cfg_tau_th = tau_th;
        cfg_ipg_init = ipg_init;
        cfg_ipg_th = ipg_th;
        cfg_decay_k = decay_k;
        cfg_timeslot_us = timeslot_us;
        cfg_alpha_shift = alpha_shift;
        cfg_key_mode = key_mode;
    }

    // Defaults: what the app derives for 10 Mbit/s of 1000-byte packets (HhConfig): thesis
    // §4.3.2's tau_th 1850, IPG_init = IPG_th = 800 us (one packet at the threshold),
    // k = IPG_th / 1000 (at least 1), a 16.384 ms timeslot (>= 4 x IPG_th), alpha = 1 - 2^-7.
    table hh_config {
        actions = { set_hh_params; }
        default_action = set_hh_params(1850, 800, 800, 1, 16384, 7, HH_KEY_UE_ADDR);
    }

    action set_tau(bit<16> tau) {
        tau_inc = tau;
    }

    // Filled by the controller from thesis eq. 4.9 over EWMA ranges.
    table tau_table {
        key = {
            cur_ewma : range @name("ipg_ewma");
        }
        actions = { set_tau; }
        const default_action = set_tau(0);
        size = HH_TAU_TABLE_SIZE;
    }

    apply {
        if (hdr.state_read.isValid()) {
            bit<32> i = hdr.state_read.index;
            flow_id.read(hdr.state_read.hh_flow_id, i);
            ipg_ewma.read(hdr.state_read.hh_ipg_ewma, i);
            last_ts.read(hdr.state_read.hh_last_ts, i);
            tau.read(hdr.state_read.hh_tau, i);
            reported.read(hdr.state_read.hh_reported, i);
            return;
        }
        hh_config.apply();
        bit<32> key = meta.flow.ue_addr;
        if (cfg_key_mode == HH_KEY_5TUPLE) {
            hash(key, HashAlgorithm.crc32, 32w0,
                 { meta.flow.ue_addr, meta.flow.app_addr, meta.flow.ue_port,
                   meta.flow.app_port, meta.flow.proto }, 64w4294967296);
        }
        bit<32> idx;
        hash(idx, HashAlgorithm.identity, 32w0, { key }, (bit<32>)HH_SLOTS);
        bit<48> ts = std_meta.ingress_global_timestamp;
        // ts >> log2(timeslot) numbers the timeslot; masking keeps the same bits.
        bit<48> slot_mask = ~((bit<48>)cfg_timeslot_us - 1);

        bit<32> f;
        bit<48> l;
        bit<16> t;
        bit<8> r;
        flow_id.read(f, idx);
        ipg_ewma.read(cur_ewma, idx);
        last_ts.read(l, idx);
        tau.read(t, idx);
        reported.read(r, idx);

        bool report = false;
        bit<16> tau_reached = 0;
        if (f == 0 || (f != key && cur_ewma > cfg_ipg_th)) {
            // Case 1 (empty slot) and case 3 eviction: the new flow takes the slot.
            f = key;
            cur_ewma = cfg_ipg_init;
            l = ts;
            t = 0;
            r = 0;
        } else if (f != key) {
            // Case 3: collision ages the resident flow.
            cur_ewma = cur_ewma + cfg_decay_k;
        } else {
            // Case 2. The gap saturates at 2^32 - 1 us; a new timeslot number ends a timeslot.
            bool new_timeslot = (ts & slot_mask) != (l & slot_mask);
            bit<48> gap = ts - l;
            bit<32> ipg = 0xFFFFFFFF;
            if (gap <= 0xFFFFFFFF) {
                ipg = (bit<32>)gap;
            }
            cur_ewma = cur_ewma - (cur_ewma >> cfg_alpha_shift) + (ipg >> cfg_alpha_shift);
            l = ts;
            if (new_timeslot) {
                tau_table.apply();
                if (tau_inc == 0) {
                    // The flow is slower than every tau range: its HH episode is over. tau
                    // stays: Algorithm 1 resets it only when it reaches tau_th.
                    r = 0;
                } else {
                    t = t |+| tau_inc;
                    if (t >= cfg_tau_th) {
                        tau_reached = t;
                        t = 0;
                        report = r == 0;
                        r = 1;
                    }
                }
            }
        }
        flow_id.write(idx, f);
        ipg_ewma.write(idx, cur_ewma);
        last_ts.write(idx, l);
        tau.write(idx, t);
        reported.write(idx, r);

        if (report) {
            meta.cpu_reason = PKTIN_HH_REPORT;
            meta.hh_flow_key = key;
            meta.hh_ipg_ewma = cur_ewma;
            meta.hh_tau = tau_reached;
            meta.hh_flags = meta.to_backend ? HH_FLAG_BACKEND : 8w0;
            clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_CPU_CLONE);
        }
    }
}

#endif
