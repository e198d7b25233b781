// hupf sw profile for T4P4S (issue #36): the v1model sw profile from the same includes, less the two v1model
// externs T4P4S's DPDK target does not implement (its build fails to link them), and with egress_port set at the
// end of the ingress (T4P4S sends on egress_port and never copies egress_spec into it). docs/PIPELINE_CONTRACT.md,
// "T4P4S", lists the differences.
#include <core.p4>
#include <v1model.p4>

// The ACL's copy to the CPU (an I2E clone) is not made: the packet goes on as without the copy.
#define clone_preserving_field_list(type, session, field_list)
// Only an HH report's packet-in is truncated, and the sw profile sends none.
#define truncate(length)
#define HUPF_EGRESS_PORT_FROM_INGRESS

#include "../include/size_sw.p4"
#include "../include/hupf_v1model.p4"
