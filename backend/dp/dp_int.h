/* Data plane internals shared by the table code, the pipeline and the I/O loop. */
#ifndef HUPF_DP_INT_H
#define HUPF_DP_INT_H

#include <errno.h>
#include <stdint.h>
#include <rte_acl.h>
#include <rte_lpm.h>
#include <rte_meter.h>
#include <rte_rcu_qsbr.h>
#include <rte_mbuf.h>
#include <rte_cycles.h>
#include "hupf_dp.h"
#include "ftable.h"

#define DP_MAX_WORKERS 16
#define DP_PEERS 256

/* Fixed-size value slots with a free stack (routes, meter states): a MODIFY
 * publishes a new slot atomically and the old one is freed after a grace period. */
struct vpool {
	uint8_t *mem;
	uint32_t elem, n, nfree;
	uint32_t *free;
};


struct eg_peer { uint32_t src, dst; uint16_t sport; };
struct route { uint8_t src_mac[6], dst_mac[6]; uint16_t port; };
struct backend_set { uint32_t n; struct dp_backend m[]; };
struct range_set { uint32_t n; struct dp_range r[]; };
struct decision_set { uint32_t n; struct dp_decision d[]; };
/* The tenants table, sorted by tenant_key(), replaced whole on every write (it is small and rarely
 * written); NULL when empty. */
struct pipeline;
struct tenant_set { uint32_t n; uint64_t key[]; /* then n struct dp_tenant in key order */ };
static inline uint64_t tenant_key(uint32_t vni, uint32_t vtep) { return (uint64_t)vni << 32 | vtep; }
static inline struct dp_tenant *tenant_at(struct tenant_set *s) { return (struct dp_tenant *)&s->key[s->n]; }
/* The tenant of a VXLAN frame's (VNI, local VTEP), or NULL (readers: valid until the next grace period). */
const struct dp_tenant *dp_tenant_lookup(const struct pipeline *p, uint32_t vni, uint32_t vtep);
#define BACKEND_CLASS_SET 0x80
/* A slice's cell in pipeline.slices: SLICE_SET | tc << 6 | dscp; 0: no slice. */
#define SLICE_SET 0x100
static inline uint32_t slice_cell(uint8_t tenant_id, uint8_t qfi) { return (uint32_t)tenant_id << 6 | qfi; }
/* Per tenant id (and per slice cell), per forwarding lcore: tenant_counter (slice_counter). */
struct tctr { uint64_t pkts, bytes; };
/* classifier.p4's default action: a 1 s window, alpha = 1 - 2^-3. */
#define CLS_DEFAULT_PARAMS { 1000000, 3 }
/* The first range of r (in match order) that holds v gives its value; none: 0. */
uint16_t dp_range_lookup(const struct dp_range *r, uint32_t n, uint32_t v);
/* Publishes a copy of r as *slot (NULL when n = 0); the old set is freed after a grace period. */
int dp_range_set_replace(struct range_set **slot, const struct dp_range *r, uint32_t n);
/* define.p4's HK-IPG constants (not among the generated ones). */
enum { HH_KEY_UE_ADDR = 0, HH_KEY_5TUPLE = 1, HH_FLAG_BACKEND = 1, HH_FLAG_RPS = 0x80 };
/* hh.p4's default action: what the app derives for 10 Mbit/s of 1000-byte packets. */
#define HH_DEFAULT_PARAMS { 1850, 800, 800, 1, 16384, 7, HH_KEY_UE_ADDR }
#define DP_PORT_BITS 512  /* P4 ports are 9 bits */

/* Keys of the ternary tables' tries (classify.c), network byte order. */
struct acl_key {
	uint8_t proto, pad[3];
	uint32_t ip_src, ip_dst;
	uint16_t sport, dport, port, eth_type;
	uint8_t smac[6], dmac[6];
};
struct app_key {
	uint8_t slice, pad[3];
	uint32_t addr;
	uint16_t port, proto;
};
/* A trie of the rules (NULL: no rule can match); lookups return the userdata:
 * ACL action + 1 / app id + 1, 0 for no match. */
