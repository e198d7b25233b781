/* hw profile: HK-IPG heavy-hitter detection, the arithmetic of p4src/include/hh.p4
 * (and of its model tools/hupf_tools/model/hkipg.py) on the pipeline's slots. */
#include <errno.h>
#include <string.h>
#include <rte_malloc.h>
#include "dp_int.h"

#define MASK48 ((1ull << 48) - 1)

uint32_t dp_hh_5tuple_key(uint32_t ue, uint32_t app, uint16_t ue_port, uint16_t app_port, uint8_t proto)
{
	const uint8_t b[13] = { ue >> 24, ue >> 16, ue >> 8, ue, app >> 24, app >> 16, app >> 8, app,
				ue_port >> 8, ue_port, app_port >> 8, app_port, proto };
	return dp_crc32(b, sizeof(b));
}

uint16_t dp_range_lookup(const struct dp_range *r, uint32_t n, uint32_t v)
{
	for (uint32_t i = 0; i < n; i++)
		if (r[i].lo <= v && v <= r[i].hi)
			return r[i].value;
	return 0;
}

int dp_hh_step(struct dp_hh_slot *s, uint32_t key, uint64_t ts_us, const struct dp_hh_params *c,
	       const struct dp_range *tau, uint32_t ntau, struct dp_hh_report *rep)
{
	uint64_t ts = ts_us & MASK48;
	if (s->flow_id == 0 || (s->flow_id != key && s->ipg_ewma > c->ipg_th)) {
		/* Case 1 (empty slot) and case 3 eviction: the new flow takes the slot. */
		*s = (struct dp_hh_slot){ key, c->ipg_init, ts, 0, 0 };
		return 0;
	}
	if (s->flow_id != key) {
		s->ipg_ewma += c->decay_k;   /* case 3: a collision ages the resident flow */
		return 0;
	}
	uint64_t slot_mask = ~((uint64_t)c->timeslot_us - 1) & MASK48;
	int new_timeslot = (ts & slot_mask) != (s->last_ts & slot_mask);
	uint64_t gap = (ts - s->last_ts) & MASK48;
	uint32_t ipg = gap <= 0xFFFFFFFFu ? (uint32_t)gap : 0xFFFFFFFFu;
	/* bit<32> >> bit<8>: a shift of 32 or more gives 0 in P4 (undefined in C). */
	uint8_t sh = c->alpha_shift;
	uint32_t ewma = s->ipg_ewma;
	ewma = ewma - (sh < 32 ? ewma >> sh : 0) + (sh < 32 ? ipg >> sh : 0);
	s->ipg_ewma = ewma;
	s->last_ts = ts;
	if (!new_timeslot)
		return 0;
	uint16_t inc = dp_range_lookup(tau, ntau, ewma);
	if (inc == 0) {
		s->reported = 0;   /* slower than every tau range: the HH episode is over; tau stays */
		return 0;
	}
	uint32_t t = (uint32_t)s->tau + inc;
	s->tau = t > 0xFFFF ? 0xFFFF : (uint16_t)t;
	if (s->tau < c->tau_th)
		return 0;
	int report = s->reported == 0;
	if (report)
		*rep = (struct dp_hh_report){ key, ewma, s->tau };
	s->tau = 0;
	s->reported = 1;
	return report;
}

void hh_packet(struct pipeline *p, uint32_t ue, uint32_t app, uint16_t ue_port, uint16_t app_port, uint8_t proto,
	       uint64_t ts_us, int to_backend, const uint8_t *frame, uint32_t len, struct dp_verdict *v)
{
	const struct dp_hh_params *c = __atomic_load_n(&p->hh_params, __ATOMIC_ACQUIRE);
	const struct range_set *t = __atomic_load_n(&p->tau, __ATOMIC_ACQUIRE);
	uint32_t key = c->key_mode == HH_KEY_5TUPLE ? dp_hh_5tuple_key(ue, app, ue_port, app_port, proto) : ue;
	struct dp_hh_report r;
	if (!dp_hh_step(&p->hh[key % p->sz.hh_slots], key, ts_us, c, t ? t->r : NULL, t ? t->n : 0, &r))
		return;
	struct rte_mbuf *m = g_dp.cpu_pool ? rte_pktmbuf_alloc(g_dp.cpu_pool) : NULL;
	uint32_t n = len < HH_REPORT_PKT_BYTES ? len : HH_REPORT_PKT_BYTES;
	uint8_t *b = m ? (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(HH_REPORT_HDR_LEN + n)) : NULL;
	if (!b) {
		rte_pktmbuf_free(m);
		return;
	}
	const uint8_t hdr[HH_REPORT_HDR_LEN] = { r.flow_key >> 24, r.flow_key >> 16, r.flow_key >> 8, r.flow_key,
		r.ipg_ewma >> 24, r.ipg_ewma >> 16, r.ipg_ewma >> 8, r.ipg_ewma, r.tau >> 8, r.tau,
		to_backend ? HH_FLAG_BACKEND : 0, 0 };
	memcpy(b, hdr, sizeof(hdr));
	memcpy(b + HH_REPORT_HDR_LEN, frame, n);
	/* One clone per packet, as in v1model: the later clone (this one) replaces an ACL copy. */
	rte_pktmbuf_free(v->cpu_copy);
	v->cpu_copy = m;
	v->copy_reason = PKTIN_HH_REPORT;
}

/* ---- control-plane writes (single writer; readers see whole objects) ---- */

int dp_hh_config(const struct dp_hh_params *prm)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	return dp_publish_copy((void **)&p->hh_params, prm, sizeof(*prm));
}

int dp_tau_replace(const struct dp_range *r, uint32_t n)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	return dp_range_set_replace(&p->tau, r, n);
}

int dp_range_set_replace(struct range_set **slot, const struct dp_range *r, uint32_t n)
{
	struct range_set *set = NULL;
	if (n) {
		set = rte_malloc(NULL, sizeof(*set) + n * sizeof(set->r[0]), 0);
		if (!set)
			return -ENOMEM;
		set->n = n;
		memcpy(set->r, r, n * sizeof(set->r[0]));
	}
	struct range_set *old = *slot;
	__atomic_store_n(slot, set, __ATOMIC_RELEASE);
	return old ? dp_defer_free(old) : 0;
}

int dp_hh_slot_read(uint32_t idx, struct dp_hh_slot *out)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (idx >= p->sz.hh_slots)
		return -EINVAL;
	*out = p->hh[idx];
	return 0;
}
