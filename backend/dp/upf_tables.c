/* The UPF tables' control-plane writes and reads: interfaces and routes (LPM), sessions and terminations
 * (exact match), tunnel peers and their VXLAN overlays. On tables.c's storage and deferred frees; single
 * writer, lock-free readers (tables.c). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <rte_malloc.h>
#include "dp_int.h"

/* ---- exact-match tables ---- */

/* Single writer: readers copy values under the buckets' sequence locks, so
 * nothing waits for a grace period. */
static int ftable_write(struct ftable *t, int op, uint64_t key, const void *val)
{
	uint32_t b;
	unsigned sl;
	int have = ft_find(t, key, &b, &sl);
	if (op == DP_INSERT && have)
		return -EEXIST;
	if (op != DP_INSERT && !have)
		return -ENOENT;
	if (op == DP_DELETE)
		ft_delete(t, b, sl);
	else if (op == DP_MODIFY)
		ft_update(t, b, sl, val);
	else
		return ft_insert(t, key, val);
	return 0;
}

/* ---- LPM tables ---- */

static int lpm_write(struct rte_lpm *l, int op, uint32_t prefix, uint8_t plen, uint32_t nh, uint32_t *old)
{
	if (plen > 32)
		return -EINVAL;
	uint32_t mask = dp_prefix_mask(plen);
	uint32_t cur;
	int have = rte_lpm_is_rule_present(l, prefix & mask, plen, &cur) == 1;
	if (op == DP_INSERT && have)
		return -EEXIST;
	if (op != DP_INSERT && !have)
		return -ENOENT;
	if (old)
		*old = cur;
	if (op == DP_DELETE)
		return rte_lpm_delete(l, prefix & mask, plen);
	int rc = rte_lpm_add(l, prefix & mask, plen, nh);
	return rc == -ENOSPC ? -ENOSPC : rc;
}

int dp_interface(int op, uint32_t prefix, uint8_t plen, uint8_t gtpu_valid, uint8_t iface, uint8_t slice)
{
	DP_PIPE_OR_ENODEV;
	if (gtpu_valid > 1 || (op != DP_DELETE && (iface < IFACE_ACCESS || iface > IFACE_CORE || slice > 15)))
		return -EINVAL;
	return lpm_write(p->iface[gtpu_valid], op, prefix, plen, (uint32_t)iface << 8 | slice, NULL);
}

int dp_route(int op, uint32_t prefix, uint8_t plen, const uint8_t src_mac[6], const uint8_t dst_mac[6], uint16_t port)
{
	DP_PIPE_OR_ENODEV;
	uint32_t slot = 0, old;
	if (op != DP_DELETE) {
		int rc = dp_vpool_get(&p->route_pool, &slot);
		if (rc)
			return rc;
		struct route *r = dp_vpool_at(&p->route_pool, slot);
		memcpy(r->src_mac, src_mac, 6);
		memcpy(r->dst_mac, dst_mac, 6);
		r->port = port;
	}
	int rc = lpm_write(p->routes, op, prefix, plen, slot, &old);
	if (rc) {
		if (op != DP_DELETE)
			dp_vpool_put(&p->route_pool, slot);
		return rc;
	}
	return op == DP_INSERT ? 0 : dp_defer_slot(&p->route_pool, old);
}

/* ---- exact tables ---- */

int dp_ul_session(int op, uint32_t tun_dst, uint32_t teid, uint8_t action, uint32_t ue, uint32_t meter_idx)
{
	DP_PIPE_OR_ENODEV;
	if (dp_check_op(op) || (op != DP_DELETE && action != SESS_FWD && action != SESS_DROP))
		return -EINVAL;
	uint64_t v = ul_sess_val(action, ue, meter_idx);
	return ftable_write(&p->ul_sess, op, ul_sess_key(tun_dst, teid), &v);
}

int dp_dl_session(int op, uint32_t ue, uint8_t action, uint8_t peer, uint32_t meter_idx)
{
	DP_PIPE_OR_ENODEV;
	if (dp_check_op(op) || (op != DP_DELETE && (action < SESS_FWD || action > SESS_BUF)))
		return -EINVAL;
	uint64_t v = sess_val(action, peer, meter_idx);
	return ftable_write(&p->dl_sess, op, ue, &v);
}

static int term_write(struct ftable *t, int op, uint32_t ue, uint8_t app_id, const struct dp_term *tv)
{
	if (dp_check_op(op) || (op != DP_DELETE && (!tv || (tv->action != TERM_FWD && tv->action != TERM_DROP) ||
						 tv->tc > 3 || tv->qfi > 63)))
		return -EINVAL;
	struct dp_term v;
	memset(&v, 0, sizeof(v));  /* no uninitialised padding in the table */
	if (tv) {
		v.action = tv->action;
		v.tc = tv->tc;
		v.qfi = tv->qfi;
		v.ctr_idx = tv->ctr_idx;
		v.teid = tv->teid;
		v.app_meter_idx = tv->app_meter_idx;
	}
	return ftable_write(t, op, term_key(ue, app_id), &v);
}

int dp_ul_term(int op, uint32_t ue, uint8_t app_id, const struct dp_term *t)
{
	DP_PIPE_OR_ENODEV;
	return term_write(&p->ul_term, op, ue, app_id, t);
}

