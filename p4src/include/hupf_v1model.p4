// The v1model ingress/egress of both profiles; HUPF_HW adds steering, HK-IPG,
// MATADOR and RPS. Included by p4src/v1model/hupf_{hw,sw}.p4 after their size header.
#ifndef HUPF_V1MODEL_P4
#define HUPF_V1MODEL_P4

#include "headers.p4"
#include "parser.p4"
#include "deparser.p4"
#include "upf.p4"
#include "routing.p4"
#include "acl.p4"
#include "qos.p4"
#include "tenant.p4"
#ifdef HUPF_HW
#include "steering.p4"
#include "hh.p4"
#include "classifier.p4"
#include "rps.p4"
#endif

control HupfIngress(inout headers_t hdr, inout local_metadata_t meta,
                    inout standard_metadata_t std_meta) {
    // Every drop in ingress is counted here, by reason (contract: drop_reasons).
    @name(".HupfIngress.upf.drop_reasons")
    counter(DROP_REASONS_SIZE, CounterType.packets) drop_reasons;

    Acl() acl;
    UpfIngress() upf;
    Routing() routing;
    Qos() qos;
    Tenant() tenant;
    TenantSlice() tenant_slice;
#ifdef HUPF_HW
    Steering() steering;
    HeavyHitter() hh;
    Classifier() classifier;
    RpsIngress() rps;

    @name(".HupfIngress.steering.from_backend")
    action from_backend() {
        meta.skip_upf = true;
    }

    @name(".HupfIngress.steering.nop")
    action steering_nop() { }

    // Packets coming back from a backend were processed there: route them only. A VXLAN frame among them
    // (a downlink G-PDU the backend re-encapsulated towards a gNB's edge VTEP) is no tenant's: routed by its
    // outer headers.
    @name(".HupfIngress.steering.backend_ports")
    table backend_ports {
        key = {
            std_meta.ingress_port : exact @name("ig_port");
        }
        actions = { from_backend; @defaultonly steering_nop; }
        const default_action = steering_nop();
        size = BACKEND_PORTS_SIZE;
    }

    // A packet back from a backend takes the class its user packet's DSCP stands for: steering sends a
    // tenant's (or slice's) class through the backend as that DSCP. The IPv4 header that leaves gets it too,
    // as on the switch's own path (a downlink G-PDU's outer header, which the backend built with DSCP 0).
    @name(".HupfIngress.steering.set_backend_class")
    action set_backend_class(tc_t tc) {
        meta.tenant_hit = true;
        meta.tenant_tc = tc;
        meta.tenant_dscp = meta.user_dscp;
    }

    @name(".HupfIngress.steering.backend_classes")
    table backend_classes {
        key = {
            meta.user_dscp : exact @name("dscp");
        }
        actions = { set_backend_class; @defaultonly steering_nop; }
        const default_action = steering_nop();
        size = BACKEND_CLASSES_SIZE;
    }
#endif

    apply {
        bool state_read = false;
#ifdef HUPF_HW
        state_read = hdr.packet_out.isValid() && hdr.packet_out.egress_port == STATE_READ_PORT
                     && hdr.state_read.isValid();
#endif
        if (hdr.packet_out.isValid() && !state_read) {
            std_meta.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            meta.is_packet_out = true;
            exit;
        }
        meta.cpu_ingress_port = std_meta.ingress_port;
        meta.routing_ipv4_dst = hdr.ipv4.dst_addr;
        if (state_read) {
            hdr.packet_out.setInvalid();
            std_meta.egress_spec = V1MODEL_CPU_PORT;
            meta.cpu_reason = PKTIN_STATE_READ;
        } else if (std_meta.parser_error != error.NoError) {
            // In a VXLAN frame hdr.udp is the tenant frame's: its GTP-U is judged as anywhere.
            if (hdr.udp.isValid() && hdr.udp.dport == GTPU_UDP_PORT) {
                meta.drop_reason = DROP_MALFORMED_GTPU;
            } else if (meta.vxlan) {
                meta.drop_reason = DROP_MALFORMED_VXLAN;
            } else {
                meta.drop_reason = DROP_PARSER_ERROR;
            }
        } else {
#ifdef HUPF_HW
            backend_ports.apply();
            meta.vx_transit = meta.vxlan && meta.skip_upf;
#endif
            // The tenant first: an unknown VNI is dropped before anything else looks at it. Its frame
            // leaves without the VXLAN encapsulation it arrived in.
            if (meta.vxlan && !meta.vx_transit) {
                hdr.vx_ethernet.setInvalid();
                hdr.vx_vlan_tag.setInvalid();
                hdr.vx_ipv4.setInvalid();
                hdr.vx_udp.setInvalid();
                hdr.vx_vxlan.setInvalid();
                tenant.apply(hdr, meta, std_meta);
            }
            if (meta.drop_reason == 0) {
#ifdef HUPF_HW
                // (hdr.ipv4: a backend's VXLAN frame's tenant frame, whose inner IPv4 is the user packet.)
                if (meta.skip_upf && hdr.ipv4.isValid()) {
                    if (hdr.inner_ipv4.isValid()) {
                        meta.user_dscp = hdr.inner_ipv4.dscp;
                    } else {
                        meta.user_dscp = hdr.ipv4.dscp;
                    }
                    backend_classes.apply();
                }
#endif
                acl.apply(hdr, meta, std_meta);
                if (meta.drop_reason == 0 && !meta.to_cpu && !meta.skip_upf) {
                    upf.apply(hdr, meta, std_meta);
                }
            }
        }
#ifdef HUPF_HW
        // A state read goes through HK-IPG and the classifier, which fill hdr.state_read.
        if (state_read || (meta.drop_reason == 0 && !meta.to_cpu && (meta.uplink || meta.downlink))) {
            hh.apply(hdr, meta, std_meta);
            if (meta.to_backend) {
                steering.apply(hdr, meta, std_meta);
            } else {
                classifier.apply(hdr, meta, std_meta);
            }
        }
#endif
        if (state_read) {
            exit;
        }
#ifdef HUPF_HW
        // After HK-IPG (a receipt rides the packet's HH report), before anything can drop it.
        rps.apply(hdr, meta, std_meta);
#endif
        if (meta.drop_reason == 0 && !meta.to_cpu && !meta.skip_routing) {
#ifdef HUPF_HW
            // Routing rewrites hdr.ethernet and hdr.ipv4: a backend's VXLAN frame has its outer headers
            // there for the lookup (TTL, MACs, port), and its tenant frame's back after it.
            ethernet_t eth = hdr.ethernet;
            ipv4_t ip = hdr.ipv4;
            // (A VXLAN frame past the parser has both; the tests tell p4c's header validity analysis so.)
            bool outer = meta.vx_transit && hdr.vx_ethernet.isValid() && hdr.vx_ipv4.isValid();
            if (outer) {
                hdr.ethernet = hdr.vx_ethernet;
                hdr.ipv4 = hdr.vx_ipv4;
                meta.routing_ipv4_dst = hdr.vx_ipv4.dst_addr;
            }
#endif
            routing.apply(hdr, meta, std_meta);
#ifdef HUPF_HW
            if (outer) {
                hdr.vx_ethernet = hdr.ethernet;
                hdr.vx_ipv4 = hdr.ipv4;
                hdr.ethernet = eth;
                hdr.ipv4 = ip;
            }
#endif
        }
        if (meta.drop_reason == 0) {
            // A tenant's class (its slice's where one matches) is that of all its packets (over the
            // termination's and MATADOR's).
            if (meta.tenant_hit) {
                tenant_slice.apply(hdr, meta, std_meta);
                meta.tc = meta.tenant_tc;
            }
        }
        if (meta.drop_reason == 0) {
            qos.apply(hdr, meta, std_meta);
        }
        if (meta.drop_reason != 0) {
            drop_reasons.count(meta.drop_reason);
            mark_to_drop(std_meta);
        }
#ifdef HUPF_EGRESS_PORT_FROM_INGRESS
        // A target with no traffic manager between the controls (T4P4S) sends the packet on egress_port as the
        // ingress leaves it; its mark_to_drop writes egress_port alone, so a dropped packet keeps it.
        if (meta.drop_reason == 0) {
            std_meta.egress_port = std_meta.egress_spec;
        }
#endif
#line 198
    }
}

