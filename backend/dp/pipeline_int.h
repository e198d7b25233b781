/* What the pipeline's burst loop (pipeline.c) shares with its out-of-line parts: VXLAN tenants
 * (pipeline_vxlan.c) and RPS (pipeline_rps.c). These run for the packets that need them only, as calls, so
 * that the common path's stages stay inlined in the burst loop. */
#ifndef HUPF_PIPELINE_INT_H
#define HUPF_PIPELINE_INT_H

#include <rte_mbuf.h>
#include "dp_int.h"
#include "pkt.h"

enum dir { DIR_NONE = 0, DIR_UL, DIR_DL };
/* Where a packet's tenant class comes from: it arrived in a tenant's VXLAN, or (hw) back from a backend with a
 * user packet's DSCP that backend_classes maps to a class. */
enum { TENANT_VXLAN = 1, TENANT_FROM_BACKEND = 2 };
/* Where RPS observes a packet of a sampled flow: IN unless it came back from a backend (or is the
 * controller's, buffered), OUT if it leaves hupf (forwarded, not steered to a backend). */
enum { RPS_AT_IN = 1, RPS_AT_OUT = 2 };

struct pstate {
	struct pkt_info pi;
	enum parse_err perr;
	uint8_t *frame;
	uint32_t len;          /* original frame length: what counters and meters see */
	uint32_t flen;         /* the frame's length now (the tenant frame of a VXLAN frame) */
	uint8_t dir, slice, app_id, done, local_reply;
	uint8_t tenant, dscp, tenant_tc;  /* tenant: TENANT_VXLAN or TENANT_FROM_BACKEND; the packet is marked dscp */
	uint8_t tenant_id;
	uint8_t vx_off;        /* hw: a backend's VXLAN frame (routed by its outer headers): their length, else 0 */
	uint32_t ue, app_addr, route_dst;
	uint16_t app_port;
	uint8_t app_proto;
	uint32_t sess_meter;
	uint8_t peer;
	struct dp_term term;
	uint8_t rps;           /* hw, RPS on: RPS_AT_IN, RPS_AT_OUT (set for a packet of a sampled flow) */
	uint16_t rps_flow;
	uint32_t rps_digest, rps_disc_threshold;
};

static inline void finish_drop(struct pipeline *p, unsigned slot, struct pstate *s, struct dp_verdict *v,
			       uint8_t reason)
{
	v->fwd = 0;
	v->drop_reason = reason;
	s->done = 1;
	if (reason)
		p->drops[slot][reason]++;
}

static inline int lpm_lookup(struct rte_lpm *l, uint32_t ip, uint32_t *nh)
{
	return rte_lpm_lookup(l, ip, nh) == 0;
}

/* trTCM, colour-blind; an unconfigured meter passes everything (as in bmv2). */
static inline int meter_red(struct pipeline *p, int which, uint32_t idx, uint32_t size, uint32_t len, uint64_t now)
{
	if (idx >= size)
		return 0;
	uint32_t slot = __atomic_load_n(&p->meter_map[which][idx], __ATOMIC_ACQUIRE);
	if (!slot)
		return 0;
	struct meter_state *ms = (struct meter_state *)(p->meters.mem + (size_t)(slot - 1) * p->meters.elem);
	return rte_meter_trtcm_color_blind_check(&ms->rt, &ms->prof, now, len) == RTE_COLOR_RED;
}

/* The block's mark is stored after the counts (a release store: x86 keeps stores in order), so that a harvest
 * that clears it before the counts are visible leaves it set again (dp_counter_harvest). */
static inline void count(struct ctr *c, uint64_t *dirty, int which, uint32_t idx, uint32_t size, uint32_t len)
{
	if (idx < size) {
		c[idx].pkts[which]++;
		c[idx].bytes[which] += len;
		uint64_t *w = &dirty[idx / (64 * DP_CTR_BLOCK)];
		__atomic_store_n(w, __atomic_load_n(w, __ATOMIC_RELAXED) | 1ull << (idx / DP_CTR_BLOCK % 64),
				 __ATOMIC_RELEASE);
	}
}

