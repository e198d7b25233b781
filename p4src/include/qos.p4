// Traffic class -> egress queue (v1model priority; honoured by bmv2 builds with
// priority queues, see /opt/p4/BUILD_NOTES.md where this pipeline was tested).
#ifndef HUPF_QOS_P4
#define HUPF_QOS_P4

#include "headers.p4"

control Qos(inout headers_t hdr, inout local_metadata_t meta,
            inout standard_metadata_t std_meta) {
    action set_queue(bit<3> qid) {
        std_meta.priority = qid;
    }

    table queues {
        key = {
            meta.tc : exact @name("tc");
        }
        actions = { set_queue; }
        const default_action = set_queue(0);
        size = QOS_QUEUES_SIZE;
    }

    apply {
        queues.apply();
    }
}

#endif