int classifier_build_acl(struct rte_acl_ctx **out, const struct dp_acl_rule *r, uint32_t n);
int classifier_build_apps(struct rte_acl_ctx **out, const struct dp_app_rule *r, uint32_t n);
void acl_key_set(struct acl_key *k, const uint8_t *frame, uint16_t in_port, uint8_t proto, uint32_t src,
		 uint32_t dst, uint16_t sport, uint16_t dport);
void app_key_set(struct app_key *k, uint8_t slice, uint32_t addr, uint16_t port, uint8_t proto);

struct meter_state {
	struct rte_meter_trtcm_profile prof;
	struct rte_meter_trtcm rt;
};

/* The pre- and post-QoS counters of one index share a 32-byte cell: a packet
 * touches one cache line for both (the arrays are 64-byte aligned). */
struct ctr { uint64_t pkts[2], bytes[2]; } __attribute__((aligned(32)));

struct pipeline {
	struct dp_sizes sz;
	struct rte_lpm *iface[2];          /* by gtpu_is_valid; next hop = iface << 8 | slice */
	struct ftable ul_sess;              /* ul_sess_key() -> ul_sess_val() */
	struct ftable dl_sess;              /* UE -> sess_val() */
	struct ftable ul_term, dl_term;     /* term_key() -> struct dp_term */
	uint64_t ig_peer[DP_PEERS];         /* bit 32 = valid, low 32 = tunnel dst */
	struct eg_peer *eg_peer[DP_PEERS];
	struct dp_vx_peer *vx_peer[DP_PEERS];  /* NULL: the peer gets no VXLAN */
	struct rte_lpm *routes;             /* next hop = slot in route_pool */
	struct vpool route_pool;
	struct rte_acl_ctx *apps, *acl;      /* tries, replaced whole (NULL: no rules) */
	uint8_t encap_psc;
	uint64_t backend_port[DP_PORT_BITS / 64];   /* hw: bit set = from_backend */
	uint8_t backend_class[64];                   /* hw: by DSCP, BACKEND_CLASS_SET | tc; 0: none */
	struct backend_set *backends[DP_SLICES];     /* hw: NULL = no backend */
	struct dp_hh_params *hh_params;             /* hw: hh_config (replaced whole) */
	struct range_set *tau;                         /* hw: tau_table (NULL: empty) */
	struct dp_hh_slot *hh;                       /* hw: sz.hh_slots slots */
	struct dp_cls_params *cls_params;            /* hw: cls_config (replaced whole) */
	struct range_set *cls_ranges[DP_CLS_FEATURES]; /* hw: feature_* (NULL: empty) */
	struct decision_set *decisions;              /* hw: decision (NULL: empty) */
	struct dp_cls_slot *cls;                     /* hw: sz.cls_slots slots */
	struct tenant_set *tenants;                  /* NULL: no tenant (every VXLAN frame is an unknown VNI) */
	uint16_t *slices;                            /* sz.slice_cells cells (slice_cell()), written in place */
	uint32_t nslices;                            /* entries in slices (the table's size bounds it) */
	struct dp_rps_params *rps_params;            /* hw: rps.config (replaced whole) */
	struct rps_flow_set *rps_flows;              /* hw: rps.flows (replaced whole; NULL: empty) */
	struct dp_rps_state *rps[DP_MAX_WORKERS];    /* hw: one RPS instance per forwarding lcore */
	uint8_t queue[4];                            /* qos.queues: tc -> v1model priority */
	uint32_t *meter_map[4];             /* meter index -> state slot + 1 (0: unconfigured, green), by enum dp_meter */
	struct vpool meters;
	struct ctr *ctr[DP_MAX_WORKERS];     /* max(pre, post size) cells, indexed by enum dp_counter */
	struct tctr *tctr[DP_MAX_WORKERS];   /* sz.tenant_cells cells */
	struct tctr *sctr[DP_MAX_WORKERS];   /* sz.slice_cells cells */
	/* ctr's blocks of DP_CTR_BLOCK cells counted in since the agent's last harvest, a bit each: one bitmap per
	 * forwarding lcore (its own cache lines) and, last, dp_counter_write's. */
	uint64_t *ctr_dirty[DP_MAX_WORKERS + 1];
	uint32_t ctr_dirty_words;
	uint64_t drops[DP_MAX_WORKERS][DROP_REASONS_SIZE];
};

