// v1model deparser and checksum controls.
#ifndef HUPF_DEPARSER_P4
#define HUPF_DEPARSER_P4

#include "headers.p4"

control HupfDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.hh_report);
        packet.emit(hdr.rps_receipt);
        packet.emit(hdr.vx_ethernet);
        packet.emit(hdr.vx_vlan_tag);
        packet.emit(hdr.vx_ipv4);
        packet.emit(hdr.vx_udp);
        packet.emit(hdr.vx_vxlan);
        packet.emit(hdr.ethernet);
        packet.emit(hdr.state_read);
        packet.emit(hdr.vlan_tag);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.tcp);
        packet.emit(hdr.icmp);
        packet.emit(hdr.gtpu);
        packet.emit(hdr.gtpu_options);
        packet.emit(hdr.gtpu_ext_psc);
        packet.emit(hdr.gtpu_recovery);
        packet.emit(hdr.inner_ipv4);
        packet.emit(hdr.inner_udp);
        packet.emit(hdr.inner_tcp);
        packet.emit(hdr.inner_icmp);
    }
}

// Received checksums are not verified: the UPF forwards, it does not terminate.
control HupfVerifyChecksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply { }
}

// Only IPv4 header checksums change here; UDP checksums of encapsulated or
// answered packets are set to 0 where they are built (allowed for UDP over IPv4).
control HupfComputeChecksum(inout headers_t hdr, inout local_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum(hdr.inner_ipv4.isValid(),
            { hdr.inner_ipv4.version, hdr.inner_ipv4.ihl, hdr.inner_ipv4.dscp, hdr.inner_ipv4.ecn,
              hdr.inner_ipv4.total_len, hdr.inner_ipv4.identification, hdr.inner_ipv4.flags,
              hdr.inner_ipv4.frag_offset, hdr.inner_ipv4.ttl, hdr.inner_ipv4.protocol,
              hdr.inner_ipv4.src_addr, hdr.inner_ipv4.dst_addr },
            hdr.inner_ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum(hdr.vx_ipv4.isValid(),
            { hdr.vx_ipv4.version, hdr.vx_ipv4.ihl, hdr.vx_ipv4.dscp, hdr.vx_ipv4.ecn,
              hdr.vx_ipv4.total_len, hdr.vx_ipv4.identification, hdr.vx_ipv4.flags,
              hdr.vx_ipv4.frag_offset, hdr.vx_ipv4.ttl, hdr.vx_ipv4.protocol,
              hdr.vx_ipv4.src_addr, hdr.vx_ipv4.dst_addr },
            hdr.vx_ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

#endif
