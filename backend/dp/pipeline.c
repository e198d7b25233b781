/* The sw profile's ingress/egress on a burst of mbufs (with the hw profile's steering
 * of session misses, steering.c, when the pipeline is hw). Stages run over the whole
 * burst so that the lines each stage needs are prefetched for every packet before
 * the first is read: the cache misses of a burst overlap instead of stalling one
 * packet at a time. */
#include <string.h>
#include <rte_cycles.h>
#include <rte_prefetch.h>
#include "pipeline_int.h"

#define BURST_MAX 64
#define ALWAYS_INLINE inline __attribute__((always_inline))

static inline void prefetch_meter_map(struct pipeline *p, int which, uint32_t idx, uint32_t size)
{
	if (idx < size)
		rte_prefetch0(&p->meter_map[which][idx]);
}

/* A configured meter's state (two lines: it is not line-aligned in its pool). */
static inline void prefetch_meter(struct pipeline *p, int which, uint32_t idx, uint32_t size)
{
	uint32_t slot = idx < size ? __atomic_load_n(&p->meter_map[which][idx], __ATOMIC_ACQUIRE) : 0;
	if (slot) {
		const uint8_t *ms = p->meters.mem + (size_t)(slot - 1) * p->meters.elem;
		rte_prefetch0(ms);
		rte_prefetch0(ms + sizeof(struct meter_state) - 1);
	}
}

/* hw: HK-IPG on a packet that passed the UPF or goes to a backend, before any rewrite
 * (a report carries the frame as received). */
static void hh_stage(struct pipeline *p, const struct pstate *s, struct dp_verdict *v, uint64_t now_us,
		     int to_backend)
{
	int ul = s->dir == DIR_UL, l4 = s->app_proto == 6 || s->app_proto == 17;
	uint16_t ue_port = l4 ? (ul ? s->pi.inner_sport : s->pi.dport) : 0;
	hh_packet(p, s->ue, s->app_addr, ue_port, l4 ? s->app_port : 0, s->app_proto, now_us, to_backend,
		  s->frame, s->flen, v);
}

/* hw: MATADOR on a packet that passed the UPF on the switch. */
static void cls_stage(struct pipeline *p, const struct pstate *s, uint64_t now_us)
{
	int ul = s->dir == DIR_UL, l4 = s->app_proto == 6 || s->app_proto == 17;
	const uint8_t *ip = s->frame + (ul ? s->pi.inner : s->pi.l3);
	cls_packet(p, ul, s->ue, s->app_addr, l4 ? (ul ? s->pi.inner_sport : s->pi.dport) : 0, l4 ? s->app_port : 0,
		   s->app_proto, (uint32_t)(ip[2] << 8 | ip[3]), now_us);
}

/* hw: a session miss goes to the slice's backends, unmodified but for the
 * destination MAC (steer_to_backend), or is dropped when the slice has none. */
static void steer_to_backend(struct pipeline *p, unsigned slot, struct pstate *s, struct dp_verdict *v,
			     uint64_t now, uint64_t now_us)
{
	hh_stage(p, s, v, now_us, 1);
	s->rps &= (uint8_t)~RPS_AT_OUT;   /* it has not left hupf */
	const struct backend_set *set = __atomic_load_n(&p->backends[s->slice], __ATOMIC_ACQUIRE);
	if (!set) {
		finish_drop(p, slot, s, v, DROP_NO_BACKEND);
		return;
	}
	if (s->tenant == TENANT_VXLAN && !tenant_slice(p, slot, s, v, now, 0))
		return;
	const struct dp_backend *b = &set->m[dp_crc16_be32(s->ue) % set->n];
	memcpy(s->frame, b->dst_mac, 6);
	if (s->tenant) {
		mark_dscp(s->frame + s->pi.l3, s->dscp);
		/* An uplink G-PDU's user packet too: the backend strips the rest, the class comes back as this DSCP. */
		if (s->pi.inner)
			mark_dscp(s->frame + s->pi.inner, s->dscp);
	}
	v->fwd = 1;
	v->out_port = b->port;
	v->prio = queue_of(p, s, 0);   /* no termination yet */
	s->done = 1;
}

