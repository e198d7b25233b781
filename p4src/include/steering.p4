// hw only: sessions without hw entries go to a software backend chosen by a hash of
// the UE address, so a UE always reaches the same backend while the group is stable.
#ifndef HUPF_STEERING_P4
#define HUPF_STEERING_P4

#include "headers.p4"

control Steering(inout headers_t hdr, inout local_metadata_t meta,
                 inout standard_metadata_t std_meta) {
#ifdef HUPF_TNA
    Hash<bit<16>>(HashAlgorithm_t.CRC16) backend_hash;
    // The P4Info names a TNA selector by its action profile: the profile takes the v1model selector's name.
    @name("backend_selector") ActionProfile(BACKEND_SELECTOR_SIZE) backend_profile;
    @name("backend_selection")
    ActionSelector(backend_profile, backend_hash, SelectorMode_t.FAIR, 16, BACKENDS_SIZE) backend_selector;
#else
#line 10
    action_selector(HashAlgorithm.crc16, BACKEND_SELECTOR_SIZE, 16) backend_selector;
#endif
    // The packet is forwarded unmodified: the backend does the whole UPF.
    action steer_to_backend(port_t port, mac_addr_t dst_mac) {
        std_meta.egress_spec = port;
        hdr.ethernet.dst_addr = dst_mac;
        meta.skip_routing = true;
    }

    table backends {
        key = {
            meta.slice_id     : exact    @name("slice_id");
            meta.flow.ue_addr : selector @name("ue_addr");
        }
        actions = { steer_to_backend; }
        implementation = backend_selector;
        size = BACKENDS_SIZE;
    }

    // bmv2 cannot give an action-profile table a default action: a miss is checked here.
    apply {
        if (!backends.apply().hit) {
            meta.drop_reason = DROP_NO_BACKEND;
        }
    }
}

#endif
