/* The hupf backend data plane: the interface the P4Runtime agent (cgo), the
 * tests and the benchmark use. Table semantics follow the sw profile of
 * docs/PIPELINE_CONTRACT.md. All writes come from one control thread; the
 * forwarding lcores only read (lock-free), and writes become safe to reclaim
 * at dp_commit(), which waits for an RCU grace period. */
#ifndef HUPF_DP_H
#define HUPF_DP_H

#include <stdint.h>
/* Drop reasons (indices of HupfIngress.upf.drop_reasons) and packet_in reasons, generated from
 * p4src/include/define.p4. */
#include "hupf_p4const.h"

enum dp_op { DP_INSERT = 1, DP_MODIFY = 2, DP_DELETE = 3 };

enum { DROP_NONE = 0 }; /* not dropped: no drop reason has index 0 */

enum dp_iface { IFACE_NONE = 0, IFACE_ACCESS = 1, IFACE_CORE = 2 };
enum dp_sess_action { SESS_FWD = 1, SESS_DROP = 2, SESS_BUF = 3 };
enum dp_term_action { TERM_FWD = 1, TERM_DROP = 2 };
enum dp_acl_action { ACL_NOP = 0, ACL_PUNT = 1, ACL_COPY = 2, ACL_DROP = 3 };

struct dp_sizes {
	uint32_t interfaces, ul_sessions, dl_sessions, applications;
	uint32_t ul_terms, dl_terms, routes, acl;
	uint32_t pre_qos_ctr, post_qos_ctr, session_meter, app_meter;
	uint32_t meter_states;  /* meters configured at once (state is allocated on config) */
	uint32_t hh_slots;      /* hw: HK-IPG registers' size */
	uint32_t cls_slots;     /* hw: MATADOR registers' size */
	uint32_t tenants;       /* HupfIngress.tenant.tenants' size */
	uint32_t tenant_cells;  /* tenant_counter's and tenant_meter's cells (indexed by tenant id) */
	uint32_t slices;        /* HupfIngress.tenant.slices' size */
	uint32_t slice_cells;   /* slice_counter's and slice_meter's cells (indexed by tenant id * 64 + QFI) */
	uint32_t rps_buffer;    /* hw: RPS receipts buffered per observation point (0, or rps_flows 0: no RPS) */
	uint32_t rps_flows;     /* hw: RPS flow ids (set_flow's flow_id is below) */
	uint32_t rps_flow_entries; /* hw: HupfIngress.rps.flows' size */
	uint32_t rps_track_depth;  /* hw: direct disclosures remembered per (point, flow), a power of two */
	uint8_t hw;             /* 1: the hw profile (session misses go to backends), 0: sw */
};

struct dp_term {
	uint8_t action;   /* enum dp_term_action */
	uint8_t tc, qfi;
	uint32_t ctr_idx, teid, app_meter_idx;
};

/* One row of HupfIngress.upf.applications; rules are pushed whole, in match order. */
struct dp_app_rule {
	uint8_t slice_id;
	uint32_t addr, addr_mask;
	uint16_t port_lo, port_hi;
	uint8_t proto, proto_mask;
	uint8_t app_id;
};

/* One row of HupfIngress.acl.acl (value/mask per field), in match order. */
struct dp_acl_rule {
	uint16_t port, port_mask;
	uint8_t eth_src[6], eth_src_mask[6], eth_dst[6], eth_dst_mask[6];
	uint16_t eth_type, eth_type_mask;
	uint32_t ip_src, ip_src_mask, ip_dst, ip_dst_mask;
	uint8_t proto, proto_mask;
	uint16_t sport, sport_mask, dport, dport_mask;
	uint8_t action;   /* enum dp_acl_action */
};

struct dp_meter_cfg { uint64_t cir, cburst, pir, pburst; };  /* bytes/s, bytes */

enum dp_counter { CTR_PRE_QOS = 0, CTR_POST_QOS = 1, CTR_TENANT = 2, CTR_SLICE = 3 };
enum dp_meter { METER_SESSION = 0, METER_APP = 1, METER_TENANT = 2, METER_SLICE = 3 };

