// hw (v1model): Retroactive Packet Sampling (seed 003: FIFO RPS, Algorithm 3, with disclosure
// numbers; contract: docs/PIPELINE_CONTRACT.md, "Retroactive Packet Sampling (RPS)"). A sampled
// flow's packets are observed at two points, IN (ingress: RpsIngress) and OUT (egress: RpsEgress),
// each with its own FIFO buffer, disclosure numbers and tracker. Both controls use the registers
// below (cell = point * cells per point + i), so they are top-level instances. The reference model
// of every decision is tools/hupf_tools/model/rps.py.
#ifndef HUPF_RPS_P4
#define HUPF_RPS_P4

#include "headers.p4"

#define RPS_BUFFER_CELLS ((bit<32>)RPS_POINTS * RPS_BUFFER_SIZE)
#define RPS_FLOW_CELLS ((bit<32>)RPS_POINTS * RPS_FLOWS)
#define RPS_TRACK_CELLS (RPS_FLOW_CELLS * (bit<32>)RPS_TRACK_DEPTH)
// The tracker's slot is dnum & (depth - 1); dnum is 16 bits wide, and a tracker as deep as its range could not
// tell an overrun from the disclosure 2^16 later.
#if (RPS_TRACK_DEPTH & (RPS_TRACK_DEPTH - 1)) != 0 || RPS_TRACK_DEPTH < 1 || RPS_TRACK_DEPTH > 32768
#error "RPS_TRACK_DEPTH must be a power of two in 1..32768"
#endif

// FIFO buffer: RPS_BUFFER_SIZE receipts per point; rps_head[point] = the oldest (next overwritten).
register<bit<16>>(RPS_BUFFER_CELLS) rps_buf_flow;
register<bit<32>>(RPS_BUFFER_CELLS) rps_buf_digest;
register<bit<32>>(RPS_BUFFER_CELLS) rps_buf_ts;
register<bit<16>>(RPS_BUFFER_CELLS) rps_buf_dnum;
register<bit<1>>(RPS_BUFFER_CELLS) rps_buf_valid;
register<bit<32>>((bit<32>)RPS_POINTS) rps_head;
// Per (point, flow): the next direct disclosure's number; the last dnum warned of as late.
register<bit<16>>(RPS_FLOW_CELLS) rps_next_dnum;
register<bit<17>>(RPS_FLOW_CELLS) rps_late_warned;
// Tracker: the last RPS_TRACK_DEPTH direct disclosures per (point, flow), slot dnum % depth (the size
// header's; the control plane and the backend take it from the P4Info: rps_track_dnum / rps_next_dnum).
// The seed's tracker is a table the controller writes; here the data plane writes it itself.
register<bit<16>>(RPS_TRACK_CELLS) rps_track_dnum;
register<bit<32>>(RPS_TRACK_CELLS) rps_track_digest;
register<bit<32>>(RPS_TRACK_CELLS) rps_track_ts;
register<bit<1>>(RPS_TRACK_CELLS) rps_track_valid;

// One observation of a sampled packet (meta.rps_flow_id, meta.rps_pkt_digest) at `point`, time `ts`.
// Sets meta.rps_kind (0: nothing for the controller) and the receipt to send; `outcome` is the event
// to count besides RPS_EV_OBSERVED (RPS_EVENTS: none; RPS_EV_INVALID: not observed at all).
void rps_emit(inout local_metadata_t meta, in bit<8> point, in bit<8> kind, in bit<16> flow_id,
              in bit<32> receipt_digest, in bit<32> ts, in bit<16> dnum) {
    meta.rps_point = point;
    meta.rps_kind = kind;
    meta.rps_flow = flow_id;
    meta.rps_digest = receipt_digest;
    meta.rps_ts = ts;
    meta.rps_dnum = dnum;
}

// The packet-in's rps_receipt_t from what rps_emit left in the CPU copy's metadata.
void rps_receipt(inout headers_t hdr, in local_metadata_t meta) {
    hdr.rps_receipt.setValid();
    hdr.rps_receipt.point = meta.rps_point;
    hdr.rps_receipt.kind = meta.rps_kind;
    hdr.rps_receipt.flow_id = meta.rps_flow;
    hdr.rps_receipt.digest = meta.rps_digest;
    hdr.rps_receipt.ts = meta.rps_ts;
    hdr.rps_receipt.dnum = meta.rps_dnum;
    hdr.rps_receipt._pad = 0;
}

