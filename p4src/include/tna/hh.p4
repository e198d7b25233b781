// hw on Tofino: HK-IPG (thesis ch.4, Algorithm 1) with Registers and RegisterActions. A packet
// reaches each register once, so Algorithm 1 is laid out as a chain of stateful stages, as short as
// the stateful ALUs allow (docs/TOFINO.md, "HK-IPG and MATADOR on the stateful ALUs"):
//   flow_id (slot owner) -> last_ts (gap) and last_slot (timeslot edge) -> Lpf (EWMA)
//   -> ipg_ewma (store / age) and tau_table -> tau_left (tau and reported, one pair) -> report.
// The configuration, the flow key and the masked timestamp do not depend on the UPF: they are computed
// while the interface lookup runs; the stateful chain starts once it has found the direction, one step
// per stage beside the UPF's steps (Tofino 1: no conditional block spanning stages).
// Where the v1model version (include/hh.p4) differs, and why:
// - A flow that evicts a slow resident takes the slot on a resubmitted second pass: the owner
//   register is read before the resident's EWMA is known (thesis §4.4.1).
// - The EWMA of the gap is Tofino's low-pass filter in sample mode: the stateful ALU cannot shift
//   a register value. Its time constant is set by the control plane, so set_hh_params has no
//   alpha_shift here; a slot taken over keeps the filter's state, ipg_ewma restarts at ipg_init.
// - Timestamps are 32-bit, in units of 1.024 us (ingress global timestamp bits 41:10).
// - tau is kept as what is left to tau_th (tau_left = tau_th - tau): "tau + tau_inc >= tau_th" is then
//   "tau_left <= tau_inc", one comparison of the register with one field.
// - The timeslot number of the owner's last packet is a register of its own (last_slot), written with
//   last_ts, so the timeslot test is a comparison in its stateful ALU.
#ifndef HUPF_TNA_HH_P4
#define HUPF_TNA_HH_P4

#include "arch.p4"

// A packet's relation to its slot: it takes an empty slot (or takes it over), owns it, or collides.
// HH_SLOT_NONE: HK-IPG does not see the packet. HH_SLOT_OTHER is 0, the stateful ALU's output when no branch
// writes one: Tofino 1's ALU has two output instructions beside the register's write, not three.
const bit<8> HH_SLOT_OTHER = 0;
const bit<8> HH_SLOT_NEW = 1;
const bit<8> HH_SLOT_OWN = 2;
const bit<8> HH_SLOT_NONE = 3;

// What is left to tau_th of the slot's tau, and whether the current HH episode was reported.
struct hh_tau_t {
    bit<16> left;
    bit<16> reported;
}

// What HK-IPG computes beside the interface lookup: its configuration, the flow key and the timeslot
// number. Its table and action keep the names of the v1model hh instance.
struct hh_prep_t {
    bit<16> tau_th;
    bit<32> ipg_init;
    bit<32> ipg_th;
    bit<32> decay_k;
    bit<32> flow_key;
    bit<32> ts_slot;    // ts with the bits below a timeslot number cleared: the timeslot number
}

control HeavyHitterPrep(in flow_meta_t flow, in bit<32> ts, inout hh_prep_t p) {
    Hash<bit<32>>(HashAlgorithm_t.CRC32) flow_hash;

    bit<32> cfg_timeslot_us;
    bit<8>  cfg_key_mode;
    bit<32> slot_low;   // the bits below a timeslot number

    @name(".HupfIngress.hh.set_hh_params")
    action set_hh_params(bit<16> tau_th, bit<32> ipg_init, bit<32> ipg_th,
                         bit<32> decay_k, bit<32> timeslot_us, bit<8> key_mode) {
        p.tau_th = tau_th;
        p.ipg_init = ipg_init;
        p.ipg_th = ipg_th;
        p.decay_k = decay_k;
        cfg_timeslot_us = timeslot_us;
        cfg_key_mode = key_mode;
    }

    // The v1model defaults (include/hh.p4) less alpha_shift.
    @name(".HupfIngress.hh.hh_config")
    table hh_config {
        actions = { set_hh_params; }
        default_action = set_hh_params(1850, 800, 800, 1, 16384, HH_KEY_UE_ADDR);
    }

    // One operation per action (an action runs in one stage): the timeslot's low bits, then the number.
    action set_slot_low() {
        slot_low = cfg_timeslot_us - 1;
    }

    @hidden
    table slot_low_table {
        actions = { set_slot_low; }
        const default_action = set_slot_low();
        size = 1;
    }

    apply {
        hh_config.apply();
        if (cfg_key_mode == HH_KEY_5TUPLE) {
            p.flow_key = flow_hash.get({ flow.ue_addr, flow.app_addr, flow.ue_port, flow.app_port, flow.proto });
        } else {
            p.flow_key = flow.ue_addr;
        }
        slot_low_table.apply();
        p.ts_slot = ts & ~slot_low;
    }
}

