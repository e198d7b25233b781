// Table, counter, meter and register sizes of the hw profile (switch SRAM/TCAM scale).
#ifndef HUPF_SIZE_P4
#define HUPF_SIZE_P4

#define UPF_INTERFACES_SIZE        64
#define UPF_UPLINK_SESSIONS_SIZE   4096
#define UPF_DOWNLINK_SESSIONS_SIZE 4096
#define UPF_APPLICATIONS_SIZE      1024
#define UPF_TERMINATIONS_SIZE      8192
#define UPF_TUNNEL_PEERS_SIZE      256
#define UPF_COUNTER_SIZE           8192
#define UPF_SESSION_METER_SIZE     4096
#define UPF_APP_METER_SIZE         1024
#define ROUTES_V4_SIZE             1024
#define ACL_SIZE                   256
#define QOS_QUEUES_SIZE            4
#define TENANTS_SIZE               256
#define TENANT_CELLS               256   /* tenant_counter, tenant_meter: one per tenant_id */
#define SLICES_SIZE                1024
#define SLICE_CELLS                16384 /* slice_counter, slice_meter: one per (tenant_id, QFI) */
#define BACKEND_PORTS_SIZE         16
#define BACKEND_CLASSES_SIZE       64    /* one per DSCP */
#define BACKENDS_SIZE              16
#define BACKEND_SELECTOR_SIZE      256
#define HH_SLOTS                   4096
#define HH_TAU_TABLE_SIZE          256
#define CLS_SLOTS                  4096
#define CLS_FEATURE_TABLE_SIZE     64
#define CLS_DECISION_SIZE          1024
#define CLS_CLASSES                16
#define RPS_FLOWS_SIZE             256   /* rps.flows entries */
#define RPS_FLOWS                  256   /* flow ids 0..RPS_FLOWS-1: per-flow state cells per point */
#define RPS_BUFFER_SIZE            4096  /* receipts per observation point */
/* Direct disclosures remembered per (point, flow), a power of two: a buffered receipt whose flow had more
 * disclosures while it waited is a tracker overrun (docs/RPS.md). */
#define RPS_TRACK_DEPTH            64

#endif