control RpsObserve(inout local_metadata_t meta, in bit<8> point, in bit<32> ts, out bit<32> outcome) {

    apply {
        outcome = RPS_EVENTS;
        meta.rps_kind = 0;
        bit<32> len = meta.rps_buffer_len;
        // The backend refuses these values; bmv2 cannot refuse an action's parameters.
        if ((bit<32>)meta.rps_flow_id >= RPS_FLOWS
            || (meta.rps_mode == RPS_MODE_DATA_PLANE && (len == 0 || len > RPS_BUFFER_SIZE))
            || (meta.rps_mode != RPS_MODE_DATA_PLANE && meta.rps_mode != RPS_MODE_HYBRID)) {
            outcome = RPS_EV_INVALID;
            return;
        }
        if (meta.rps_mode == RPS_MODE_HYBRID) {
            rps_emit(meta, point, RPS_KIND_RECEIPT, meta.rps_flow_id, meta.rps_pkt_digest, ts, 0);
            outcome = RPS_EV_EXPORTED;
            return;
        }
        bit<32> flow_cell = (bit<32>)point * RPS_FLOWS + (bit<32>)meta.rps_flow_id;
        bit<16> next_dnum;
        rps_next_dnum.read(next_dnum, flow_cell);
        if (meta.rps_pkt_digest < meta.rps_disc_threshold) {
            // Direct disclosure: remembered in the tracker, the buffer is not touched.
            bit<32> t = flow_cell * (bit<32>)RPS_TRACK_DEPTH + (bit<32>)(next_dnum & (bit<16>)(RPS_TRACK_DEPTH - 1));
            rps_track_dnum.write(t, next_dnum);
            rps_track_digest.write(t, meta.rps_pkt_digest);
            rps_track_ts.write(t, ts);
            rps_track_valid.write(t, 1);
            rps_next_dnum.write(flow_cell, next_dnum + 1);
            rps_emit(meta, point, RPS_KIND_DIRECT, meta.rps_flow_id, meta.rps_pkt_digest, ts, next_dnum);
            outcome = RPS_EV_DIRECT;
            return;
        }
        // Swap with the oldest receipt, tagged with the disclosure that will judge it.
        bit<32> head;
        rps_head.read(head, (bit<32>)point);
        if (head >= len) {
            head = 0;   // buffer_len shrank: the slots past it are left behind
        }
        bit<32> slot = (bit<32>)point * RPS_BUFFER_SIZE + head;
        bit<16> r_flow;
        bit<32> r_digest;
        bit<32> r_ts;
        bit<16> r_dnum;
        bit<1> r_valid;
        rps_buf_flow.read(r_flow, slot);
        rps_buf_digest.read(r_digest, slot);
        rps_buf_ts.read(r_ts, slot);
        rps_buf_dnum.read(r_dnum, slot);
        rps_buf_valid.read(r_valid, slot);
        rps_buf_flow.write(slot, meta.rps_flow_id);
        rps_buf_digest.write(slot, meta.rps_pkt_digest);
        rps_buf_ts.write(slot, ts);
        rps_buf_dnum.write(slot, next_dnum);
        rps_buf_valid.write(slot, 1);
        if (head + 1 == len) {
            rps_head.write((bit<32>)point, 0);
        } else {
            rps_head.write((bit<32>)point, head + 1);
        }
        if (r_valid == 0) {
            return;
        }
        bit<32> r_flow_cell = (bit<32>)point * RPS_FLOWS + (bit<32>)r_flow;
        bit<32> r_t = r_flow_cell * (bit<32>)RPS_TRACK_DEPTH + (bit<32>)(r_dnum & (bit<16>)(RPS_TRACK_DEPTH - 1));
        bit<16> t_dnum;
        bit<32> t_digest;
        bit<32> t_ts;
        bit<1> t_valid;
        rps_track_dnum.read(t_dnum, r_t);
        rps_track_digest.read(t_digest, r_t);
        rps_track_ts.read(t_ts, r_t);
        rps_track_valid.read(t_valid, r_t);
        if (t_valid == 1 && t_dnum == r_dnum) {
            // Its disclosure happened: delayed disclosure if outside the quiet time and selected.
            bit<32> selection;
            hash(selection, HashAlgorithm.crc32, 32w0, { r_digest, t_digest }, 64w4294967296);
            if (t_ts - r_ts > meta.rps_quiet_us && selection < meta.rps_select_threshold) {
                rps_emit(meta, point, RPS_KIND_DELAYED, r_flow, r_digest, r_ts, r_dnum);
                outcome = RPS_EV_DELAYED;
            }
            return;
        }
        bit<16> r_next_dnum;
        rps_next_dnum.read(r_next_dnum, r_flow_cell);
        if (r_dnum != r_next_dnum) {
            outcome = RPS_EV_TRACK_OVERRUN;   // disclosed longer ago than the tracker remembers
            return;
        }
        // Evicted before its disclosure came: warn once per (point, flow, dnum).
        bit<17> warned;
        rps_late_warned.read(warned, r_flow_cell);
        if (warned == (RPS_LATE_WARNED_FLAG | (bit<17>)r_dnum)) {
            outcome = RPS_EV_LATE_REPEATED;
            return;
        }
        rps_late_warned.write(r_flow_cell, RPS_LATE_WARNED_FLAG | (bit<17>)r_dnum);
        rps_emit(meta, point, RPS_KIND_LATE, r_flow, r_digest, r_ts, r_dnum);
        outcome = RPS_EV_LATE;
    }
}