/* One entry of HupfIngress.tenant.tenants (p4src/include/tenant.p4): a VXLAN frame's
 * (VNI, outer IPv4 destination) -> set_tenant(tenant_id, tc, dscp). */
struct dp_tenant {
	uint32_t vni, vtep;   /* host order; vni 24 bits */
	uint8_t tenant_id, tc, dscp;
};

/* One entry of HupfIngress.tenant.slices: (tenant id, QFI) -> set_slice(tc, dscp); its counter and
 * meter cell is tenant_id * 64 + qfi. */
struct dp_slice {
	uint8_t tenant_id, qfi, tc, dscp;
};

/* Pipeline lifecycle: a new pipeline replaces the old one with empty tables. */
int dp_pipeline_set(const struct dp_sizes *sz);

/* Table writes: 0 or -EEXIST / -ENOENT / -ENOSPC / -EINVAL / -ENODEV (no pipeline). */
int dp_interface(int op, uint32_t prefix, uint8_t plen, uint8_t gtpu_valid, uint8_t iface, uint8_t slice);
int dp_ul_session(int op, uint32_t tun_dst, uint32_t teid, uint8_t action, uint32_t ue, uint32_t meter_idx);
int dp_dl_session(int op, uint32_t ue, uint8_t action, uint8_t peer, uint32_t meter_idx);
int dp_ul_term(int op, uint32_t ue, uint8_t app_id, const struct dp_term *t);
int dp_dl_term(int op, uint32_t ue, uint8_t app_id, const struct dp_term *t);
int dp_ig_peer(int op, uint8_t peer, uint32_t dst);
int dp_eg_peer(int op, uint8_t peer, uint32_t src, uint32_t dst, uint16_t sport);
int dp_route(int op, uint32_t prefix, uint8_t plen, const uint8_t src_mac[6], const uint8_t dst_mac[6], uint16_t port);
int dp_set_encap_psc(int with_psc);
/* HupfEgress.tenant.peer_vxlan: a tunnel peer in a tenant's overlay gets its GTP-U in VXLAN
 * (vxlan_encap); host order; -EINVAL for a VNI over 24 bits. */
struct dp_vx_peer {
	uint32_t vni, vtep_src, vtep_dst;
	uint8_t inner_src_mac[6], inner_dst_mac[6];
};
int dp_vx_peer(int op, uint8_t peer, const struct dp_vx_peer *v);
/* The tenants table: -EINVAL for a VNI over 24 bits or a DSCP over 6 bits. */
int dp_tenant(int op, const struct dp_tenant *t);
/* The slices table: -EINVAL for a QFI, class or DSCP out of range or a cell past slice_cells. */
int dp_slice(int op, const struct dp_slice *s);
/* HupfIngress.qos.queues: traffic class tc (0..3) -> v1model priority qid (0..7), the packet's
 * egress queue on a port with a rate (egress.h); a class without an entry gets 0. The agent's
 * table store checks existence; -EINVAL out of range. */
int dp_queue(int op, uint8_t tc, uint8_t qid);
/* hw profile only (-EINVAL otherwise). backend_ports: packets received on port were
 * processed by a backend and are only routed (HupfIngress.steering.backend_ports). */
int dp_backend_port(int op, uint16_t port);
/* hw profile only. backend_classes: a packet back from a backend whose user packet has DSCP dscp takes class
 * tc, and its leaving IPv4 header that DSCP (HupfIngress.steering.backend_classes); -EINVAL out of range,
 * -EEXIST / -ENOENT as a table. */
int dp_backend_class(int op, uint8_t dscp, uint8_t tc);
/* The backends of a slice (HupfIngress.steering.backends through its selector), in
 * the order of their member handles; n = 0: the slice has none (DROP_NO_BACKEND).
 * A session miss goes to members[crc16(UE address) % n], as bmv2's crc16 selector. */
struct dp_backend { uint16_t port; uint8_t dst_mac[6]; };
#define DP_SLICES 16
#define DP_BACKENDS_MAX 256
int dp_backends_set(uint8_t slice, const struct dp_backend *members, uint32_t n);

