/* hw profile: MATADOR, the arithmetic of p4src/include/classifier.p4 (and of its model
 * tools/hupf_tools/model/features.py) on the pipeline's flow slots. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_malloc.h>
#include "dp_int.h"

/* alpha = 1 - 2^-s; the first sample initialises the average. A shift of 32 or more
 * gives 0 in P4 (undefined in C). */
static uint32_t ewma(uint32_t avg, uint32_t sample, uint8_t s)
{
	if (avg == 0)
		return sample;
	return avg - (s < 32 ? avg >> s : 0) + (s < 32 ? sample >> s : 0);
}

static int decision_cmp(const void *a, const void *b)
{
	return memcmp(((const struct dp_decision *)a)->codes, ((const struct dp_decision *)b)->codes, DP_CLS_FEATURES);
}

static uint8_t classify(const struct dp_cls_slot *s, const struct dp_cls_tables *t)
{
	const uint32_t f[DP_CLS_FEATURES] = { s->pkts_up, s->pkts_dn, s->ps_up, s->ps_dn, s->ipg_up, s->ipg_dn };
	struct dp_decision key = { { 0 }, 0 };
	for (int i = 0; i < DP_CLS_FEATURES; i++)
		key.codes[i] = (uint8_t)dp_range_lookup(t->ranges[i], t->nranges[i], f[i]);
	const struct dp_decision *d = t->ndecisions ?
		bsearch(&key, t->decisions, t->ndecisions, sizeof(key), decision_cmp) : NULL;
	return d ? d->cls : 0;
}

uint8_t dp_cls_step(struct dp_cls_slot *s, int uplink, uint32_t ip_len, uint64_t ts_us,
		    const struct dp_cls_params *prm, const struct dp_cls_tables *t)
{
	uint32_t ts = (uint32_t)ts_us;   /* the P4 keeps the low 32 bits of the timestamp */
	if (s->win_start == 0) {
		s->win_start = ts;
	} else if (ts - s->win_start >= prm->window_us) {
		s->cls = classify(s, t);   /* the finished window classifies the flow */
		s->pkts_up = s->pkts_dn = 0;
		s->win_start = ts;
	}
	uint8_t sh = prm->alpha_shift;
	if (uplink) {
		s->pkts_up++;
		s->ps_up = ewma(s->ps_up, ip_len, sh);
		if (s->last_up != 0)
			s->ipg_up = ewma(s->ipg_up, ts - s->last_up, sh);
		s->last_up = ts;
	} else {
		s->pkts_dn++;
		s->ps_dn = ewma(s->ps_dn, ip_len, sh);
		if (s->last_dn != 0)
			s->ipg_dn = ewma(s->ipg_dn, ts - s->last_dn, sh);
		s->last_dn = ts;
	}
	return s->cls;
}

void cls_packet(struct pipeline *p, int uplink, uint32_t ue, uint32_t app, uint16_t ue_port, uint16_t app_port,
		uint8_t proto, uint32_t ip_len, uint64_t ts_us)
{
	struct dp_cls_tables t;
	for (int i = 0; i < DP_CLS_FEATURES; i++) {
		const struct range_set *r = __atomic_load_n(&p->cls_ranges[i], __ATOMIC_ACQUIRE);
		t.ranges[i] = r ? r->r : NULL;
		t.nranges[i] = r ? r->n : 0;
	}
	const struct decision_set *d = __atomic_load_n(&p->decisions, __ATOMIC_ACQUIRE);
	t.decisions = d ? d->d : NULL;
	t.ndecisions = d ? d->n : 0;
	uint32_t idx = dp_hh_5tuple_key(ue, app, ue_port, app_port, proto) % p->sz.cls_slots;
	dp_cls_step(&p->cls[idx], uplink, ip_len, ts_us, __atomic_load_n(&p->cls_params, __ATOMIC_ACQUIRE), &t);
}

/* ---- control-plane writes (single writer; readers see whole objects) ---- */

int dp_cls_config(const struct dp_cls_params *prm)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	return dp_publish_copy((void **)&p->cls_params, prm, sizeof(*prm));
}

int dp_cls_ranges_replace(unsigned feature, const struct dp_range *r, uint32_t n)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (feature >= DP_CLS_FEATURES)
		return -EINVAL;
	return dp_range_set_replace(&p->cls_ranges[feature], r, n);
}

int dp_cls_decisions_replace(const struct dp_decision *d, uint32_t n)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	struct decision_set *set = NULL;
	if (n) {
		set = rte_malloc(NULL, sizeof(*set) + n * sizeof(set->d[0]), 0);
		if (!set)
			return -ENOMEM;
		set->n = n;
		memcpy(set->d, d, n * sizeof(set->d[0]));
		qsort(set->d, n, sizeof(set->d[0]), decision_cmp);
		for (uint32_t i = 1; i < n; i++)
			if (!decision_cmp(&set->d[i - 1], &set->d[i])) {
				rte_free(set);
				return -EINVAL;
			}
	}
	struct decision_set *old = p->decisions;
	__atomic_store_n(&p->decisions, set, __ATOMIC_RELEASE);
	return old ? dp_defer_free(old) : 0;
}

int dp_cls_slot_read(uint32_t idx, struct dp_cls_slot *out)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (idx >= p->sz.cls_slots)
		return -EINVAL;
	*out = p->cls[idx];
	return 0;
}
