// The TNA (Tofino) hw profile: the shared UPF, ACL, routing and steering controls of include/ with
// Tofino's HK-IPG and MATADOR (include/tna/) and QoS's table here, wired as include/hupf_v1model.p4 wires
// the v1model ones. Included by p4src/tna/hupf_hw.p4 after its size header.
// Tofino 1 has no long branches: one next-table chain runs through the stages, so a conditional block
// that spans stages runs alone and its siblings wait for it. The ingress is therefore a sequence of steps
// that each fit in one stage (the UPF's in include/upf.p4, HK-IPG's and MATADOR's in include/tna/), each
// testing flags the earlier ones set, and the steps of the three share stages (docs/TOFINO.md).
// Not here, because Tofino does not need it: the state-read packet (the Tofino control plane
// reads registers directly).
#ifndef HUPF_TNA_P4
#define HUPF_TNA_P4

#include "tna/arch.p4"
#include "tna/parser.p4"
#include "upf.p4"
#include "routing.p4"
#include "acl.p4"
#include "steering.p4"
#include "tna/hh.p4"
#include "tna/classifier.p4"

control HupfIngress(inout tna_headers_t hdr, inout tna_ingress_metadata_t ig_md,
                    in ingress_intrinsic_metadata_t ig_intr_md,
                    in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                    inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                    inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    @name(".HupfIngress.upf.drop_reasons")
    Counter<bit<64>, bit<32>>(DROP_REASONS_SIZE, CounterType_t.PACKETS) drop_reasons;

    // What GTP-U's length must be for the UDP length (TS 29.281 §5.1), computed before it is compared:
    // a gateway compares two fields, not a field and an expression.
    bit<16> gtpu_len;

    action set_gtpu_len() {
        gtpu_len = hdr.u.udp.len - (UDP_HDR_LEN + GTPU_HDR_LEN);
    }

    @hidden
    table gtpu_expected_len {
        actions = { set_gtpu_len; }
        const default_action = set_gtpu_len();
        size = 1;
    }

    // Timestamp bits 41:10 (1.024 us units) through the hash unit's identity: a shift of the 48-bit
    // timestamp in an action puts alignment constraints on its containers that PHV allocation cannot meet.
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) ts_hash;

    Acl() acl;
    UpfIngress() upf;
    Routing() routing;
    Steering() steering;
    HeavyHitterPrep() hh_prep;
    HeavyHitter() hh;
    ClassifierPrep() cls_prep;
    Classifier() classifier;
    ClassifierTc() classifier_tc;

    // The UPF's interface lookup (include/upf.p4 declares it for v1model), with its P4Info names.
    @name(".HupfIngress.upf.iface_access")
    action iface_access(slice_id_t slice_id) {
        ig_md.u.iface = IFACE_ACCESS;
        ig_md.u.slice_id = slice_id;
    }

    @name(".HupfIngress.upf.iface_core")
    action iface_core(slice_id_t slice_id) {
        ig_md.u.iface = IFACE_CORE;
        ig_md.u.slice_id = slice_id;
    }

    @name(".HupfIngress.upf.iface_miss")
    action iface_miss() {
        ig_md.u.iface = IFACE_NONE;
    }

    @name(".HupfIngress.upf.interfaces")
    table interfaces {
        key = {
            hdr.u.ipv4.dst_addr  : lpm   @name("ipv4_dst_addr");
            hdr.u.gtpu.isValid() : exact @name("gtpu_is_valid");
        }
        actions = { iface_access; iface_core; @defaultonly iface_miss; }
        const default_action = iface_miss();
        size = UPF_INTERFACES_SIZE;
    }

    // QoS (include/qos.p4 for v1model) with its P4Info names: the queue goes to the traffic manager from
    // the table's action, not through a copy one stage later.
    @name(".HupfIngress.qos.set_queue")
    action set_queue(bit<3> qid) {
        ig_tm_md.qid = (QueueId_t)qid;
    }

    @name(".HupfIngress.qos.queues")
    table queues {
        key = {
            ig_md.u.tc : exact @name("tc");
        }
        actions = { set_queue; }
        const default_action = set_queue(0);
        size = QOS_QUEUES_SIZE;
    }

    @name(".HupfIngress.steering.from_backend")
    action from_backend() {
        ig_md.u.skip_upf = true;
    }

    @name(".HupfIngress.steering.nop")
    action steering_nop() { }

    @name(".HupfIngress.steering.backend_ports")
    table backend_ports {
        key = {
            ig_intr_md.ingress_port : exact @name("ig_port");
        }
        actions = { from_backend; @defaultonly steering_nop; }
        const default_action = steering_nop();
        size = BACKEND_PORTS_SIZE;
    }

    apply {
        standard_metadata_t std_meta;
        std_meta.ingress_port = ig_intr_md.ingress_port;
        std_meta.egress_spec = 0;
        std_meta.priority = 0;
        std_meta.drop = false;
        std_meta.clone_session = 0;

        hdr.bridged.setValid();
        hdr.bridged.pkt_kind = PKT_KIND_BRIDGED;
        if (hdr.u.packet_out.isValid()) {
            ig_tm_md.ucast_egress_port = hdr.u.packet_out.egress_port;
            hdr.u.packet_out.setInvalid();
            hdr.bridged.is_packet_out = 1;
            exit;
        }
        ig_md.u.cpu_ingress_port = ig_intr_md.ingress_port;
        ig_md.u.routing_ipv4_dst = hdr.u.ipv4.dst_addr;
        bit<32> ts = ts_hash.get({ ig_prsr_md.global_tstamp[41:10] });
        // The flow's fields as the UPF finds them (include/upf.p4 reads them where v1model sets them), and
        // the interface its direction needs, read from the headers for every packet: HK-IPG and MATADOR prepare
        // their slots while the lookups below run. IFACE_NONE + 3 matches no interface.
        bit<2> user_iface = 3;
        bit<1> up = 0;
        if (hdr.u.gtpu.isValid()) {
            if (hdr.u.gtpu.msgtype == GTPU_GPDU && hdr.u.inner_ipv4.isValid()) {
                user_iface = IFACE_ACCESS;
            }
            up = 1;
            ig_md.u.flow.ue_addr = hdr.u.inner_ipv4.src_addr;
            ig_md.u.flow.app_addr = hdr.u.inner_ipv4.dst_addr;
            ig_md.u.flow.proto = hdr.u.inner_ipv4.protocol;
            ig_md.u.flow.ip_len = hdr.u.inner_ipv4.total_len;
            if (hdr.u.inner_udp.isValid()) {
                ig_md.u.flow.ue_port = hdr.u.inner_udp.sport;
                ig_md.u.flow.app_port = hdr.u.inner_udp.dport;
            } else if (hdr.u.inner_tcp.isValid()) {
                ig_md.u.flow.ue_port = hdr.u.inner_tcp.sport;
                ig_md.u.flow.app_port = hdr.u.inner_tcp.dport;
            }
        } else {
            user_iface = IFACE_CORE;
            ig_md.u.flow.ue_addr = hdr.u.ipv4.dst_addr;
            ig_md.u.flow.app_addr = hdr.u.ipv4.src_addr;
            ig_md.u.flow.proto = hdr.u.ipv4.protocol;
            ig_md.u.flow.ip_len = hdr.u.ipv4.total_len;
            if (hdr.u.udp.isValid()) {
                ig_md.u.flow.ue_port = hdr.u.udp.dport;
                ig_md.u.flow.app_port = hdr.u.udp.sport;
            } else if (hdr.u.tcp.isValid()) {
                ig_md.u.flow.ue_port = hdr.u.tcp.dport;
                ig_md.u.flow.app_port = hdr.u.tcp.sport;
            }
        }
        hh_prep_t hh_p;
        cls_prep_t cls_p;
        bit<8> hh_slow;
        bit<8> hh_newly;
        // The lookups that read only the headers run for every packet, in the first stage, and the checks
        // that v1model makes before them decide one stage later what counts (a table in a branch would wait for
        // its condition's stage). A malformed or unparsed packet is dropped, so of the ACL's actions only its
        // copy would show: it is cleared; the backend port's and the interface's results are read only by what
        // meta.go and meta.user gate.
        gtpu_expected_len.apply();
        backend_ports.apply();
        acl.apply(hdr.u, ig_md.u, std_meta);
        // The UPF's interface lookup (UpfIngress skips it on Tofino).
        interfaces.apply();
        hh_prep.apply(ig_md.u.flow, ts, hh_p);
        cls_prep.apply(ig_md.u.flow, up, ts, cls_p);
        // The parser's checks and the length check it cannot do (TS 29.281 §5.1), as v1model orders them.
        if (ig_md.gtpu_malformed || (hdr.u.gtpu.isValid() && hdr.u.gtpu.msglen != gtpu_len)) {
            ig_md.u.drop_reason = DROP_MALFORMED_GTPU;
            std_meta.clone_session = 0;
        } else if (ig_prsr_md.parser_err != 0) {
            ig_md.u.drop_reason = DROP_PARSER_ERROR;
            std_meta.clone_session = 0;
        } else if (ig_md.u.drop_reason[7:0] == 0 && !ig_md.u.to_cpu && !ig_md.u.skip_upf && hdr.u.ipv4.isValid()) {
            // Where v1model calls upf.apply(); user: the UPF sets uplink or downlink (iface == user_iface).
            ig_md.u.go = true;
            if (ig_md.u.iface == user_iface) {
                ig_md.u.user = true;
            }
        }
        // HK-IPG and MATADOR see the packets the UPF finds to be uplink or downlink user traffic (meta.user),
        // whatever the UPF's later tables decide (docs/TOFINO.md); their steps share the UPF's stages.
        hh.apply(ig_md.u, hh_p, ts, ig_md.hh_takeover, hh_slow, hh_newly);
        classifier.apply(ig_md.u, cls_p, up, ts, ig_md.hh_takeover);
        upf.apply(hdr.u, ig_md.u, std_meta);
        if (hh_newly == 1) {
            std_meta.clone_session = (MirrorId_t)CPU_CLONE_SESSION_ID;
            ig_md.u.cpu_reason = PKTIN_HH_REPORT;
            // A condition of its own: Tofino compiles a ?: into an action, which allows no such test.
            if (ig_md.u.to_backend) {
                ig_md.u.hh_flags = HH_FLAG_BACKEND;
            } else {
                ig_md.u.hh_flags = 0;
            }
        }
        if (ig_md.u.user && !ig_md.u.to_backend && !ig_md.u.to_cpu) {
            classifier_tc.apply(ig_md.u);
        }
        // A session miss (no drop or punt once it is found: the UPF stops there). Steering either sets
        // skip_routing (hit) or a drop reason (miss), so routing is its else branch: exclusive, side by side.
        if (ig_md.u.to_backend) {
            steering.apply(hdr.u, ig_md.u, std_meta);
        } else if (ig_md.u.drop_reason == 0 && !ig_md.u.to_cpu && !ig_md.u.skip_routing) {
            routing.apply(hdr.u, ig_md.u, std_meta);
        }
        // The queue of a dropped packet does not matter: QoS waits for the tc only, not for the last drop.
        queues.apply();

        // HK-IPG takes the slot on a second pass of this packet: the first is neither dropped, counted as a drop
        // nor mirrored (a step that runs for every packet, not an exit: an exit waits for every table before it).
        if (hh_slow == 1) {
            ig_dprsr_md.resubmit_type = RESUBMIT_TYPE_HH_TAKEOVER;
            ig_md.resubmit_kind = (bit<8>)RESUBMIT_TYPE_HH_TAKEOVER;
        } else {
            // The shared controls' v1model view, applied to Tofino.
            if (ig_md.u.drop_reason != 0) {
                drop_reasons.count(ig_md.u.drop_reason);
                ig_dprsr_md.drop_ctl = 1;
            }
        }
        if (hh_slow != 1 && std_meta.clone_session != 0) {
            ig_dprsr_md.mirror_type = MIRROR_TYPE_CPU;
            ig_md.mirror_session = std_meta.clone_session;
            ig_md.mirror_kind = PKT_KIND_CPU_COPY;
        }
        if (std_meta.egress_spec == V1MODEL_CPU_PORT) {
            ig_tm_md.ucast_egress_port = TNA_CPU_PORT;
        } else {
            ig_tm_md.ucast_egress_port = std_meta.egress_spec;
        }
        hdr.bridged.cpu_ingress_port = ig_md.u.cpu_ingress_port;
        hdr.bridged.cpu_reason = ig_md.u.cpu_reason;
        hdr.bridged.needs_encap = (bit<1>)ig_md.u.needs_encap;
        hdr.bridged.term_hit = (bit<1>)ig_md.u.term_hit;
        hdr.bridged.tun_peer_id = ig_md.u.tun_peer_id;
        hdr.bridged.teid = ig_md.u.teid;
        hdr.bridged.qfi = ig_md.u.qfi;
        hdr.bridged.ctr_idx = ig_md.u.ctr_idx;
    }
}

