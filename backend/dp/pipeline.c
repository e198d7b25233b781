/* The sw profile's ingress/egress on a burst of mbufs. Stages run over the whole
 * burst so that hash lookups are done in bulk (rte_hash prefetches buckets and
 * keys for the whole burst) instead of one dependent cache miss at a time. */
#include <string.h>
#include <rte_cycles.h>
#include <rte_prefetch.h>
#include "dp_int.h"
#include "pkt.h"

#define BURST_MAX 64

enum dir { DIR_NONE = 0, DIR_UL, DIR_DL };

struct pstate {
	struct pkt_info pi;
	uint8_t *frame;
	uint32_t len;          /* original frame length: what counters and meters see */
	uint8_t dir, slice, app_id, done, local_reply;
	uint32_t ue, app_addr, route_dst;
	uint16_t app_port;
	uint8_t app_proto;
	uint32_t sess_meter;
	uint8_t peer;
	struct dp_term term;
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

static uint8_t app_lookup(const struct ruleset_apps *rs, const struct pstate *s)
{
	if (!rs)
		return 0;
	for (uint32_t i = 0; i < rs->n; i++) {
		const struct dp_app_rule *r = &rs->r[i];
		if (r->slice_id == s->slice && (s->app_addr & r->addr_mask) == r->addr &&
		    s->app_port >= r->port_lo && s->app_port <= r->port_hi &&
		    (s->app_proto & r->proto_mask) == r->proto)
			return r->app_id;
	}
	return 0;
}

static inline int mac_match(const uint8_t *a, const uint8_t *v, const uint8_t *m)
{
	for (int i = 0; i < 6; i++)
		if ((a[i] & m[i]) != v[i])
			return 0;
	return 1;
}

static uint8_t acl_lookup(const struct ruleset_acl *rs, const struct pstate *s, uint16_t in_port)
{
	if (!rs || !rs->n)
		return ACL_NOP;
	const struct pkt_info *pi = &s->pi;
	uint16_t eth_type = (uint16_t)(s->frame[12] << 8 | s->frame[13]);  /* outer, as in the P4 key */
	uint16_t sport = pi->ip_proto == 6 || pi->ip_proto == 17 ? pi->sport : 0;
	uint16_t dport = pi->ip_proto == 6 || pi->ip_proto == 17 ? pi->dport : 0;
	for (uint32_t i = 0; i < rs->n; i++) {
		const struct dp_acl_rule *r = &rs->r[i];
		if ((in_port & r->port_mask) == r->port && mac_match(s->frame + 6, r->eth_src, r->eth_src_mask) &&
		    mac_match(s->frame, r->eth_dst, r->eth_dst_mask) &&
		    (eth_type & r->eth_type_mask) == r->eth_type &&
		    (pi->ip_src & r->ip_src_mask) == r->ip_src && (pi->ip_dst & r->ip_dst_mask) == r->ip_dst &&
		    (pi->ip_proto & r->proto_mask) == r->proto && (sport & r->sport_mask) == r->sport &&
		    (dport & r->dport_mask) == r->dport)
			return r->action;
	}
	return ACL_NOP;
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

static inline void count(struct ctr *c, uint32_t idx, uint32_t size, uint32_t len)
{
	if (idx < size) {
		c[idx].pkts++;
		c[idx].bytes += len;
	}
}

/* Stage 1: parse, ACL (on the packet as received), interfaces, echo. */
static void stage_classify(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
			   struct dp_verdict *v, uint16_t in_port)
{
	memset(v, 0, sizeof(*v));
	s->done = s->local_reply = 0;
	s->dir = DIR_NONE;
	s->frame = rte_pktmbuf_mtod(m, uint8_t *);
	s->len = rte_pktmbuf_pkt_len(m);
	enum parse_err e = rte_pktmbuf_is_contiguous(m) ? pkt_parse(s->frame, s->len, &s->pi) : PARSE_TRUNCATED;
	if (e == PARSE_BAD_GTPU || e == PARSE_BAD_INNER) {
		finish_drop(p, slot, s, v, DROP_MALFORMED_GTPU);
		return;
	}
	if (e == PARSE_TRUNCATED || e == PARSE_BAD_IPV4) {
		finish_drop(p, slot, s, v, DROP_PARSER_ERROR);
		return;
	}
	uint8_t acl = acl_lookup(__atomic_load_n(&p->acl, __ATOMIC_ACQUIRE), s, in_port);
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
		if (g_dp.cpu_pool)
			v->cpu_copy = rte_pktmbuf_copy(m, g_dp.cpu_pool, 0, UINT32_MAX);
	}
	s->route_dst = s->pi.ip_dst;
	uint32_t nh;
	int gtpu = s->pi.gtpu != 0;
	if (e == PARSE_NOT_IPV4 || !lpm_lookup(p->iface[gtpu], s->pi.ip_dst, &nh))
		return;
	uint8_t iface = nh >> 8;
	s->slice = nh & 0xf;
	if (iface == IFACE_ACCESS && gtpu) {
		if (s->pi.gtpu_type == GTPU_MSG_ECHO_REQ) {
			uint32_t nlen = pkt_gtpu_echo_reply(s->frame, s->len, m->buf_len - m->data_off, &s->pi);
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

/* Stage 2: sessions, looked up in bulk per direction. */
static void stage_sessions(struct pipeline *p, unsigned slot, struct pstate *st, struct dp_verdict *v,
			   uint16_t n)
{
	struct ul_sess_key ulk[BURST_MAX];
	const void *ulkp[BURST_MAX], *dlkp[BURST_MAX];
	void *uld[BURST_MAX], *dld[BURST_MAX];
	uint16_t uli[BURST_MAX], dli[BURST_MAX];
	unsigned nul = 0, ndl = 0;
	for (uint16_t i = 0; i < n; i++) {
		struct pstate *s = &st[i];
		if (s->done || s->dir == DIR_NONE)
			continue;
		if (s->dir == DIR_UL) {
			ulk[nul] = (struct ul_sess_key){ s->pi.ip_dst, s->pi.teid };
			ulkp[nul] = &ulk[nul];
			uli[nul++] = i;
		} else {
			dlkp[ndl] = &s->ue;
			dli[ndl++] = i;
		}
	}
	uint64_t ulhit = 0, dlhit = 0;
	if (nul)
		rte_hash_lookup_bulk_data(p->ul_sess.h, ulkp, nul, &ulhit, uld);
	if (ndl)
		rte_hash_lookup_bulk_data(p->dl_sess.h, dlkp, ndl, &dlhit, dld);
	for (unsigned j = 0; j < nul; j++) {
		struct pstate *s = &st[uli[j]];
		if (!(ulhit >> j & 1)) {
			finish_drop(p, slot, s, &v[uli[j]], DROP_UPLINK_SESSION_MISS);
			continue;
		}
		uint64_t val = (uint64_t)(uintptr_t)uld[j];
		if (UL_DROP(val))
			finish_drop(p, slot, s, &v[uli[j]], DROP_RULE);
		else if (UL_UE(val) != s->ue)
			finish_drop(p, slot, s, &v[uli[j]], DROP_ANTI_SPOOFING);
		else
			s->sess_meter = UL_METER(val);
	}
	for (unsigned j = 0; j < ndl; j++) {
		struct pstate *s = &st[dli[j]];
		uint64_t val = (uint64_t)(uintptr_t)dld[j];
		if (!(dlhit >> j & 1)) {
			finish_drop(p, slot, s, &v[dli[j]], DROP_DOWNLINK_SESSION_MISS);
		} else if (SESS_ACTION(val) == SESS_DROP) {
			finish_drop(p, slot, s, &v[dli[j]], DROP_RULE);
		} else if (SESS_ACTION(val) == SESS_BUF) {
			/* Buffer-and-notify: the controller holds the packet (no drop reason). */
			v[dli[j]].to_cpu = PKTIN_DOWNLINK_BUFFER;
			s->done = 1;
		} else {
			s->sess_meter = SESS_METER(val);
			s->peer = SESS_PEER(val);
		}
	}
}

/* Stage 3: applications, then terminations in bulk. */
static void stage_terms(struct pipeline *p, unsigned slot, struct pstate *st, struct dp_verdict *v, uint16_t n)
{
	const struct ruleset_apps *apps = __atomic_load_n(&p->apps, __ATOMIC_ACQUIRE);
	struct term_key k[2][BURST_MAX];
	const void *kp[2][BURST_MAX];
	void *d[2][BURST_MAX];
	uint16_t idx[2][BURST_MAX];
	unsigned cnt[2] = { 0, 0 };
	for (uint16_t i = 0; i < n; i++) {
		struct pstate *s = &st[i];
		if (s->done || s->dir == DIR_NONE)
			continue;
		s->app_id = app_lookup(apps, s);
		unsigned t = s->dir == DIR_DL;
		k[t][cnt[t]] = (struct term_key){ s->ue, s->app_id };
		kp[t][cnt[t]] = &k[t][cnt[t]];
		idx[t][cnt[t]++] = i;
	}
	struct xtable *tab[2] = { &p->ul_term, &p->dl_term };
	for (unsigned t = 0; t < 2; t++) {
		uint64_t hit = 0;
		if (!cnt[t])
			continue;
		rte_hash_lookup_bulk_data(tab[t]->h, kp[t], cnt[t], &hit, d[t]);
		/* Values live apart from the keys: fetch them all before the first is read. */
		for (unsigned j = 0; j < cnt[t]; j++)
			if (hit >> j & 1)
				rte_prefetch0(xtable_slot(tab[t], d[t][j]));
		for (unsigned j = 0; j < cnt[t]; j++) {
			struct pstate *s = &st[idx[t][j]];
			if (!(hit >> j & 1)) {
				finish_drop(p, slot, s, &v[idx[t][j]], DROP_TERMINATION_MISS);
				continue;
			}
			s->term = *(const struct dp_term *)xtable_slot(tab[t], d[t][j]);
		}
	}
}

/* Stage 4: counters, meters, tunnel peer, routing, TTL; egress: counter, rewrite. */
static void stage_finish(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
			 struct dp_verdict *v, uint64_t now)
{
	if (s->done)
		return;
	if (s->dir != DIR_NONE) {
		count(p->ctr[CTR_PRE_QOS][slot], s->term.ctr_idx, p->sz.pre_qos_ctr, s->len);
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
	/* Egress */
	if (s->dir != DIR_NONE)
		count(p->ctr[CTR_POST_QOS][slot], s->term.ctr_idx, p->sz.post_qos_ctr, s->len);
	if (s->dir == DIR_UL) {
		uint8_t *start;
		uint32_t nlen = pkt_gtpu_decap(s->frame, s->len, &s->pi, &start);
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
	pkt_set_macs(s->frame, r->src_mac, r->dst_mac);
	v->fwd = 1;
	v->out_port = r->port;
}

void dp_process_burst(struct pipeline *p, unsigned slot, struct rte_mbuf **m, uint16_t n,
		      struct dp_verdict *v)
{
	struct pstate st[BURST_MAX];
	uint64_t now = rte_rdtsc();
	while (n > BURST_MAX) {
		dp_process_burst(p, slot, m, BURST_MAX, v);
		m += BURST_MAX; v += BURST_MAX; n -= BURST_MAX;
	}
	for (uint16_t i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(m[i], void *));
	for (uint16_t i = 0; i < n; i++)
		stage_classify(p, slot, m[i], &st[i], &v[i], m[i]->port);
	stage_sessions(p, slot, st, v, n);
	stage_terms(p, slot, st, v, n);
	for (uint16_t i = 0; i < n; i++)
		stage_finish(p, slot, m[i], &st[i], &v[i], now);
}