struct dp_ctx {
	struct pipeline *pipe;              /* read by workers with acquire loads */
	struct rte_rcu_qsbr *qs;
	unsigned nworkers;
	struct rte_mempool *cpu_pool;       /* ACL copies; NULL: copies are not made */
	uint8_t test_clock;                 /* 1: time is test_tsc (dp_clock_set), not the TSC */
	uint64_t test_tsc;
	uint64_t test_ns;
};
extern struct dp_ctx g_dp;

/* The data plane's time in TSC cycles, for meters: the TSC, or the test clock. */
static inline uint64_t dp_now(void)
{
	if (__atomic_load_n(&g_dp.test_clock, __ATOMIC_RELAXED))
		return __atomic_load_n(&g_dp.test_tsc, __ATOMIC_RELAXED);
	return rte_rdtsc();
}

int dp_init(unsigned nworkers);
/* The pipeline when it is hw; else NULL with *err -ENODEV (none) or -EINVAL (sw). */
static inline struct pipeline *dp_hw_pipe(int *err)
{
	struct pipeline *p = g_dp.pipe;
	*err = !p ? -ENODEV : !p->sz.hw ? -EINVAL : 0;
	return *err ? NULL : p;
}
/* A write (op) to a small table copied whole on each write, of n entries and capacity cap, where the key is
 * found or not: 0 and the entries after it in *nn, or -EEXIST / -ENOENT / -ENOSPC. */
int dp_cow_count(int op, int found, uint32_t n, uint32_t cap, uint32_t *nn);
/* Frees an rte_malloc'd obj after the next grace period (dp_commit). */
int dp_defer_free(void *obj);
/* Publishes a copy of len bytes of src as *slot for the readers; the old copy is freed
 * after a grace period. */
int dp_publish_copy(void **slot, const void *src, size_t len);
/* A value pool's slots (tables.c): taken for a new value, put back when a write fails, freed after a grace
 * period when the value is replaced (dp_commit). */
int dp_vpool_get(struct vpool *vp, uint32_t *idx);
void dp_vpool_put(struct vpool *vp, uint32_t idx);
int dp_defer_slot(struct vpool *vp, uint32_t idx);
static inline void *dp_vpool_at(const struct vpool *vp, uint32_t idx) { return vp->mem + (size_t)idx * vp->elem; }
/* 0 for an INSERT, MODIFY or DELETE, else -EINVAL. */
static inline int dp_check_op(int op) { return op >= DP_INSERT && op <= DP_DELETE ? 0 : -EINVAL; }
/* Opens a control-plane write: p is the current pipeline, -ENODEV before the first one. */
#define DP_PIPE_OR_ENODEV struct pipeline *p = g_dp.pipe; if (!p) return -ENODEV
/* The IPv4 netmask of a prefix length (0..32; 0: no bits). */
static inline uint32_t dp_prefix_mask(uint8_t plen) { return plen ? ~0u << (32 - plen) : 0; }
static inline struct pipeline *dp_pipe(void)
{
	return __atomic_load_n(&g_dp.pipe, __ATOMIC_ACQUIRE);
}

/* Uplink session values, 8 bytes inline in their table:
 * bit 63 drop, bits 32-62 meter index, bits 0-31 UE address. A meter index that
 * needs 32 bits is beyond any meter's size, so it is stored as one that also is
 * (out-of-range meters are green either way). */
#define UL_METER_MAX 0x7fffffffu
static inline uint64_t ul_sess_val(uint8_t action, uint32_t ue, uint32_t meter)
{
	return (uint64_t)(action == SESS_DROP) << 63 | (uint64_t)(meter > UL_METER_MAX ? UL_METER_MAX : meter) << 32 | ue;
}
#define UL_DROP(v) ((v) >> 63)
#define UL_METER(v) ((uint32_t)((v) >> 32) & UL_METER_MAX)
#define UL_UE(v) ((uint32_t)(v))

/* Downlink session values, 8 bytes inline in their table. */
static inline uint64_t sess_val(uint8_t action, uint8_t peer, uint32_t meter)
{
	return (uint64_t)action << 48 | (uint64_t)peer << 32 | meter;
}
#define SESS_ACTION(v) ((uint8_t)((v) >> 48))
#define SESS_PEER(v) ((uint8_t)((v) >> 32))
#define SESS_METER(v) ((uint32_t)(v))