// meta.user: the UPF finds the packet to be uplink or downlink user traffic (include/hupf_tna.p4);
// takeover: second pass of a takeover. Out: slow (a colliding packet found a slow resident: the caller
// resubmits it to take the slot) and newly (the owner's tau reached tau_th in an episode not reported yet:
// the caller mirrors an HH report).
// Tofino 1 runs one next-table chain through the stages: a conditional block that spans stages runs alone.
// So each step below is one stage's: a table (hidden, constant entries) that picks the RegisterAction of its
// register by the packet's relation to the slot, or a condition on flags the earlier steps set.
control HeavyHitter(inout local_metadata_t meta, in hh_prep_t p, in bit<32> ts,
                    in bool takeover, out bit<8> slow, out bit<8> newly) {
    Register<bit<32>, hh_idx_t>(HH_SLOTS) flow_id;
    Register<bit<32>, hh_idx_t>(HH_SLOTS) last_ts;
    Register<bit<32>, hh_idx_t>(HH_SLOTS) last_slot;
    Register<bit<32>, hh_idx_t>(HH_SLOTS) ipg_ewma;
    Register<hh_tau_t, hh_idx_t>(HH_SLOTS) tau;
    Lpf<bit<32>, hh_idx_t>(HH_SLOTS) ipg_filter;
    bit<8>  rel = HH_SLOT_NONE;
    bit<8>  new_timeslot = 0;
    bit<16> tau_inc;
    bit<32> cur_ewma;
    bit<32> ewma_sat;   // the stored EWMA, saturated at 2^20 - 1: its bits 19:0 are tau_table's range key
    bit<32> gap;

    action set_tau(bit<16> tau) {
        tau_inc = tau;
    }

    table tau_table {
        key = {
            ewma_sat[19:0] : range @name("ipg_ewma");
        }
        actions = { set_tau; }
        const default_action = set_tau(0);
        size = HH_TAU_TABLE_SIZE;
    }

    // The packet's relation to the slot (HH_SLOT_*); own_slot claims an empty slot. A code rather than
    // the owner: a gateway cannot compare two 32-bit fields beside its other conditions.
    RegisterAction<bit<32>, hh_idx_t, bit<8>>(flow_id) own_slot = {
        void apply(inout bit<32> owner, out bit<8> r) {
            if (owner == 0) {
                owner = p.flow_key;
                r = HH_SLOT_NEW;
            } else if (owner == p.flow_key) {
                r = HH_SLOT_OWN;
            }
        }
    };

    RegisterAction<bit<32>, hh_idx_t, bit<8>>(flow_id) take_slot = {
        void apply(inout bit<32> owner, out bit<8> r) {
            owner = p.flow_key;
            r = HH_SLOT_NEW;
        }
    };

    // The owner's gap to its previous packet; a new owner starts at this packet.
    RegisterAction<bit<32>, hh_idx_t, bit<32>>(last_ts) swap_ts = {
        void apply(inout bit<32> last, out bit<32> since) {
            since = ts - last;
            last = ts;
        }
    };

    RegisterAction<bit<32>, hh_idx_t, bit<32>>(last_ts) start_ts = {
        void apply(inout bit<32> last) {
            last = ts;
        }
    };

    // The owner's last timeslot number: returns 1 when this packet's differs (a timeslot ended).
    RegisterAction<bit<32>, hh_idx_t, bit<8>>(last_slot) swap_slot = {
        void apply(inout bit<32> slot, out bit<8> changed) {
            changed = 0;
            if (slot != p.ts_slot) {
                changed = 1;
            }
            slot = p.ts_slot;
        }
    };

    RegisterAction<bit<32>, hh_idx_t, bit<8>>(last_slot) start_slot = {
        void apply(inout bit<32> slot) {
            slot = p.ts_slot;
        }
    };

    // Owner: the filtered gap. New owner: ipg_init (cur_ewma holds either on the way in). Stored saturated
    // at RANGE_KEY_MAX and returned: the tau table's 20-bit range key, min(EWMA, 2^20 - 1), with no stage
    // of its own (p4c-barefoot range-matches at most 20 bits).
    RegisterAction<bit<32>, hh_idx_t, bit<32>>(ipg_ewma) store_ewma = {
        void apply(inout bit<32> ewma, out bit<32> stored) {
            if (cur_ewma > RANGE_KEY_MAX) {
                ewma = RANGE_KEY_MAX;
            } else {
                ewma = cur_ewma;
            }
            stored = ewma;
        }
    };

    // Algorithm 1 case 3: a colliding packet ages the resident by decay_k (cur_ewma holds it on the way
    // in: the register's stateful ALU takes two fields); returns 1 when the resident was slower than
    // ipg_th before (it is evicted: the takeover restarts the EWMA at ipg_init).
    RegisterAction<bit<32>, hh_idx_t, bit<8>>(ipg_ewma) age_ewma = {
        void apply(inout bit<32> ewma, out bit<8> is_slow) {
            is_slow = 0;
            if (ewma > p.ipg_th) {
                is_slow = 1;
            }
            ewma = ewma |+| cur_ewma;
        }
    };

    // At a timeslot edge tau grows by tau_inc (tau_left shrinks); reaching tau_th restarts it. Returns 1
    // when it reached tau_th in an episode not reported yet; the episode is reported from then on.
    RegisterAction<hh_tau_t, hh_idx_t, bit<8>>(tau) add_tau = {
        void apply(inout hh_tau_t t, out bit<8> reached) {
            reached = 0;
            if (t.left <= tau_inc) {
                if (t.reported == 0) {
                    reached = 1;
                }
                t.left = p.tau_th;
                t.reported = 1;
            } else {
                t.left = t.left - tau_inc;
            }
        }
    };

    // Slower than every tau range: the HH episode is over (tau stays, as in Algorithm 1).
    RegisterAction<hh_tau_t, hh_idx_t, bit<8>>(tau) end_episode = {
        void apply(inout hh_tau_t t) {
            t.reported = 0;
        }
    };

    RegisterAction<hh_tau_t, hh_idx_t, bit<8>>(tau) start_tau = {
        void apply(inout hh_tau_t t) {
            t.left = p.tau_th;
            t.reported = 0;
        }
    };

    // bmv2's identity hash modulo HH_SLOTS (a power of two): the key's low bits.
#define HH_IDX p.flow_key[HH_SLOT_BITS - 1:0]

    // Case 1 and a takeover's second pass start the slot; case 2 takes the gap; case 3 ages the resident by
    // decay_k, which reaches ipg_ewma in cur_ewma as ipg_init does for a new owner.
    @hidden action ts_new() { start_ts.execute(HH_IDX); cur_ewma = p.ipg_init; }
    @hidden action ts_own() { gap = swap_ts.execute(HH_IDX); }
    @hidden action ts_other() { cur_ewma = p.decay_k; }

    @hidden
    table ts_step {
        key = { rel : exact; }
        actions = { ts_new; ts_own; ts_other; NoAction; }
        const entries = {
            HH_SLOT_NEW : ts_new();
            HH_SLOT_OWN : ts_own();
            HH_SLOT_OTHER : ts_other();
        }
        const default_action = NoAction();
        size = 4;
    }

    @hidden action slot_new() { start_slot.execute(HH_IDX); }
    @hidden action slot_own() { new_timeslot = swap_slot.execute(HH_IDX); }

    @hidden
    table timeslot_step {
        key = { rel : exact; }
        actions = { slot_new; slot_own; NoAction; }
        const entries = {
            HH_SLOT_NEW : slot_new();
            HH_SLOT_OWN : slot_own();
        }
        const default_action = NoAction();
        size = 4;
    }

    @hidden action ewma_store() { ewma_sat = store_ewma.execute(HH_IDX); }
    @hidden action ewma_age() { slow = age_ewma.execute(HH_IDX); }

    @hidden
    table ewma_step {
        key = { rel : exact; }
        actions = { ewma_store; ewma_age; NoAction; }
        const entries = {
            HH_SLOT_NEW : ewma_store();
            HH_SLOT_OWN : ewma_store();
            HH_SLOT_OTHER : ewma_age();
        }
        const default_action = NoAction();
        size = 4;
    }

    @hidden action tau_start() { start_tau.execute(HH_IDX); }
    @hidden action tau_end() { end_episode.execute(HH_IDX); }
    @hidden action tau_add() { newly = add_tau.execute(HH_IDX); }

    // A new owner starts tau; at an owner's timeslot edge, a tau of 0 (slower than every tau range) ends the
    // episode, any other adds to tau.
    @hidden
    table tau_step {
        key = {
            rel          : exact;
            new_timeslot : ternary;
            tau_inc      : ternary;
        }
        actions = { tau_start; tau_end; tau_add; NoAction; }
        const entries = {
            (HH_SLOT_NEW, _, _) : tau_start();
            (HH_SLOT_OWN, 1, 0) : tau_end();
            (HH_SLOT_OWN, 1, _) : tau_add();
        }
        const default_action = NoAction();
        size = 4;
    }

    apply {
        slow = 0;
        newly = 0;
        if (meta.user) {
            if (takeover) {
                rel = take_slot.execute(HH_IDX);
            } else {
                rel = own_slot.execute(HH_IDX);
            }
        }
        ts_step.apply();
        timeslot_step.apply();
        // Case 2: the owner's gap feeds the EWMA.
        if (rel == HH_SLOT_OWN) {
            cur_ewma = ipg_filter.execute(gap, HH_IDX);
        }
        ewma_step.apply();
        // A new timeslot number ends a timeslot.
        if (rel == HH_SLOT_OWN && new_timeslot != 0) {
            tau_table.apply();
        }
        tau_step.apply();
        if (newly == 1) {
            // cpu_reason, hh_flags and the mirror are set by the caller.
            meta.hh_flow_key = p.flow_key;
            meta.hh_ipg_ewma = cur_ewma;
            meta.hh_tau = p.tau_th;  // tau reached tau_th (v1model reports the sum, at least tau_th)
        }
    }
#undef HH_IDX
}

#endif