control HupfEgress(inout tna_headers_t hdr, inout local_metadata_t meta,
                   in egress_intrinsic_metadata_t eg_intr_md,
                   in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                   inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                   inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    UpfEgress() upf;

    apply {
        // Bools from the bridged bits, each by a condition (Tofino assigns no comparison's result).
        meta.is_packet_out = false;
        meta.needs_encap = false;
        meta.term_hit = false;
        if (hdr.bridged.is_packet_out == 1) {
            meta.is_packet_out = true;
        }
        if (hdr.bridged.needs_encap == 1) {
            meta.needs_encap = true;
        }
        if (hdr.bridged.term_hit == 1) {
            meta.term_hit = true;
        }
        if (hdr.cpu_mirror.isValid()) {
            // A copy for the CPU (ACL copy or HH report); the mirror session truncates it.
            hdr.u.packet_in.setValid();
            hdr.u.packet_in.ingress_port = hdr.cpu_mirror.cpu_ingress_port;
            hdr.u.packet_in._pad0 = 0;
            hdr.u.packet_in.reason = hdr.cpu_mirror.cpu_reason;
            if (hdr.cpu_mirror.cpu_reason == PKTIN_HH_REPORT) {
                hdr.u.hh_report.setValid();
                hdr.u.hh_report.flow_key = hdr.cpu_mirror.hh_flow_key;
                hdr.u.hh_report.ipg_ewma = hdr.cpu_mirror.hh_ipg_ewma;
                hdr.u.hh_report.tau = hdr.cpu_mirror.hh_tau;
                hdr.u.hh_report.flags = hdr.cpu_mirror.hh_flags;
                hdr.u.hh_report._pad = 0;
            }
            exit;
        }
        if (meta.is_packet_out) {
            exit;
        }
        if (eg_intr_md.egress_port == TNA_CPU_PORT) {
            hdr.u.packet_in.setValid();
            hdr.u.packet_in.ingress_port = meta.cpu_ingress_port;
            hdr.u.packet_in._pad0 = 0;
            hdr.u.packet_in.reason = meta.cpu_reason;
            exit;
        }
        standard_metadata_t std_meta;
        std_meta.ingress_port = 0;
        std_meta.egress_spec = (port_t)eg_intr_md.egress_port;
        std_meta.priority = 0;
        std_meta.drop = false;
        std_meta.clone_session = 0;
        upf.apply(hdr.u, meta, std_meta);
        if (std_meta.drop) {
            eg_dprsr_md.drop_ctl = 1;
        }
    }
}

Pipeline(HupfIngressParser(), HupfIngress(), HupfIngressDeparser(),
         HupfEgressParser(), HupfEgress(), HupfEgressDeparser()) pipe;

Switch(pipe) main;

#endif