/* Keys of the exact tables (8 bytes each). */
static inline uint64_t ul_sess_key(uint32_t tun_dst, uint32_t teid) { return (uint64_t)tun_dst << 32 | teid; }
static inline uint64_t term_key(uint32_t ue, uint8_t app_id) { return (uint64_t)ue << 8 | app_id; }

/* zlib's CRC-32 (bmv2's crc32; crc.c): a byte a step (bytes the compiler holds in registers, as HK-IPG's
 * 5-tuple key), or four bytes a step from four tables ("slicing by 4", over bytes in memory, as RPS's
 * 21-byte digest: 3 instructions a byte instead of 8, callgrind). */
extern uint32_t dp_crc_table[4][256];
static inline uint32_t dp_crc32_bytes(uint32_t c, const uint8_t *b, uint32_t n)
{
	while (n--)
		c = dp_crc_table[0][(c ^ *b++) & 0xff] ^ c >> 8;
	return c;
}
static inline uint32_t dp_crc32(const uint8_t *b, uint32_t n) { return ~dp_crc32_bytes(0xFFFFFFFFu, b, n); }
static inline uint32_t dp_crc32_sliced(const uint8_t *b, uint32_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	for (; n >= 4; b += 4, n -= 4) {
		c ^= (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		c = dp_crc_table[3][c & 0xff] ^ dp_crc_table[2][c >> 8 & 0xff] ^ dp_crc_table[1][c >> 16 & 0xff] ^
		    dp_crc_table[0][c >> 24];
	}
	return ~dp_crc32_bytes(c, b, n);
}

/* rps.flows (small, rarely written): its entries sorted by direction, prefix length (longest first) and
 * prefix, each run of one direction and length a group that a lookup searches by bisection, longest first. */
struct rps_flow { uint32_t prefix; uint8_t plen, direction; uint16_t id; uint32_t disc_threshold; };
struct rps_flow_group { uint8_t direction, plen; uint32_t lo, hi; };
struct rps_flow_set {
	uint32_t n, ngroups;
	struct rps_flow_group group[2 * 33];
	struct rps_flow e[];
};
/* The longest prefix of direction that holds ue, or NULL (readers: valid until the next grace period). */
const struct rps_flow *rps_flow_lookup(const struct rps_flow_set *s, uint8_t direction, uint32_t ue);
/* rps.p4's default: nothing observed (over the whole buffer when on). */
#define RPS_DEFAULT_PARAMS(buffer) { RPS_MODE_OFF, 0, 0, buffer }
/* A receipt as a packet-in's payload (NULL without mbufs). */
struct rte_mbuf *rps_receipt_mbuf(const struct dp_rps_receipt *r);

/* CRC-16/ARC (poly 0x8005 reflected, init 0, no final xor): bmv2's crc16, here over
 * a 32-bit value in network byte order, as bmv2's selector hashes the UE address. */
uint16_t dp_crc16_be32(uint32_t v);

/* HK-IPG on one packet that passed the UPF (or goes to a backend): updates its slot and,
 * when it reports, makes the HH_REPORT packet-in (report + the frame's first 64 bytes,
 * as bmv2's truncated clone) in v->cpu_copy. */
void hh_packet(struct pipeline *p, uint32_t ue, uint32_t app, uint16_t ue_port, uint16_t app_port, uint8_t proto,
	       uint64_t ts_us, int to_backend, const uint8_t *frame, uint32_t len, struct dp_verdict *v);

/* MATADOR on one packet that passed the UPF on the switch (not one going to a backend). */
void cls_packet(struct pipeline *p, int uplink, uint32_t ue, uint32_t app, uint16_t ue_port, uint16_t app_port,
		uint8_t proto, uint32_t ip_len, uint64_t ts_us);

/* Runs n packets through the pipeline; m->port holds each one's P4 ingress port.
 * Fills one verdict each; packets are rewritten in place (encap/decap/echo). */
void dp_process_burst(struct pipeline *p, unsigned slot, struct rte_mbuf **m, uint16_t n,
		      struct dp_verdict *v);

#endif