int dp_dl_term(int op, uint32_t ue, uint8_t app_id, const struct dp_term *t)
{
	DP_PIPE_OR_ENODEV;
	return term_write(&p->dl_term, op, ue, app_id, t);
}

static struct ftable *exact_table(struct pipeline *p, int table)
{
	switch (table) {
	case EXACT_UL_SESS: return &p->ul_sess;
	case EXACT_DL_SESS: return &p->dl_sess;
	case EXACT_UL_TERM: return &p->ul_term;
	case EXACT_DL_TERM: return &p->dl_term;
	}
	return NULL;
}

static void exact_entry(int table, uint64_t key, const uint8_t *val, struct dp_exact_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->key = key;
	uint64_t v;
	switch (table) {
	case EXACT_UL_SESS:
		memcpy(&v, val, 8);
		e->action = UL_DROP(v) ? SESS_DROP : SESS_FWD;
		e->ue = UL_UE(v);
		e->meter_idx = UL_METER(v);
		break;
	case EXACT_DL_SESS:
		memcpy(&v, val, 8);
		e->action = SESS_ACTION(v);
		e->peer = SESS_PEER(v);
		e->meter_idx = SESS_METER(v);
		break;
	default:
		memcpy(&e->term, val, sizeof(e->term));
	}
}

int dp_exact_get(int table, uint64_t key, struct dp_exact_entry *e)
{
	DP_PIPE_OR_ENODEV;
	struct ftable *t = exact_table(p, table);
	uint32_t b;
	unsigned sl;
	if (!t)
		return -EINVAL;
	if (!ft_find(t, key, &b, &sl))
		return 0;
	exact_entry(table, key, ft_value(t, b, sl), e);
	return 1;
}

int64_t dp_exact_count(int table)
{
	DP_PIPE_OR_ENODEV;
	struct ftable *t = exact_table(p, table);
	return t ? (int64_t)t->n : -EINVAL;
}

#define DUMP_CHUNK 64  /* entries copied per ft_dump call */

int dp_exact_dump(int table, uint32_t *cursor, struct dp_exact_entry *out, uint32_t max)
{
	DP_PIPE_OR_ENODEV;
	struct ftable *t = exact_table(p, table);
	if (!t || max < t->slots)
		return -EINVAL;
	uint64_t keys[DUMP_CHUNK];
	uint8_t vals[DUMP_CHUNK * 16];
	uint32_t n = 0;
	while (*cursor < t->nb && max - n >= t->slots) {
		uint32_t room = max - n < DUMP_CHUNK ? max - n : DUMP_CHUNK;
		uint32_t got = ft_dump(t, cursor, keys, vals, room);
		for (uint32_t i = 0; i < got; i++)
			exact_entry(table, keys[i], vals + (size_t)i * t->vlen, &out[n + i]);
		n += got;
	}
	if (*cursor >= t->nb)
		*cursor = UINT32_MAX;
	return (int)n;
}

int dp_ig_peer(int op, uint8_t peer, uint32_t dst)
{
	DP_PIPE_OR_ENODEV;
	int have = (p->ig_peer[peer] >> 32) & 1;
	if (dp_check_op(op) || (op == DP_INSERT && have))
		return op == DP_INSERT ? -EEXIST : -EINVAL;
	if (op != DP_INSERT && !have)
		return -ENOENT;
	uint64_t v = op == DP_DELETE ? 0 : (1ull << 32 | dst);
	__atomic_store_n(&p->ig_peer[peer], v, __ATOMIC_RELEASE);
	return 0;
}

/* A per-peer value behind a pointer (NULL: no entry), replaced whole: the readers load the
 * pointer, the old value is freed after a grace period. */
static int peer_slot_write(void **slot, int op, const void *val, size_t len)
{
	void *old = *slot, *n = NULL;
	if (dp_check_op(op) || (op == DP_INSERT && old))
		return op == DP_INSERT ? -EEXIST : -EINVAL;
	if (op != DP_INSERT && !old)
		return -ENOENT;
	if (op != DP_DELETE) {
		n = rte_malloc(NULL, len, 0);
		if (!n)
			return -ENOMEM;
		memcpy(n, val, len);
	}
	__atomic_store_n(slot, n, __ATOMIC_RELEASE);
	return old ? dp_defer_free(old) : 0;
}

int dp_eg_peer(int op, uint8_t peer, uint32_t src, uint32_t dst, uint16_t sport)
{
	DP_PIPE_OR_ENODEV;
	struct eg_peer e = { src, dst, sport };
	return peer_slot_write((void **)&p->eg_peer[peer], op, &e, sizeof(e));
}

int dp_vx_peer(int op, uint8_t peer, const struct dp_vx_peer *v)
{
	DP_PIPE_OR_ENODEV;
	if (op != DP_DELETE && v->vni >> 24)
		return -EINVAL;
	return peer_slot_write((void **)&p->vx_peer[peer], op, v, sizeof(*v));
}

int dp_set_encap_psc(int with_psc)
{
	DP_PIPE_OR_ENODEV;
	__atomic_store_n(&p->encap_psc, (uint8_t)!!with_psc, __ATOMIC_RELEASE);
	return 0;
}