static inline void session_miss(struct pipeline *p, unsigned slot, struct pstate *s, struct dp_verdict *v,
				uint8_t reason, uint64_t now, uint64_t now_us, const int hw)
{
	if (hw)
		steer_to_backend(p, slot, s, v, now, now_us);
	else
		finish_drop(p, slot, s, v, reason);
}

/* hw: a packet back from a backend takes the class backend_classes gives its user packet's DSCP (the inner
 * IPv4 of a G-PDU), and leaves with that DSCP. */
static __attribute__((noinline)) void backend_class(const struct pipeline *p, struct pstate *s)
{
	uint8_t dscp = s->frame[(s->pi.inner ? s->pi.inner : s->pi.l3) + 1] >> 2;
	uint8_t c = __atomic_load_n(&p->backend_class[dscp], __ATOMIC_RELAXED);
	if (c) {
		s->tenant = TENANT_FROM_BACKEND;
		s->tenant_tc = c & 3;
		s->dscp = dscp;
	}
}

/* Stage 1a: parse; parser errors drop here, and VXLAN frames are replaced by their tenant frame. */
static void stage_parse(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
			struct dp_verdict *v, uint64_t now, int hw)
{
	memset(v, 0, sizeof(*v));
	s->done = s->local_reply = s->tenant = s->vx_off = 0;
	s->dir = DIR_NONE;
	s->frame = rte_pktmbuf_mtod(m, uint8_t *);
	s->len = s->flen = rte_pktmbuf_pkt_len(m);
	s->perr = rte_pktmbuf_is_contiguous(m) ? pkt_parse(s->frame, s->len, &s->pi) : PARSE_TRUNCATED;
	if (s->perr == PARSE_BAD_GTPU || s->perr == PARSE_BAD_INNER)
		finish_drop(p, slot, s, v, DROP_MALFORMED_GTPU);
	else if (s->perr == PARSE_BAD_VXLAN)
		finish_drop(p, slot, s, v, DROP_MALFORMED_VXLAN);
	else if (s->perr == PARSE_TRUNCATED || s->perr == PARSE_BAD_IPV4)
		finish_drop(p, slot, s, v, DROP_PARSER_ERROR);
	else if (s->pi.vxlan)
		vxlan_tenant(p, slot, m, s, v, now, hw && from_backend(p, m->port));
}

/* Stage 1b: the ACL on the packets as received, one trie walk for the burst
 * (fills acl[i] with the action of each packet not done). */
static void stage_acl(struct pipeline *p, struct rte_mbuf **m, const struct pstate *st, uint16_t n,
		      uint8_t *acl)
{
	const struct rte_acl_ctx *ctx = __atomic_load_n(&p->acl, __ATOMIC_ACQUIRE);
	memset(acl, ACL_NOP, n);
	if (!ctx)
		return;
	struct acl_key k[BURST_MAX];
	const uint8_t *kp[BURST_MAX];
	uint32_t res[BURST_MAX];
	uint16_t idx[BURST_MAX], cnt = 0;
	for (uint16_t i = 0; i < n; i++) {
		const struct pstate *s = &st[i];
		if (s->done)
			continue;
		const struct pkt_info *pi = &s->pi;
		int l4 = pi->ip_proto == 6 || pi->ip_proto == 17;
		/* The outer header, as in the P4 key; L4 ports only for TCP and UDP. */
		acl_key_set(&k[cnt], s->frame, m[i]->port, pi->ip_proto, pi->ip_src, pi->ip_dst, l4 ? pi->sport : 0,
			    l4 ? pi->dport : 0);
		kp[cnt] = (const uint8_t *)&k[cnt];
		idx[cnt++] = i;
	}
	if (cnt && rte_acl_classify(ctx, kp, res, cnt, 1) == 0)
		for (uint16_t j = 0; j < cnt; j++)
			acl[idx[j]] = res[j] ? (uint8_t)(res[j] - 1) : ACL_NOP;
}