/* hw profile: HK-IPG (p4src/include/hh.p4, model tools/hupf_tools/model/hkipg.py). */
struct dp_hh_params {   /* hh_config's set_hh_params */
	uint16_t tau_th;
	uint32_t ipg_init, ipg_th, decay_k, timeslot_us;
	uint8_t alpha_shift, key_mode;
};
struct dp_hh_slot {     /* the registers of one slot */
	uint32_t flow_id, ipg_ewma;
	uint64_t last_ts;   /* 48 bits, microseconds */
	uint16_t tau;
	uint8_t reported;
};
struct dp_range { uint32_t lo, hi; uint16_t value; };   /* a range table entry (tau_table, feature_*), in match order */
/* The report of an HH_REPORT packet-in (hh_report_t, before the packet's first bytes). */
struct dp_hh_report { uint32_t flow_key, ipg_ewma; uint16_t tau; };
#define HH_REPORT_HDR_LEN 12
#define HH_REPORT_PKT_BYTES 64
int dp_hh_config(const struct dp_hh_params *prm);
int dp_tau_replace(const struct dp_range *r, uint32_t n);
/* Copies slot idx's registers; -EINVAL past the slots (or not hw), -ENODEV. */
int dp_hh_slot_read(uint32_t idx, struct dp_hh_slot *out);
/* One packet of flow key at ts_us on slot s (the P4's per-packet transition); returns 1
 * and fills rep when it reports a new HH episode. Pure: the unit tests run it. */
int dp_hh_step(struct dp_hh_slot *s, uint32_t key, uint64_t ts_us, const struct dp_hh_params *prm,
	       const struct dp_range *tau, uint32_t ntau, struct dp_hh_report *rep);
/* hw profile: MATADOR's feature extraction and classification (p4src/include/classifier.p4,
 * model tools/hupf_tools/model/features.py). */
struct dp_cls_params { uint32_t window_us; uint8_t alpha_shift; };   /* cls_config's set_cls_params */
struct dp_cls_slot {    /* the registers of one flow slot */
	uint32_t pkts_up, pkts_dn, ps_up, ps_dn, ipg_up, ipg_dn, last_up, last_dn, win_start;
	uint8_t cls;
};
#define DP_CLS_FEATURES 6   /* pkts_up, pkts_dn, ps_up, ps_dn, ipg_up, ipg_dn: feature_* tables in this order */
struct dp_decision { uint8_t codes[DP_CLS_FEATURES]; uint8_t cls; };
/* The run-time tables of one classification: range tables per feature, decisions sorted by codes. */
struct dp_cls_tables {
	const struct dp_range *ranges[DP_CLS_FEATURES];
	uint32_t nranges[DP_CLS_FEATURES];
	const struct dp_decision *decisions;
	uint32_t ndecisions;
};
int dp_cls_config(const struct dp_cls_params *prm);
int dp_cls_ranges_replace(unsigned feature, const struct dp_range *r, uint32_t n);
int dp_cls_decisions_replace(const struct dp_decision *d, uint32_t n);   /* codes must differ */
int dp_cls_slot_read(uint32_t idx, struct dp_cls_slot *out);
/* One packet (user IPv4 total length ip_len) of a flow on its slot s at ts_us: the P4's
 * per-packet transition; returns the flow's class after it. Pure: the unit tests run it. */
uint8_t dp_cls_step(struct dp_cls_slot *s, int uplink, uint32_t ip_len, uint64_t ts_us,
		    const struct dp_cls_params *prm, const struct dp_cls_tables *t);
/* The slot key in 5-tuple mode: CRC-32 (zlib's, as bmv2's crc32) over the 13-byte 5-tuple. */
uint32_t dp_hh_5tuple_key(uint32_t ue, uint32_t app, uint16_t ue_port, uint16_t app_port, uint8_t proto);
/* hw profile: Retroactive Packet Sampling (p4src/include/rps.p4, docs/PIPELINE_CONTRACT.md "RPS"). Each
 * observation point (RPS_POINT_IN, RPS_POINT_OUT) runs its own instance; modes, receipt kinds and the
 * events counter's layout are define.p4's RPS_* constants (hupf_p4const.h). */