control HupfEgress(inout headers_t hdr, inout local_metadata_t meta,
                   inout standard_metadata_t std_meta) {
    UpfEgress() upf;
    TenantEgress() tenant;
#ifdef HUPF_HW
    RpsEgress() rps;
#endif

    apply {
        if (meta.is_packet_out) {
            exit;
        }
        if (std_meta.egress_port == V1MODEL_CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = meta.cpu_ingress_port;
            hdr.packet_in._pad0 = 0;
            hdr.packet_in.reason = meta.cpu_reason;
            // A VXLAN frame's packet-in carries its tenant frame (a CPU clone is parsed anew, outer headers
            // and all).
            hdr.vx_ethernet.setInvalid();
            hdr.vx_vlan_tag.setInvalid();
            hdr.vx_ipv4.setInvalid();
            hdr.vx_udp.setInvalid();
            hdr.vx_vxlan.setInvalid();
            if (meta.cpu_reason == PKTIN_HH_REPORT) {
                hdr.hh_report.setValid();
                hdr.hh_report.flow_key = meta.hh_flow_key;
                hdr.hh_report.ipg_ewma = meta.hh_ipg_ewma;
                hdr.hh_report.tau = meta.hh_tau;
                hdr.hh_report.flags = meta.hh_flags;
                hdr.hh_report._pad = 0;
#ifdef HUPF_HW
                if (meta.hh_flags & HH_FLAG_RPS != 0) {
                    rps_receipt(hdr, meta);
                    truncate(RPS_HH_REPORT_TRUNC_LEN);
                } else {
                    truncate(HH_REPORT_TRUNC_LEN);
                }
#else
                truncate(HH_REPORT_TRUNC_LEN);
#endif
            }
#ifdef HUPF_HW
            if (meta.cpu_reason == PKTIN_RPS) {
                rps_receipt(hdr, meta);
                truncate(RPS_RECEIPT_TRUNC_LEN);
            }
#endif
            exit;
        }
        upf.apply(hdr, meta, std_meta);
        // A tenant's packets leave with its DSCP (on the GTP-U header built above, downlink).
        if (meta.tenant_hit && hdr.ipv4.isValid()) {
            hdr.ipv4.dscp = meta.tenant_dscp;
        }
        // A backend's VXLAN frame in a class: its outer header too, as TenantEgress copies the G-PDU's DSCP to
        // the VXLAN it builds; the outer UDP checksum, which covered the tenant frame as it was, becomes 0
        // (RFC 7348's "SHOULD be zero", valid over IPv4).
        if (meta.tenant_hit && meta.vx_transit) {
            hdr.vx_ipv4.dscp = meta.tenant_dscp;
            hdr.vx_udp.checksum = 0;
        }
        // Steered to a backend, an uplink G-PDU's user packet carries the marking too: the backend strips the
        // header above it, and the class comes back as this DSCP (backend_classes).
        if (meta.tenant_hit && meta.to_backend && hdr.inner_ipv4.isValid()) {
            hdr.inner_ipv4.dscp = meta.tenant_dscp;
        }
        tenant.apply(hdr, meta, std_meta);
#ifdef HUPF_HW
        // OUT: the packet leaves hupf (not towards a backend, not dropped here).
        if (meta.rps_sampled && !meta.to_backend && std_meta.egress_spec != V1MODEL_DROP_PORT) {
            rps.apply(hdr, meta, std_meta);
        }
#endif
    }
}

V1Switch(HupfParser(), HupfVerifyChecksum(), HupfIngress(), HupfEgress(),
         HupfComputeChecksum(), HupfDeparser()) main;

#endif
