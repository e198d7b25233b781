// Table, counter and meter sizes of the sw profile (the x86 backend: millions of
// sessions). Counters and session meters hold 1M sessions of two PDRs and a QER each (a cell per
// direction); the backend grows its counter cells with --sessions beyond that.
#ifndef HUPF_SIZE_P4
#define HUPF_SIZE_P4

#define UPF_INTERFACES_SIZE        64
#define UPF_UPLINK_SESSIONS_SIZE   2097152
#define UPF_DOWNLINK_SESSIONS_SIZE 2097152
#define UPF_APPLICATIONS_SIZE      4096
#define UPF_TERMINATIONS_SIZE      4194304
#define UPF_TUNNEL_PEERS_SIZE      1024
#define UPF_COUNTER_SIZE           2097152
#define UPF_SESSION_METER_SIZE     2097152
#define UPF_APP_METER_SIZE         4096
#define ROUTES_V4_SIZE             16384
#define ACL_SIZE                   1024
#define QOS_QUEUES_SIZE            4
#define TENANTS_SIZE               4096
#define TENANT_CELLS               256   /* tenant_counter, tenant_meter: one per tenant_id */
#define SLICES_SIZE                4096
#define SLICE_CELLS                16384 /* slice_counter, slice_meter: one per (tenant_id, QFI) */

#endif