/* Stage 1c: the ACL's verdict, interfaces, echo. */
static ALWAYS_INLINE void stage_classify(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
					  struct dp_verdict *v, uint8_t acl, const int hw)
{
	if (s->done)
		return;
	enum parse_err e = s->perr;
	if (acl == ACL_PUNT) {
		v->to_cpu = PKTIN_ACL_PUNT;
		s->done = 1;
		return;
	}
	if (acl == ACL_DROP) {
		finish_drop(p, slot, s, v, DROP_ACL);
		return;
	}
	if (acl == ACL_COPY) {
		v->to_cpu = PKTIN_ACL_COPY;
		v->copy_reason = PKTIN_ACL_COPY;
		if (g_dp.cpu_pool)
			v->cpu_copy = rte_pktmbuf_copy(m, g_dp.cpu_pool, 0, UINT32_MAX);
	}
	s->route_dst = s->pi.ip_dst;
	if (hw && from_backend(p, m->port)) {
		/* processed by a backend: routed only (backend_ports), in the class its DSCP stands for */
		if (!s->tenant && e != PARSE_NOT_IPV4)
			backend_class(p, s);
		return;
	}
	uint32_t nh;
	int gtpu = s->pi.gtpu != 0;
	if (e == PARSE_NOT_IPV4 || !lpm_lookup(p->iface[gtpu], s->pi.ip_dst, &nh))
		return;
	uint8_t iface = nh >> 8;
	s->slice = nh & 0xf;
	if (iface == IFACE_ACCESS && gtpu) {
		if (s->pi.gtpu_type == GTPU_MSG_ECHO_REQ) {
			uint32_t nlen = pkt_gtpu_echo_reply(s->frame, s->flen, m->buf_len - m->data_off, &s->pi);
			if (!nlen) {
				finish_drop(p, slot, s, v, DROP_MALFORMED_GTPU);
				return;
			}
			m->data_len = m->pkt_len = nlen;
			s->route_dst = s->pi.ip_src;   /* the peer: routed like any reply */
			s->local_reply = 1;
			return;
		}
		if (s->pi.gtpu_type != GTPU_MSG_GPDU || !s->pi.inner) {
			finish_drop(p, slot, s, v, DROP_GTPU_UNSUPPORTED);
			return;
		}
		s->dir = DIR_UL;
		s->ue = s->pi.inner_src;
		s->app_addr = s->pi.inner_dst;
		s->app_port = s->pi.inner_dport;
		s->app_proto = s->pi.inner_proto;
		s->route_dst = s->pi.inner_dst;
	} else if (iface == IFACE_CORE && !gtpu) {
		s->dir = DIR_DL;
		s->ue = s->pi.ip_dst;
		s->app_addr = s->pi.ip_src;
		s->app_port = s->pi.sport;
		s->app_proto = s->pi.ip_proto;
	}
}

/* hw: the RPS configuration when RPS is on, else NULL: off costs one load per burst. */
static inline const struct dp_rps_params *rps_on(const struct pipeline *p)
{
	const struct dp_rps_params *c = __atomic_load_n(&p->rps_params, __ATOMIC_ACQUIRE);
	return c->mode != RPS_MODE_OFF ? c : NULL;
}

/* Stage 2: applications, one trie walk for the burst. Only packets that pass their
 * session use the result; it is computed first (it has no side effects) so that
 * the termination key is known before the session lookups. */
static void stage_apps(struct pipeline *p, struct pstate *st, uint16_t n)
{
	const struct rte_acl_ctx *apps = __atomic_load_n(&p->apps, __ATOMIC_ACQUIRE);
	struct app_key ak[BURST_MAX];
	const uint8_t *akp[BURST_MAX];
	uint32_t res[BURST_MAX];
	uint16_t ai[BURST_MAX], na = 0;
	for (uint16_t i = 0; i < n; i++) {
		struct pstate *s = &st[i];
		s->app_id = 0;
		if (!apps || s->done || s->dir == DIR_NONE)
			continue;
		app_key_set(&ak[na], s->slice, s->app_addr, s->app_port, s->app_proto);
		akp[na] = (const uint8_t *)&ak[na];
		ai[na++] = i;
	}
	if (na && rte_acl_classify(apps, akp, res, na, 1) == 0)
		for (uint16_t j = 0; j < na; j++)
			st[ai[j]].app_id = res[j] ? (uint8_t)(res[j] - 1) : 0;
}