#define DP_RPS_EVENT_CELLS (RPS_POINTS * RPS_EVENTS)
#define DP_RPS_RECEIPT_LEN 16   /* rps_receipt_t */
struct dp_rps_params { uint8_t mode; uint32_t quiet_us, select_threshold, buffer_len; };   /* rps.config */
/* What goes to the controller (rps_receipt_t, big-endian on the wire). */
struct dp_rps_receipt { uint8_t point, kind; uint16_t flow_id; uint32_t digest, ts; uint16_t dnum; };
/* One RPS instance's state (both points): what rps.p4's registers hold, as flat arrays. */
struct dp_rps_slot { uint32_t digest, ts; uint16_t flow, dnum; uint8_t valid; };   /* a buffered receipt */
struct dp_rps_track { uint32_t digest, ts; uint16_t dnum; uint8_t valid; };       /* a direct disclosure */
struct dp_rps_state {
	uint32_t size, flows, track_depth;  /* receipts per point, flow ids, disclosures tracked per flow */
	uint32_t head[RPS_POINTS];          /* next slot to overwrite (the oldest receipt) */
	uint64_t events[DP_RPS_EVENT_CELLS];
	struct dp_rps_slot *buf;            /* [point * size + i] */
	struct dp_rps_track *track;         /* [(point * flows + flow) * track_depth + dnum % track_depth] */
	uint16_t *next_dnum;                /* [point * flows + flow]: the number of the flow's next direct disclosure */
	uint32_t *late_warned;              /* [point * flows + flow]: RPS_LATE_WARNED_FLAG | the dnum last warned of */
};
/* Zeroed state for size receipts per point, flows flow ids and track_depth disclosures tracked per (point,
 * flow) (NULL for 0, or a track_depth that is no power of two below 2^16: a tracker as deep as dnum's range
 * could not tell an overrun from the disclosure 2^16 later); free with dp_rps_state_free. */
struct dp_rps_state *dp_rps_state_new(uint32_t size, uint32_t flows, uint32_t track_depth);
void dp_rps_state_free(struct dp_rps_state *s);
/* One observation at point of a packet of flow (below s->flows) with its digest at ts (us): FIFO RPS
 * over the first prm->buffer_len slots (mode 1, buffer_len 1..size) or a receipt (mode 2); counts its
 * events. Returns 1 and fills out when a receipt goes to the controller (at most one per observation).
 * Pure: the unit tests run it. */
int dp_rps_step(struct dp_rps_state *s, unsigned point, uint16_t flow, uint32_t digest, uint32_t ts,
		uint32_t disc_threshold, const struct dp_rps_params *prm, struct dp_rps_receipt *out);
/* The digest of the user IPv4 packet at ip (avail bytes of it in the frame): CRC-32 over its addresses,
 * identification, total length, protocol and 8 bytes of L4 (UDP header; TCP ports and sequence number;
 * ICMP type, code, checksum and 4 zero bytes; zeros for other protocols, after IPv4 options, or for what
 * the frame lacks). */
uint32_t dp_rps_digest(const uint8_t *ip, uint32_t avail);
/* The delayed-disclosure selection hash: CRC-32 over the two digests, big-endian. */
uint32_t dp_rps_select_hash(uint32_t receipt_digest, uint32_t disclosure_digest);
void dp_rps_receipt_encode(uint8_t out[DP_RPS_RECEIPT_LEN], const struct dp_rps_receipt *r);
/* rps.config's set_config: -EINVAL for what bmv2 would not observe by (a mode above 2; mode 1 with a
 * buffer_len outside 1..rps_buffer). */
int dp_rps_config(const struct dp_rps_params *prm);
/* rps.flows: (UE prefix, direction 0 uplink / 1 downlink) -> set_flow(flow_id, disc_threshold);
 * -EINVAL for a flow id not below rps_flows (bmv2 would not observe it). */
