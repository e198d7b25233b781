// Multi-tenant backhaul over VXLAN (issue #16 part 2, seed 002): a frame that arrived in
// VXLAN belongs to the tenant of its (VNI, local VTEP address); the tenant gives its id, the
// traffic class of all its packets (qos.queues maps it to a queue, as MATADOR's classes) and the
// DSCP its packets leave with. Per tenant id: a packets-and-bytes counter and a trTCM byte
// meter (RED drops, as the UPF meters; an unconfigured cell is green). A VXLAN frame of no
// tenant is dropped and counted (DROP_UNKNOWN_VNI); TenantEgress re-encapsulates downlink GTP-U in
// VXLAN towards a tenant's tunnel peer; TenantSlice gives a tenant's (QFI) slices their own class, DSCP,
// counter and meter. v1model only (hw and sw profiles; the backend implements it
// from the P4Info); see docs/PIPELINE_CONTRACT.md.
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
        // An uplink G-PDU's QFI is its PDU Session Container's (read here: decapsulation drops it).
        if (hdr.gtpu_ext_psc.isValid()) {
            meta.slice_qfi_valid = true;
            meta.slice_qfi = hdr.gtpu_ext_psc.qfi;
        }
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

// A tenant's slices: (tenant id, QFI) -> class and DSCP over the tenant's, with a packets-and-bytes
// counter and a trTCM byte meter in cell tenant_id * 64 + QFI (RED drops). The QFI is the PDU Session
// Container's of the tenant frame (uplink) or the one the downlink termination gives; a packet without
// one, or whose (tenant, QFI) has no entry, keeps the tenant's. Applied in ingress after routing (or
// steering), before the queue is chosen, to a tenant's packets that do not go to the CPU.
control TenantSlice(inout headers_t hdr, inout local_metadata_t meta,
                    inout standard_metadata_t std_meta) {
    @name(".HupfIngress.tenant.slice_counter")
    counter(SLICE_CELLS, CounterType.packets_and_bytes) slice_counter;
    @name(".HupfIngress.tenant.slice_meter")
    meter(SLICE_CELLS, MeterType.bytes) slice_meter;

    @name(".HupfIngress.tenant.set_slice")
    action set_slice(tc_t tc, bit<6> dscp) {
        meta.tenant_tc = tc;
        meta.tenant_dscp = dscp;
    }

    @name(".HupfIngress.tenant.slice_nop")
    action slice_nop() { }

    @name(".HupfIngress.tenant.slices")
    table slices {
        key = {
            meta.tenant_id : exact @name("tenant_id");
            meta.slice_qfi : exact @name("qfi");
        }
        actions = { set_slice; @defaultonly slice_nop; }
        const default_action = slice_nop();
        size = SLICES_SIZE;
    }

    apply {
        if (meta.downlink && meta.term_hit) {
            meta.slice_qfi_valid = true;
            meta.slice_qfi = meta.qfi;
        }
        if (meta.slice_qfi_valid && !meta.to_cpu) {
            if (slices.apply().hit) {
                bit<32> cell = (bit<32>)(meta.tenant_id ++ meta.slice_qfi);
                slice_counter.count(cell);
                bit<2> color;
                slice_meter.execute_meter(cell, color);
                if (color == METER_RED) {
                    meta.drop_reason = DROP_METER_RED;
                }
            }
        }
    }
}

// Downlink re-encapsulation: a tunnel peer (gNB) that sits in a tenant's VXLAN overlay gets its
// GTP-U packets inside VXLAN (VNI, from the local to the edge VTEP). The packet is routed by the
// peer's routing address (ig_tunnel_peers: the controller gives the edge VTEP's address there), so
// routing's MACs and port are the underlay's and become the outer Ethernet; the tenant frame gets
// the overlay MACs given here. Outer: TTL 64, DSCP copied from the GTP-U header (after a tenant's
// marking), UDP checksum 0, source port VXLAN_SPORT_BASE | TEID[13:0]. Applied in egress after
// the GTP-U encapsulation; a peer without an entry is sent as today.
control TenantEgress(inout headers_t hdr, inout local_metadata_t meta,
                     inout standard_metadata_t std_meta) {
    action vxlan_encap(vni_t vni, ipv4_addr_t vtep_src_addr, ipv4_addr_t vtep_dst_addr,
                       mac_addr_t inner_src_mac, mac_addr_t inner_dst_mac) {
        hdr.vx_ethernet = hdr.ethernet;
        hdr.vx_ethernet.ether_type = ETHERTYPE_IPV4;
        hdr.ethernet.src_addr = inner_src_mac;
        hdr.ethernet.dst_addr = inner_dst_mac;

        bit<16> l2_len = ETH_HDR_LEN;
        if (hdr.vlan_tag.isValid()) {
            l2_len = ETH_HDR_LEN + VLAN_HDR_LEN;
        }
        hdr.vx_ipv4.setValid();
        hdr.vx_ipv4.version = 4;
        hdr.vx_ipv4.ihl = 5;
        hdr.vx_ipv4.dscp = hdr.ipv4.dscp;
        hdr.vx_ipv4.ecn = 0;
        hdr.vx_ipv4.total_len = hdr.ipv4.total_len + l2_len + (IPV4_HDR_LEN + UDP_HDR_LEN + VXLAN_HDR_LEN);
        hdr.vx_ipv4.identification = 0;
        hdr.vx_ipv4.flags = 0;
        hdr.vx_ipv4.frag_offset = 0;
        hdr.vx_ipv4.ttl = DEFAULT_TTL;
        hdr.vx_ipv4.protocol = PROTO_UDP;
        hdr.vx_ipv4.src_addr = vtep_src_addr;
        hdr.vx_ipv4.dst_addr = vtep_dst_addr;

        hdr.vx_udp.setValid();
        hdr.vx_udp.sport = VXLAN_SPORT_BASE | (bit<16>)hdr.gtpu.teid[13:0];
        hdr.vx_udp.dport = VXLAN_UDP_PORT;
        hdr.vx_udp.len = hdr.ipv4.total_len + l2_len + (UDP_HDR_LEN + VXLAN_HDR_LEN);
        hdr.vx_udp.checksum = 0;

        hdr.vx_vxlan.setValid();
        hdr.vx_vxlan.flags = VXLAN_FLAG_I;
        hdr.vx_vxlan._rsvd0 = 0;
        hdr.vx_vxlan.vni = vni;
        hdr.vx_vxlan._rsvd1 = 0;
    }

    action nop() { }

    table peer_vxlan {
        key = {
            meta.tun_peer_id : exact @name("tun_peer_id");
        }
        actions = { vxlan_encap; @defaultonly nop; }
        const default_action = nop();
        size = UPF_TUNNEL_PEERS_SIZE;
    }

    apply {
        if (meta.needs_encap && hdr.gtpu.isValid()) {
            peer_vxlan.apply();
        }
    }
}

#endif