/* Stage 3: sessions, then terminations. The buckets of both lookups of every
 * packet are fetched first, so that all of the burst's misses overlap; values are
 * inline, so a hit costs no further line. */
static ALWAYS_INLINE void stage_lookups(struct pipeline *p, unsigned slot, struct pstate *st, struct dp_verdict *v,
					 uint16_t n, uint64_t now, uint64_t now_us, const int hw)
{
	uint64_t sk[BURST_MAX], tk[BURST_MAX];
	uint32_t sb[BURST_MAX][2], tb[BURST_MAX][2];
	for (uint16_t i = 0; i < n; i++) {
		struct pstate *s = &st[i];
		if (s->done || s->dir == DIR_NONE)
			continue;
		int ul = s->dir == DIR_UL;
		const struct ftable *ss = ul ? &p->ul_sess : &p->dl_sess, *ts = ul ? &p->ul_term : &p->dl_term;
		sk[i] = ul ? ul_sess_key(s->pi.ip_dst, s->pi.teid) : s->ue;
		tk[i] = term_key(s->ue, s->app_id);
		sb[i][0] = ft_b1(ss, sk[i]);
		sb[i][1] = ft_b2(ss, sk[i]);
		tb[i][0] = ft_b1(ts, tk[i]);
		tb[i][1] = ft_b2(ts, tk[i]);
		rte_prefetch0(ft_bucket(ss, sb[i][0]));
		rte_prefetch0(ft_bucket(ss, sb[i][1]));
		rte_prefetch0(ft_bucket(ts, tb[i][0]));
		rte_prefetch0(ft_bucket(ts, tb[i][1]));
	}
	for (uint16_t i = 0; i < n; i++) {
		struct pstate *s = &st[i];
		if (s->done || s->dir == DIR_NONE)
			continue;
		uint64_t val;
		if (s->dir == DIR_UL) {
			if (!ft_lookup(&p->ul_sess, sk[i], sb[i][0], sb[i][1], &val))
				session_miss(p, slot, s, &v[i], DROP_UPLINK_SESSION_MISS, now, now_us, hw);
			else if (UL_DROP(val))
				finish_drop(p, slot, s, &v[i], DROP_RULE);
			else if (UL_UE(val) != s->ue)
				finish_drop(p, slot, s, &v[i], DROP_ANTI_SPOOFING);
			else
				s->sess_meter = UL_METER(val);
		} else if (!ft_lookup(&p->dl_sess, sk[i], sb[i][0], sb[i][1], &val)) {
			session_miss(p, slot, s, &v[i], DROP_DOWNLINK_SESSION_MISS, now, now_us, hw);
		} else if (SESS_ACTION(val) == SESS_DROP) {
			finish_drop(p, slot, s, &v[i], DROP_RULE);
		} else if (SESS_ACTION(val) == SESS_BUF) {
			/* Buffer-and-notify: the controller holds the packet (no drop reason). */
			v[i].to_cpu = PKTIN_DOWNLINK_BUFFER;
			s->done = 1;
		} else {
			s->sess_meter = SESS_METER(val);
			s->peer = SESS_PEER(val);
		}
		if (!s->done)
			prefetch_meter_map(p, METER_SESSION, s->sess_meter, p->sz.session_meter);
	}
	for (uint16_t i = 0; i < n; i++) {
		struct pstate *s = &st[i];
		if (s->done || s->dir == DIR_NONE)
			continue;
		const struct ftable *ts = s->dir == DIR_UL ? &p->ul_term : &p->dl_term;
		if (!ft_lookup(ts, tk[i], tb[i][0], tb[i][1], &s->term))
			finish_drop(p, slot, s, &v[i], DROP_TERMINATION_MISS);
		else
			prefetch_meter_map(p, METER_APP, s->term.app_meter_idx, p->sz.app_meter);
	}
}