int dp_rps_flow(int op, uint32_t prefix, uint8_t plen, uint8_t direction, uint16_t flow_id, uint32_t disc_threshold);
/* The events counter's cell (summed over the forwarding lcores); write sets the total. */
int dp_rps_events_read(uint32_t idx, uint64_t *pkts);
int dp_rps_events_write(uint32_t idx, uint64_t pkts);
int dp_apps_replace(const struct dp_app_rule *r, uint32_t n);
int dp_acl_replace(const struct dp_acl_rule *r, uint32_t n);
int dp_meter_set(int which, uint32_t idx, const struct dp_meter_cfg *cfg);  /* cfg NULL: unconfigure */
int dp_counter_read(int which, uint32_t idx, uint64_t *pkts, uint64_t *bytes);
/* Cells lo .. lo + n - 1 of a counter in one call (the agent's scan for changed cells): -EINVAL past its end. */
int dp_counter_read_range(int which, uint32_t lo, uint32_t n, uint64_t *pkts, uint64_t *bytes);
/* Both QoS counters of n cells in one call (a Write's deletions' final counts): counts[4i..4i+3] = cell idx[i]'s
 * pre-QoS packets and bytes, then its post-QoS packets and bytes; -EINVAL if a cell is past either counter's end. */
int dp_counter_read_cells(const uint32_t *idx, uint32_t n, uint64_t *counts);
int dp_counter_write(int which, uint32_t idx, uint64_t pkts, uint64_t bytes);
/* The pre- and post-QoS counters' cells in blocks of DP_CTR_BLOCK, each with a mark set when a forwarding
 * lcore counts in the block or dp_counter_write writes in it: the agent's changed-cells read scans the marked
 * blocks only. */
#define DP_CTR_BLOCK 16
/* ORs into bits (bit b of bits[b / 64]: cells b * DP_CTR_BLOCK ..) the blocks marked since the last harvest and
 * clears their marks, for the nwords words given (the rest stay marked). A count made after a mark was
 * cleared marks it again, so a cell read after this call either shows the count or is marked for the next. */
int dp_counter_harvest(uint64_t *bits, uint32_t nwords);
int dp_drop_read(uint32_t reason, uint64_t *pkts);
/* Reading the exact tables back (the agent answers P4Runtime reads from them): */
enum dp_exact { EXACT_UL_SESS = 0, EXACT_DL_SESS = 1, EXACT_UL_TERM = 2, EXACT_DL_TERM = 3 };
/* An entry as the table holds it. key: tun_dst << 32 | teid (uplink sessions), the UE
 * address (downlink sessions), ue << 8 | app_id (terminations). Sessions fill action,
 * ue (uplink), peer (downlink) and meter_idx (an uplink meter index above 2^31 - 1 is
 * held as 2^31 - 1); terminations fill term. */
struct dp_exact_entry {
	uint64_t key;
	uint8_t action, peer;
	uint32_t ue, meter_idx;
	struct dp_term term;
};
/* 1 and the entry, 0 when absent, -EINVAL (no such table) or -ENODEV. Writer thread only. */
int dp_exact_get(int table, uint64_t key, struct dp_exact_entry *e);
/* Entries in the table, or -EINVAL / -ENODEV. */
int64_t dp_exact_count(int table);
/* Copies the entries from position *cursor on (start at 0) into out (max >= 4) and
 * returns how many, or -EINVAL / -ENODEV; *cursor is UINT32_MAX when the table is done. */
int dp_exact_dump(int table, uint32_t *cursor, struct dp_exact_entry *out, uint32_t max);
/* Waits for a grace period and frees what the writes since the last commit replaced. */
void dp_commit(void);

/* Test clock: from the first call on, the data plane's time (the meters' token
 * buckets) is ns nanoseconds, as set, instead of the CPU's time stamp counter, and
 * moves only with further calls, so that tests decide exactly how much time passes
 * between packets. Meters configured before the first call start from the TSC's time
 * and fill up at their first packet. */
void dp_clock_set(uint64_t ns);
/* The data plane's time in microseconds (HK-IPG's timestamps): the test clock's ns / 1000. */
uint64_t dp_now_us(void);

