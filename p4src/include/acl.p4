// ACL for control traffic, on the packet as received (before any UPF rewrite).
#ifndef HUPF_ACL_P4
#define HUPF_ACL_P4

#include "headers.p4"

control Acl(inout headers_t hdr, inout local_metadata_t meta,
            inout standard_metadata_t std_meta) {
    action punt_to_cpu() {
        std_meta.egress_spec = V1MODEL_CPU_PORT;
        meta.cpu_reason = PKTIN_ACL_PUNT;
        meta.to_cpu = true;
    }

    action copy_to_cpu() {
        meta.cpu_reason = PKTIN_ACL_COPY;
        clone_preserving_field_list(CloneType.I2E, CPU_CLONE_SESSION_ID, FL_CPU_CLONE);
    }

    action drop() {
        meta.drop_reason = DROP_ACL;
    }

    action nop_acl() { }

    table acl {
        key = {
            std_meta.ingress_port  : ternary @name("ig_port");
            hdr.ethernet.src_addr  : ternary @name("eth_src");
            hdr.ethernet.dst_addr  : ternary @name("eth_dst");
            hdr.ethernet.ether_type: ternary @name("eth_type");
            hdr.ipv4.src_addr      : ternary @name("ipv4_src");
            hdr.ipv4.dst_addr      : ternary @name("ipv4_dst");
            hdr.ipv4.protocol      : ternary @name("ip_proto");
            meta.l4_sport          : ternary @name("l4_sport");
            meta.l4_dport          : ternary @name("l4_dport");
        }
        actions = { punt_to_cpu; copy_to_cpu; drop; nop_acl; }
        const default_action = nop_acl();
        size = ACL_SIZE;
    }

    apply {
        acl.apply();
    }
}

#endif