/* Stage 3b: what stage 4 reads and writes at addresses the lookups just gave (the
 * counter cell, configured meters' states), fetched for the whole burst first so
 * that these misses overlap instead of stalling one packet at a time. */
static void stage_prefetch(struct pipeline *p, unsigned slot, const struct pstate *st, uint16_t n)
{
	struct ctr *c = p->ctr[slot];
	uint32_t cells = p->sz.pre_qos_ctr > p->sz.post_qos_ctr ? p->sz.pre_qos_ctr : p->sz.post_qos_ctr;
	for (uint16_t i = 0; i < n; i++) {
		const struct pstate *s = &st[i];
		if (s->done || s->dir == DIR_NONE)
			continue;
		if (s->term.ctr_idx < cells)
			rte_prefetch0(&c[s->term.ctr_idx]);
		prefetch_meter(p, METER_SESSION, s->sess_meter, p->sz.session_meter);
		prefetch_meter(p, METER_APP, s->term.app_meter_idx, p->sz.app_meter);
	}
}

/* Stage 4: counters, meters, tunnel peer, routing, TTL; egress: counter, rewrite. */
static ALWAYS_INLINE void stage_finish(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
					struct dp_verdict *v, uint64_t now, uint64_t now_us, const int hw)
{
	if (s->done)
		return;
	if (hw && s->vx_off) {
		vxlan_transit(p, slot, m, s, v);
		return;
	}
	if (s->dir != DIR_NONE) {
		count(p->ctr[slot], p->ctr_dirty[slot], CTR_PRE_QOS, s->term.ctr_idx, p->sz.pre_qos_ctr, s->len);
		if (s->term.action == TERM_DROP) {
			finish_drop(p, slot, s, v, DROP_RULE);
			return;
		}
		/* Both meters run (and take tokens) as in the P4, then either red drops. */
		int red = meter_red(p, METER_SESSION, s->sess_meter, p->sz.session_meter, s->len, now);
		red |= meter_red(p, METER_APP, s->term.app_meter_idx, p->sz.app_meter, s->len, now);
		if (red) {
			finish_drop(p, slot, s, v, DROP_METER_RED);
			return;
		}
		if (s->dir == DIR_DL) {
			uint64_t ig = __atomic_load_n(&p->ig_peer[s->peer], __ATOMIC_ACQUIRE);
			if (!(ig >> 32)) {
				finish_drop(p, slot, s, v, DROP_ROUTING_MISS);
				return;
			}
			s->route_dst = (uint32_t)ig;
		}
		if (hw) {
			hh_stage(p, s, v, now_us, 0);
			cls_stage(p, s, now_us);
		}
	}
	uint32_t nh;
	if (s->pi.eth_type != 0x0800 || !lpm_lookup(p->routes, s->route_dst, &nh)) {
		finish_drop(p, slot, s, v, DROP_ROUTING_MISS);
		return;
	}
	const struct route *r = (const struct route *)(p->route_pool.mem + (size_t)nh * p->route_pool.elem);
	uint8_t *user_ip = s->frame + (s->dir == DIR_UL ? s->pi.inner : s->pi.l3);
	if (!s->local_reply && !pkt_ipv4_ttl_dec(user_ip)) {
		finish_drop(p, slot, s, v, DROP_TTL_EXPIRED);
		return;
	}
	if (s->tenant == TENANT_VXLAN && !tenant_slice(p, slot, s, v, now, 1))
		return;
	/* Egress */
	if (s->dir != DIR_NONE)
		count(p->ctr[slot], p->ctr_dirty[slot], CTR_POST_QOS, s->term.ctr_idx, p->sz.post_qos_ctr, s->len);
	if (s->dir == DIR_UL) {
		uint8_t *start;
		uint32_t nlen = pkt_gtpu_decap(s->frame, s->flen, &s->pi, &start);
		rte_pktmbuf_adj(m, (uint16_t)(start - s->frame));
		rte_pktmbuf_trim(m, (uint16_t)(rte_pktmbuf_pkt_len(m) - nlen));
		s->frame = start;
	} else if (s->dir == DIR_DL) {
		const struct eg_peer *ep = __atomic_load_n(&p->eg_peer[s->peer], __ATOMIC_ACQUIRE);
		if (!ep) {
			finish_drop(p, slot, s, v, DROP_NONE);  /* egress drop: the P4 counts no reason */
			return;
		}
		struct encap_params e = { ep->src, ep->dst, ep->sport, s->term.teid, s->term.qfi,
					  __atomic_load_n(&p->encap_psc, __ATOMIC_RELAXED) };
		uint32_t hl = pkt_encap_len(e.with_psc);
		uint32_t ip_len = (uint32_t)(user_ip[2] << 8 | user_ip[3]);
		uint8_t *start = (uint8_t *)rte_pktmbuf_prepend(m, (uint16_t)hl);
		if (!start) {
			finish_drop(p, slot, s, v, DROP_PARSER_ERROR);
			return;
		}
		rte_pktmbuf_trim(m, (uint16_t)(rte_pktmbuf_pkt_len(m) - (s->pi.l3 + hl + ip_len)));
		pkt_gtpu_encap(start, s->pi.l3, ip_len, &e);
		s->frame = start;
	}
	if (s->tenant)
		mark_dscp(s->frame + s->pi.l3, s->dscp);
	if (s->dir == DIR_DL) {
		const struct dp_vx_peer *vx = __atomic_load_n(&p->vx_peer[s->peer], __ATOMIC_ACQUIRE);
		if (vx && !vxlan_reencap(p, slot, m, s, v, vx))
			return;
	}
	pkt_set_macs(s->frame, r->src_mac, r->dst_mac);
	v->fwd = 1;
	v->out_port = r->port;
	v->prio = queue_of(p, s, s->dir != DIR_NONE ? s->term.tc : 0);
}

