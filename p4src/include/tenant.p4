// Multi-tenant backhaul over VXLAN (issue #16 part 2, seed 002): a frame that arrived in
// VXLAN belongs to the tenant of its (VNI, local VTEP address); the tenant gives its id, the
// traffic class of all its packets (qos.queues maps it to a queue, as MATADOR's classes) and the
// DSCP its packets leave with. Per tenant id: a packets-and-bytes counter and a trTCM byte
// meter (RED drops, as the UPF meters; an unconfigured cell is green). A VXLAN frame of no
// tenant is dropped and counted (DROP_UNKNOWN_VNI). v1model only (hw and sw profiles; the
// backend implements it from the P4Info); see docs/PIPELINE_CONTRACT.md.
#ifndef HUPF_TENANT_P4
#define HUPF_TENANT_P4

#include "headers.p4"

control Tenant(inout headers_t hdr, inout local_metadata_t meta,
               inout standard_metadata_t std_meta) {
    counter(TENANT_CELLS, CounterType.packets_and_bytes) tenant_counter;
    meter(TENANT_CELLS, MeterType.bytes) tenant_meter;

    action set_tenant(tenant_id_t tenant_id, tc_t tc, bit<6> dscp) {
        meta.tenant_hit = true;
        meta.tenant_id = tenant_id;
        meta.tenant_tc = tc;
        meta.tenant_dscp = dscp;
    }

    action tenant_miss() {
        meta.drop_reason = DROP_UNKNOWN_VNI;
    }

    table tenants {
        key = {
            meta.vni      : exact @name("vni");
            meta.vtep_dst : exact @name("vtep_ipv4_dst");
        }
        actions = { set_tenant; @defaultonly tenant_miss; }
        const default_action = tenant_miss();
        size = TENANTS_SIZE;
    }

    apply {
        tenants.apply();
        if (meta.tenant_hit) {
            // Counted as received (the whole VXLAN frame), before the meter, as pre_qos_counter.
            tenant_counter.count((bit<32>)meta.tenant_id);
            bit<2> color;
            tenant_meter.execute_meter((bit<32>)meta.tenant_id, color);
            if (color == METER_RED) {
                meta.drop_reason = DROP_METER_RED;
            }
        }
    }
}

#endif