/* Verdict of one packet through the pipeline. */
struct dp_verdict {
	uint16_t out_port;   /* valid when fwd */
	uint8_t fwd;         /* 1: transmit on out_port */
	uint8_t drop_reason; /* DROP_* when dropped (0: dropped without a contract reason) */
	uint8_t to_cpu;      /* packet_in reason, 0 for none (punt: fwd=0; copy: fwd=1) */
	void *cpu_copy;      /* ACL copy or HH report: an rte_mbuf, sent as a packet-in ... */
	uint8_t copy_reason; /* ... with this reason */
	void *rps_copy;      /* hw: the OUT point's receipt (an rte_mbuf, packet-in reason PKTIN_RPS) */
	uint8_t prio;        /* v1model priority (qos.queues of the packet's class) when fwd */
};


/* ---- runtime: EAL, ports, forwarding lcores, CPU port ---- */
#define DP_MAX_PORTS 32

struct dp_port_cfg {
	uint16_t p4_port;
	char dev[128];      /* "af_packet:veth0" style vdev spec or a PCI address */
	uint64_t rate_bps;  /* 0: sent as it comes; else through an egress scheduler at this rate (egress.h) */
};

struct dp_boot {
	unsigned nworkers;          /* forwarding lcores */
	unsigned nports;
	struct dp_port_cfg ports[DP_MAX_PORTS];
	unsigned mbufs;             /* mbufs in the pool */
	unsigned mem_mb;            /* EAL memory (no hugepages) */
	char extra_eal[256];        /* appended to the EAL arguments, space separated */
	unsigned idle_sleep_us;     /* an idle lcore sleeps this long between polls; 0: busy-poll always */
	unsigned idle_sleep_max_us; /* each further empty nap doubles it up to this (the first packet's extra
	                             * latency after a quiet spell); below idle_sleep_us: no growth */
};

/* Initialises EAL, ports and lcores and starts forwarding (drops until a pipeline is set). */
int dp_boot(const struct dp_boot *cfg, char *err, unsigned errlen);
void dp_shutdown(void);

/* CPU port. packet_in: copies one queued packet into buf, returns its length (0: none). */
int dp_packet_in(uint8_t *buf, uint32_t cap, uint16_t *ingress_port, uint8_t *reason);
/* Waiting for packet-ins without polling: dp_packet_in_arm asks for a wake-up on dp_packet_in_fd (an eventfd,
 * non-blocking) at the next packet-in queued and returns the packet-ins queued already (then do not wait).
 * dp_packet_in_kick wakes the waiter (e.g. to stop it). A wake-up may find nothing queued. */
int dp_packet_in_fd(void);
unsigned dp_packet_in_arm(void);
void dp_packet_in_kick(void);
int dp_packet_out(uint16_t port, const uint8_t *buf, uint32_t len);

struct dp_port_stats {
	uint16_t p4_port;
	uint64_t rx, tx, rx_missed, tx_dropped; /* rx_missed: frames its receive ring had no room for (of an
						 * af_packet port: the kernel's ring) */
	uint64_t rate_bps;          /* the egress scheduler's rate, 0 for none */
	uint64_t queue_dropped[8];  /* packets its full queues dropped, by v1model priority */
	/* The scheduler's service (egress.h, egress_service): of those drops, the ones in a stall's backlog; the
	 * frames sent while a higher priority's queue was full; the owner lcore's longest absence. */
	uint64_t queue_stall_dropped[8], sent_below_full, longest_gap_us;
	uint64_t queue_backlog;     /* packets its queues (and the ring to their owner) hold now */
};
struct dp_stats {
	unsigned nports;
	struct dp_port_stats port[DP_MAX_PORTS];
	uint64_t to_cpu, to_cpu_dropped, pkt_out, no_pipeline;
	uint64_t ipv4_fragments;    /* IPv4 fragments received and dropped (hupf does not reassemble) */
	uint64_t idle_naps;         /* naps of the forwarding lcores */
	uint64_t idle_naps_capped;  /* of which as long as idle_sleep_max_us */
	uint64_t work_after_capped; /* polls that found work right after a capped nap: packets that waited up to it */
};
void dp_stats_get(struct dp_stats *s);

#endif