/* One burst of at most BURST_MAX; hw is a constant at each call, so the sw profile's
 * copy has none of the hw stages' tests on its path. */
static ALWAYS_INLINE void process_burst(struct pipeline *p, unsigned slot, struct rte_mbuf **m, uint16_t n,
					struct dp_verdict *v, uint64_t now, const int hw)
{
	struct pstate st[BURST_MAX];
	uint64_t now_us = hw ? dp_now_us() : 0;
	const struct dp_rps_params *rps = hw ? rps_on(p) : NULL;
	for (uint16_t i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(m[i], void *));
	uint8_t acl[BURST_MAX];
	for (uint16_t i = 0; i < n; i++)
		stage_parse(p, slot, m[i], &st[i], &v[i], now, hw);
	stage_acl(p, m, st, n, acl);
	for (uint16_t i = 0; i < n; i++)
		stage_classify(p, slot, m[i], &st[i], &v[i], acl[i], hw);
	if (hw && rps)
		stage_rps_flows(p, m, st, n);
	stage_apps(p, st, n);
	stage_lookups(p, slot, st, v, n, now, now_us, hw);
	stage_prefetch(p, slot, st, n);
	for (uint16_t i = 0; i < n; i++)
		stage_finish(p, slot, m[i], &st[i], &v[i], now, now_us, hw);
	if (hw && rps)
		stage_rps_observe(p, slot, st, v, n, rps, (uint32_t)now_us);
}

void dp_process_burst(struct pipeline *p, unsigned slot, struct rte_mbuf **m, uint16_t n,
		      struct dp_verdict *v)
{
	uint64_t now = dp_now();
	for (uint16_t done = 0; done < n;) {
		uint16_t k = n - done > BURST_MAX ? BURST_MAX : n - done;
		if (p->sz.hw)
			process_burst(p, slot, m + done, k, v + done, now, 1);
		else
			process_burst(p, slot, m + done, k, v + done, now, 0);
		done += k;
	}
}
