// IPv4 routing on the address the UPF chose (inner dst uplink, tunnel dst downlink).
#ifndef HUPF_ROUTING_P4
#define HUPF_ROUTING_P4

#include "headers.p4"

control Routing(inout headers_t hdr, inout local_metadata_t meta,
                inout standard_metadata_t std_meta) {
    action route(mac_addr_t src_mac, mac_addr_t dst_mac, port_t port) {
        std_meta.egress_spec = port;
        hdr.ethernet.src_addr = src_mac;
        hdr.ethernet.dst_addr = dst_mac;
    }

    action drop() {
        meta.drop_reason = DROP_ROUTING_MISS;
    }

    table routes_v4 {
        key = {
            meta.routing_ipv4_dst : lpm @name("ipv4_dst");
        }
        actions = { route; @defaultonly drop; }
        const default_action = drop();
        size = ROUTES_V4_SIZE;
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            meta.drop_reason = DROP_ROUTING_MISS;
            return;
        }
#ifdef HUPF_TNA
        // Tofino applies a table only alone in a condition; the TTL step nested under the hit runs in the
        // stage after the lookup (a flag set on the hit and tested after would take one more).
        if (routes_v4.apply().hit) {
            if (!meta.local_reply) {
                if (hdr.ipv4.ttl <= 1) {
                    meta.drop_reason = DROP_TTL_EXPIRED;
                } else {
                    hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
                }
            }
        }
#else
#line 33
        if (!routes_v4.apply().hit || meta.local_reply) {
            return;
        }
#line 36
        if (hdr.ipv4.ttl <= 1) {
            meta.drop_reason = DROP_TTL_EXPIRED;
        } else {
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
#endif
    }
}

#endif