/* A tenant's packets leave with its DSCP (tenant.p4's marking in egress). */
static inline void mark_dscp(uint8_t *ip, uint8_t dscp)
{
	ip[1] = (uint8_t)(dscp << 2 | (ip[1] & 3));
	pkt_ipv4_fix_cksum(ip);
}


/* The v1model priority of a forwarded packet: qos.queues of its class, a tenant's over the
 * termination's (term_tc; 0 without one). */
static inline uint8_t queue_of(const struct pipeline *p, const struct pstate *s, uint8_t term_tc)
{
	return __atomic_load_n(&p->queue[(s->tenant ? s->tenant_tc : term_tc) & 3], __ATOMIC_RELAXED);
}


static inline int from_backend(const struct pipeline *p, uint16_t port)
{
	return port < DP_PORT_BITS &&
	       (__atomic_load_n(&p->backend_port[port / 64], __ATOMIC_ACQUIRE) >> (port % 64) & 1);
}


/* tenant.p4's TenantSlice: a tenant's packet whose (tenant, QFI) has a slice takes the slice's class and
 * DSCP, counted and metered in the slice's cell. The QFI is the downlink termination's (term: it matched),
 * else the tenant frame's PDU Session Container's; without one the tenant's stay. Returns 0 when the
 * meter drops the packet. */
int tenant_slice(struct pipeline *p, unsigned slot, struct pstate *s, struct dp_verdict *v, uint64_t now,
		int term);

/* A VXLAN frame (tenant.p4): the outer headers go, the tenant frame is parsed as any frame
 * (a second VXLAN level in it is plain UDP); its errors, then the tenant: unknown drops, known
 * counts and meters the frame as received. Returns 0 when the packet is dropped. transit (hw, the
 * frame came from a backend port): no tenant's; its outer headers stay in the mbuf's headroom, put
 * back when it is routed by them (vxlan_transit). */
int vxlan_tenant(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
		struct dp_verdict *v, uint64_t now, int transit);

/* Egress, downlink: a tunnel peer in a tenant's overlay gets the GTP-U packet in VXLAN (tenant.p4's
 * TenantEgress): overlay MACs on the tenant frame, the outer headers before it (DSCP copied from
 * the GTP-U header). Returns 0 when the packet is dropped (no headroom). */
int vxlan_reencap(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
		struct dp_verdict *v, const struct dp_vx_peer *vx);

/* hw: a backend's VXLAN frame (its downlink G-PDU towards a gNB's edge VTEP) is routed by its outer headers,
 * put back before the tenant frame: TTL, MACs, port. In a class (backend_class) both its IPv4 headers leave
 * marked, the tenant frame's and the outer one (as vxlan_reencap copies the G-PDU's DSCP), and the outer UDP
 * checksum, which covered the tenant frame as it was, becomes 0 (as the P4's egress). */
void vxlan_transit(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
		struct dp_verdict *v);

/* hw, RPS on (rps.p4's RpsIngress before its observation): each packet's flow (rps.flows) and digest,
 * before anything rewrites it. A UPF packet's identity is its UE and direction; one back from a backend
 * (observed when it arrived, so only at OUT) is the backend's output: GTP-U downlink (UE = the inner
 * destination), the user packet uplink (UE = its source). */
void stage_rps_flows(struct pipeline *p, struct rte_mbuf **m, struct pstate *st, uint16_t n);

/* hw, RPS on: the observations, once each packet's fate is known (rps.p4 observes IN after HK-IPG and
 * before the drops take effect, OUT in egress): IN for what arrived from outside hupf whatever happens to
 * it next, but not what is buffered for the controller; OUT for what leaves. */
void stage_rps_observe(struct pipeline *p, unsigned slot, const struct pstate *st, struct dp_verdict *v,
		uint16_t n, const struct dp_rps_params *c, uint32_t ts);

#endif