// IN: the config, the packet's flow and digest (also for a packet back from a backend, so that OUT
// knows them), and the observation of a packet that arrived from outside hupf.
control RpsIngress(inout headers_t hdr, inout local_metadata_t meta,
                   inout standard_metadata_t std_meta) {
    counter((bit<32>)RPS_POINTS * RPS_EVENTS, CounterType.packets) events;
    RpsObserve() observe;
    ipv4_addr_t ue_addr = 0;
    bit<1> direction = 0;

    action set_config(bit<8> mode, bit<32> quiet_us, bit<32> select_threshold, bit<32> buffer_len) {
        meta.rps_mode = mode;
        meta.rps_quiet_us = quiet_us;
        meta.rps_select_threshold = select_threshold;
        meta.rps_buffer_len = buffer_len;
    }

    table config {
        actions = { set_config; }
        default_action = set_config(RPS_MODE_OFF, 0, 0, RPS_BUFFER_SIZE);
    }

    action set_flow(bit<16> flow_id, bit<32> disc_threshold) {
        meta.rps_sampled = true;
        meta.rps_flow_id = flow_id;
        meta.rps_disc_threshold = disc_threshold;
    }

    action not_sampled() {
        meta.rps_sampled = false;
    }

    table flows {
        key = {
            ue_addr   : lpm   @name("ue_addr");
            direction : exact @name("direction");
        }
        actions = { set_flow; @defaultonly not_sampled; }
        const default_action = not_sampled();
        size = RPS_FLOWS_SIZE;
    }

    apply {
        // The flow: the UPF's UE and direction; back from a backend, those of the user packet it carries.
        bool from_backend = meta.skip_upf;
        if (meta.uplink || meta.downlink) {
            ue_addr = meta.flow.ue_addr;
            direction = meta.downlink ? 1w1 : 1w0;
        } else if (from_backend && hdr.gtpu.isValid() && hdr.inner_ipv4.isValid()) {
            ue_addr = hdr.inner_ipv4.dst_addr;   // downlink, encapsulated by the backend
            direction = 1;
        } else if (from_backend && !hdr.gtpu.isValid() && hdr.ipv4.isValid()) {
            ue_addr = hdr.ipv4.src_addr;         // uplink, decapsulated by the backend
            direction = 0;
        } else {
            return;
        }
        config.apply();
        if (meta.rps_mode == RPS_MODE_OFF) {
            return;
        }
        flows.apply();
        if (!meta.rps_sampled) {
            return;
        }
        // Digest of the user packet (the inner IPv4 while encapsulated) over what hupf does not change.
        ipv4_addr_t src;
        ipv4_addr_t dst;
        bit<16> id;
        bit<16> len;
        bit<8> proto;
        bit<64> l4 = 0;
        if (hdr.inner_ipv4.isValid()) {
            src = hdr.inner_ipv4.src_addr;
            dst = hdr.inner_ipv4.dst_addr;
            id = hdr.inner_ipv4.identification;
            len = hdr.inner_ipv4.total_len;
            proto = hdr.inner_ipv4.protocol;
            if (hdr.inner_udp.isValid()) {
                l4 = hdr.inner_udp.sport ++ hdr.inner_udp.dport ++ hdr.inner_udp.len ++ hdr.inner_udp.checksum;
            } else if (hdr.inner_tcp.isValid()) {
                l4 = hdr.inner_tcp.sport ++ hdr.inner_tcp.dport ++ hdr.inner_tcp.seq_no;
            } else if (hdr.inner_icmp.isValid()) {
                l4 = hdr.inner_icmp.icmp_type ++ hdr.inner_icmp.icmp_code ++ hdr.inner_icmp.checksum ++ 32w0;
            }
        } else {
            src = hdr.ipv4.src_addr;
            dst = hdr.ipv4.dst_addr;
            id = hdr.ipv4.identification;
            len = hdr.ipv4.total_len;
            proto = hdr.ipv4.protocol;
            if (hdr.udp.isValid()) {
                l4 = hdr.udp.sport ++ hdr.udp.dport ++ hdr.udp.len ++ hdr.udp.checksum;
            } else if (hdr.tcp.isValid()) {
                l4 = hdr.tcp.sport ++ hdr.tcp.dport ++ hdr.tcp.seq_no;
            } else if (hdr.icmp.isValid()) {
                l4 = hdr.icmp.icmp_type ++ hdr.icmp.icmp_code ++ hdr.icmp.checksum ++ 32w0;
            }
        }
        hash(meta.rps_pkt_digest, HashAlgorithm.crc32, 32w0, { src, dst, id, len, proto, l4 }, 64w4294967296);
        // Back from a backend: it was observed when it arrived; a packet for the controller
        // (downlink buffering) is the controller's, not a packet through hupf.
        if (from_backend || meta.to_cpu) {
            return;
        }
        bit<32> outcome;
        observe.apply(meta, RPS_POINT_IN, (bit<32>)std_meta.ingress_global_timestamp, outcome);
        bit<32> base = (bit<32>)RPS_POINT_IN * RPS_EVENTS;
        if (outcome != RPS_EV_INVALID) {
            events.count(base + RPS_EV_OBSERVED);
        }
        if (outcome != RPS_EVENTS) {
            events.count(base + outcome);
        }
        if (meta.rps_kind == 0) {
            return;
        }
        if (meta.cpu_reason == PKTIN_HH_REPORT) {
            // This packet's HH report is cloned already: the receipt rides it.
            meta.hh_flags = meta.hh_flags | HH_FLAG_RPS;
        } else {
            // One copy per packet: the receipt replaces an ACL copy.
            meta.cpu_reason = PKTIN_RPS;
            clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_CPU_CLONE);
        }
    }
}

// OUT: a packet of a sampled flow that leaves hupf (the caller applies it only then).
control RpsEgress(inout headers_t hdr, inout local_metadata_t meta,
                  inout standard_metadata_t std_meta) {
    counter((bit<32>)RPS_POINTS * RPS_EVENTS, CounterType.packets) events;
    RpsObserve() observe;

    apply {
        bit<32> outcome;
        observe.apply(meta, RPS_POINT_OUT, (bit<32>)std_meta.egress_global_timestamp, outcome);
        bit<32> base = (bit<32>)RPS_POINT_OUT * RPS_EVENTS;
        if (outcome != RPS_EV_INVALID) {
            events.count(base + RPS_EV_OBSERVED);
        }
        if (outcome != RPS_EVENTS) {
            events.count(base + outcome);
        }
        if (meta.rps_kind != 0) {
            meta.cpu_reason = PKTIN_RPS;
            clone_preserving_field_list(CloneType.E2E, CPU_CLONE_SESSION_ID, FL_CPU_CLONE);
        }
    }
}

#endif
