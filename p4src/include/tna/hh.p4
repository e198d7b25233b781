// hw on Tofino: HK-IPG (thesis ch.4, Algorithm 1) with Registers and RegisterActions. A packet
// reaches each register once, so Algorithm 1 is laid out as a chain of stateful stages:
//   flow_id (slot owner) -> last_ts (gap) -> Lpf (EWMA) -> ipg_ewma -> tau_table -> tau -> reported.
// Where the v1model version (include/hh.p4) differs, and why:
// - A flow that evicts a slow resident takes the slot on a resubmitted second pass: the owner
//   register is read before the resident's EWMA is known (thesis §4.4.1).
// - The EWMA of the gap is Tofino's low-pass filter in sample mode: the stateful ALU cannot shift
//   a register value. Its time constant is set by the control plane, so set_hh_params has no
//   alpha_shift here; a slot taken over keeps the filter's state, ipg_ewma restarts at ipg_init.
// - Timestamps are 32-bit, in units of 1.024 us (ingress global timestamp >> 10).
#ifndef HUPF_TNA_HH_P4
#define HUPF_TNA_HH_P4

#include "arch.p4"

control HeavyHitter(inout local_metadata_t meta, in bit<48> global_tstamp, in bool takeover,
                    out bool request_takeover) {
    Register<bit<32>, hh_idx_t>(HH_SLOTS) flow_id;
    Register<bit<32>, hh_idx_t>(HH_SLOTS) last_ts;
    Register<bit<32>, hh_idx_t>(HH_SLOTS) ipg_ewma;
    Register<bit<16>, hh_idx_t>(HH_SLOTS) tau;
    Register<bit<8>, hh_idx_t>(HH_SLOTS) reported;
    Lpf<bit<32>, hh_idx_t>(HH_SLOTS) ipg_filter;
    // Timestamp bits 41:10 (1.024 us units) through the hash unit's identity: a shift of the 48-bit
    // timestamp in an action puts alignment constraints on its containers that PHV allocation cannot meet.
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) ts_hash;
    Hash<bit<32>>(HashAlgorithm_t.CRC32) flow_hash;

    bit<16> cfg_tau_th;
    bit<32> cfg_ipg_init;
    bit<32> cfg_ipg_th;
    bit<32> cfg_decay_k;
    bit<32> cfg_timeslot_us;
    bit<8>  cfg_key_mode;
    bit<16> tau_inc;
    bit<16> tau_left;   // tau_th - tau_inc: a tau at or above it reaches tau_th
    bit<32> cur_ewma;
    bit<32> flow_key;
    bit<32> ts;
    bit<32> previous;
    bit<32> gap;

    bit<32> slot_diff;
    bit<32> slot_low;   // the bits below a timeslot number

    // The timeslot test in steps of one operation per field (an action runs in one stage).
    action set_slot_xor() {
        slot_diff = ts ^ previous;
        slot_low = cfg_timeslot_us - 1;
    }

    action mask_slot_diff() {
        slot_diff = slot_diff & ~slot_low;
    }

    @hidden
    table slot_xor_table {
        actions = { set_slot_xor; }
        const default_action = set_slot_xor();
        size = 1;
    }

    @hidden
    table slot_mask_table {
        actions = { mask_slot_diff; }
        const default_action = mask_slot_diff();
        size = 1;
    }

    // The Lpf takes a PHV field: the gap is computed by an action of its own (a stage before).
    action set_gap() {
        gap = ts - previous;
    }

    @hidden
    table gap_table {
        actions = { set_gap; }
        const default_action = set_gap();
        size = 1;
    }

    action set_hh_params(bit<16> tau_th, bit<32> ipg_init, bit<32> ipg_th,
                         bit<32> decay_k, bit<32> timeslot_us, bit<8> key_mode) {
        cfg_tau_th = tau_th;
        cfg_ipg_init = ipg_init;
        cfg_ipg_th = ipg_th;
        cfg_decay_k = decay_k;
        cfg_timeslot_us = timeslot_us;
        cfg_key_mode = key_mode;
    }

    // The v1model defaults (include/hh.p4) less alpha_shift.
    table hh_config {
        actions = { set_hh_params; }
        default_action = set_hh_params(1850, 800, 800, 1, 16384, HH_KEY_UE_ADDR);
    }

    action set_tau(bit<16> tau) {
        tau_inc = tau;
    }

    table tau_table {
        key = {
            cur_ewma : range @name("ipg_ewma");
        }
        actions = { set_tau; }
        const default_action = set_tau(0);
        size = HH_TAU_TABLE_SIZE;
    }

    // Both return the owner before this packet; own_slot claims an empty slot.
    RegisterAction<bit<32>, hh_idx_t, bit<32>>(flow_id) own_slot = {
        void apply(inout bit<32> owner, out bit<32> before) {
            before = owner;
            if (owner == 0) {
                owner = flow_key;
            }
        }
    };

    RegisterAction<bit<32>, hh_idx_t, bit<32>>(flow_id) take_slot = {
        void apply(inout bit<32> owner, out bit<32> before) {
            before = owner;
            owner = flow_key;
        }
    };

    // The owner's previous timestamp (this packet's for a new owner); others leave it.
    RegisterAction<bit<32>, hh_idx_t, bit<32>>(last_ts) swap_ts = {
        void apply(inout bit<32> last, out bit<32> previous) {
            previous = last;
            last = ts;
        }
    };

    RegisterAction<bit<32>, hh_idx_t, bit<32>>(last_ts) start_ts = {
        void apply(inout bit<32> last, out bit<32> previous) {
            last = ts;
            previous = ts;
        }
    };

    // Owner: the filtered gap (cur_ewma holds it on the way in). New owner: ipg_init.
    RegisterAction<bit<32>, hh_idx_t, bit<32>>(ipg_ewma) store_ewma = {
        void apply(inout bit<32> ewma, out bit<32> stored) {
            ewma = cur_ewma;
            stored = ewma;
        }
    };

    // Algorithm 1 case 3: a colliding packet ages the resident; returns the EWMA before, which
    // decides the eviction (a takeover restarts the EWMA at ipg_init).
    RegisterAction<bit<32>, hh_idx_t, bit<8>>(ipg_ewma) age_ewma = {
        void apply(inout bit<32> ewma, out bit<8> slow) {
            // 1: the resident was slower than ipg_th (compared here: a gateway cannot compare two fields).
            slow = 0;
            if (ewma > cfg_ipg_th) {
                slow = 1;
            }
            ewma = ewma |+| cfg_decay_k;
        }
    };

    // At a timeslot edge tau grows by tau_inc; reaching tau_th restarts it at 0. Returns 1 when it
    // reached tau_th (compared here: a gateway cannot compare two fields).
    RegisterAction<bit<16>, hh_idx_t, bit<8>>(tau) add_tau = {
        void apply(inout bit<16> t, out bit<8> reached) {
            reached = 0;
            if (t >= tau_left) {
                t = 0;
                reached = 1;
            } else {
                t = t |+| tau_inc;
            }
        }
    };

    RegisterAction<bit<16>, hh_idx_t, bit<16>>(tau) clear_tau = {
        void apply(inout bit<16> t, out bit<16> before) {
            before = t;
            t = 0;
        }
    };

    // One report per HH episode: returns whether the episode was reported already.
    RegisterAction<bit<8>, hh_idx_t, bit<8>>(reported) mark_reported = {
        void apply(inout bit<8> r, out bit<8> before) {
            before = r;
            r = 1;
        }
    };

    RegisterAction<bit<8>, hh_idx_t, bit<8>>(reported) clear_reported = {
        void apply(inout bit<8> r, out bit<8> before) {
            before = r;
            r = 0;
        }
    };

    apply {
        request_takeover = false;
        hh_config.apply();
        flow_key = meta.flow.ue_addr;
        if (cfg_key_mode == HH_KEY_5TUPLE) {
            flow_key = flow_hash.get({ meta.flow.ue_addr, meta.flow.app_addr, meta.flow.ue_port,
                                  meta.flow.app_port, meta.flow.proto });
        }
        // bmv2's identity hash modulo HH_SLOTS (a power of two): the key's low bits.
        hh_idx_t idx = flow_key[HH_SLOT_BITS - 1:0];
        ts = ts_hash.get({ global_tstamp[41:10] });

        bit<32> owner;
        if (takeover) {
            owner = take_slot.execute(idx);
        } else {
            owner = own_slot.execute(idx);
        }
        if (!takeover && owner != 0 && owner != flow_key) {
            // Case 3: evict a slow resident (second pass), else age it.
            if (age_ewma.execute(idx) == 1) {
                request_takeover = true;
            }
            return;
        }
        if (takeover || owner == 0) {
            start_ts.execute(idx);
            cur_ewma = cfg_ipg_init;
            store_ewma.execute(idx);
            clear_tau.execute(idx);
            clear_reported.execute(idx);
            return;
        }
        // Case 2: the owner's gap feeds the EWMA; a new timeslot number ends a timeslot.
        previous = swap_ts.execute(idx);
        gap_table.apply();
        cur_ewma = ipg_filter.execute(gap, idx);
        store_ewma.execute(idx);
        // A new timeslot number: (ts ^ previous) has a bit set above the timeslot's, tested against 0.
        slot_xor_table.apply();
        slot_mask_table.apply();
        if (slot_diff == 0) {
            return;
        }
        tau_table.apply();
        if (tau_inc == 0) {
            // Slower than every tau range: the HH episode is over.
            clear_reported.execute(idx);
            return;
        }
        tau_left = cfg_tau_th |-| tau_inc;
        if (add_tau.execute(idx) == 1 && mark_reported.execute(idx) == 0) {
            meta.cpu_reason = PKTIN_HH_REPORT;
            meta.hh_flow_key = flow_key;
            meta.hh_ipg_ewma = cur_ewma;
            meta.hh_tau = cfg_tau_th;  // tau reached tau_th (v1model reports the sum, at least tau_th)
            // A condition of its own: Tofino compiles a ?: into an action, which allows no such test.
            if (meta.to_backend) {
                meta.hh_flags = HH_FLAG_BACKEND;
            } else {
                meta.hh_flags = 0;
            }
        }
    }
}

#endif
