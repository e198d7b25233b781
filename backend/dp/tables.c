/* Table storage and control-plane writes. Single writer (the agent serialises
 * calls); readers are the forwarding lcores, which never take a lock. Anything
 * a reader may still hold is queued here and released in dp_commit() after an
 * RCU grace period. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <rte_malloc.h>
#include <rte_lcore.h>
#include "dp_int.h"
#include "mem.h"

struct dp_ctx g_dp;

enum defer_kind { DEF_SLOT, DEF_PTR, DEF_PIPE, DEF_ACL };
struct deferred {
	enum defer_kind kind;
	void *obj;        /* vpool, pointer, pipeline or rte_acl context */
	uint32_t idx;
};
static struct deferred *g_defer;
static uint32_t g_ndefer, g_capdefer;

static void pipeline_free(struct pipeline *p);

static int defer(enum defer_kind kind, void *obj, uint32_t idx)
{
	if (g_ndefer == g_capdefer) {
		uint32_t cap = g_capdefer ? 2 * g_capdefer : 1024;
		struct deferred *d = realloc(g_defer, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		g_defer = d;
		g_capdefer = cap;
	}
	g_defer[g_ndefer++] = (struct deferred){ kind, obj, idx };
	return 0;
}

static void vpool_put(struct vpool *vp, uint32_t idx) { vp->free[vp->nfree++] = idx; }

int dp_defer_free(void *obj) { return defer(DEF_PTR, obj, 0); }

int dp_cow_count(int op, int found, uint32_t n, uint32_t cap, uint32_t *nn)
{
	if (op == DP_INSERT && found)
		return -EEXIST;
	if (op != DP_INSERT && !found)
		return -ENOENT;
	if (op == DP_INSERT && n >= cap)
		return -ENOSPC;
	*nn = op == DP_INSERT ? n + 1 : op == DP_DELETE ? n - 1 : n;
	return 0;
}

int dp_publish_copy(void **slot, const void *src, size_t len)
{
	void *n = rte_malloc(NULL, len, 0);
	if (!n)
		return -ENOMEM;
	memcpy(n, src, len);
	void *old = *slot;
	__atomic_store_n(slot, n, __ATOMIC_RELEASE);
	return old ? dp_defer_free(old) : 0;
}

void dp_commit(void)
{
	if (!g_ndefer)
		return;
	rte_rcu_qsbr_synchronize(g_dp.qs, RTE_QSBR_THRID_INVALID);
	for (uint32_t i = 0; i < g_ndefer; i++) {
		struct deferred *d = &g_defer[i];
		switch (d->kind) {
		case DEF_SLOT: vpool_put(d->obj, d->idx); break;
		case DEF_PTR: rte_free(d->obj); break;
		case DEF_PIPE: pipeline_free(d->obj); break;
		case DEF_ACL: rte_acl_free(d->obj); break;
		}
	}
	g_ndefer = 0;
}

/* ---- value pools ---- */

static int vpool_init(struct vpool *vp, uint32_t elem, uint32_t n)
{
	vp->elem = elem;
	vp->n = n;
	vp->mem = dp_zalloc_resident((size_t)elem * n, 64);
	vp->free = rte_malloc(NULL, sizeof(uint32_t) * n, 0);
	if (!vp->mem || !vp->free)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		vp->free[i] = n - 1 - i;
	vp->nfree = n;
	return 0;
}

static void vpool_fini(struct vpool *vp)
{
	rte_free(vp->mem);
	rte_free(vp->free);
}

static inline void *vpool_at(const struct vpool *vp, uint32_t idx) { return vp->mem + (size_t)idx * vp->elem; }

/* Takes a slot; when all are waiting for a grace period, ends one first. */
static int vpool_get(struct vpool *vp, uint32_t *idx)
{
	if (!vp->nfree)
		dp_commit();
	if (!vp->nfree)
		return -ENOSPC;
	*idx = vp->free[--vp->nfree];
	return 0;
}

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

/* ---- pipeline lifecycle ---- */

static struct rte_lpm *lpm_new(const char *name, uint32_t rules)
{
	static unsigned seq;
	char nm[64];
	snprintf(nm, sizeof(nm), "%s%u", name, seq++);
	struct rte_lpm_config c = { .max_rules = rules < 16 ? 16 : rules, .number_tbl8s = 256 };
	if (rules > 4096)
		c.number_tbl8s = rules / 16;
	struct rte_lpm *l = rte_lpm_create(nm, (int)rte_socket_id(), &c);
	if (!l)
		return NULL;
	/* tbl8 groups freed by deletes are recycled only after readers left them. */
	struct rte_lpm_rcu_config rc = { .v = g_dp.qs, .mode = RTE_LPM_QSBR_MODE_SYNC };
	if (rte_lpm_rcu_qsbr_add(l, &rc)) {
		rte_lpm_free(l);
		return NULL;
	}
	return l;
}

static void pipeline_free(struct pipeline *p)
{
	for (int i = 0; i < 2; i++)
		rte_lpm_free(p->iface[i]);
	rte_lpm_free(p->routes);
	ft_fini(&p->ul_sess);
	ft_fini(&p->dl_sess);
	ft_fini(&p->ul_term);
	ft_fini(&p->dl_term);
	vpool_fini(&p->route_pool);
	vpool_fini(&p->meters);
	for (int i = 0; i < DP_PEERS; i++) {
		rte_free(p->eg_peer[i]);
		rte_free(p->vx_peer[i]);
	}
	for (int i = 0; i < DP_SLICES; i++)
		rte_free(p->backends[i]);
	rte_free(p->hh_params);
	rte_free(p->tau);
	rte_free(p->hh);
	rte_free(p->cls_params);
	for (int i = 0; i < DP_CLS_FEATURES; i++)
		rte_free(p->cls_ranges[i]);
	rte_free(p->decisions);
	rte_free(p->cls);
	rte_acl_free(p->apps);
	rte_acl_free(p->acl);
	rte_free(p->tenants);
	rte_free(p->slices);
	rte_free(p->rps_params);
	rte_free(p->rps_flows);
	for (int k = 0; k < 4; k++)
		rte_free(p->meter_map[k]);
	for (unsigned w = 0; w < DP_MAX_WORKERS; w++) {
		rte_free(p->ctr[w]);
		rte_free(p->tctr[w]);
		rte_free(p->sctr[w]);
		dp_rps_state_free(p->rps[w]);
	}
	rte_free(p);
}

static struct pipeline *pipeline_new(const struct dp_sizes *sz)
{
	struct pipeline *p = rte_zmalloc(NULL, sizeof(*p), 64);
	if (!p)
		return NULL;
	p->sz = *sz;
	int ok = (p->iface[0] = lpm_new("if0_", sz->interfaces)) && (p->iface[1] = lpm_new("if1_", sz->interfaces)) &&
		 (p->routes = lpm_new("rt", sz->routes)) &&
		 !ft_init(&p->ul_sess, sz->ul_sessions, sizeof(uint64_t)) &&
		 !ft_init(&p->dl_sess, sz->dl_sessions, sizeof(uint64_t)) &&
		 !ft_init(&p->ul_term, sz->ul_terms, sizeof(struct dp_term)) &&
		 !ft_init(&p->dl_term, sz->dl_terms, sizeof(struct dp_term)) &&
		 !vpool_init(&p->route_pool, sizeof(struct route), sz->routes + 1024) &&
		 !vpool_init(&p->meters, sizeof(struct meter_state), sz->meter_states + 1024) &&
		 (p->meter_map[0] = dp_zalloc_resident(4ull * (sz->session_meter + 1), 64)) &&
		 (p->meter_map[1] = dp_zalloc_resident(4ull * (sz->app_meter + 1), 64)) &&
		 (p->meter_map[2] = dp_zalloc_resident(4ull * (sz->tenant_cells + 1), 64)) &&
		 (p->meter_map[3] = dp_zalloc_resident(4ull * (sz->slice_cells + 1), 64)) &&
		 (p->slices = dp_zalloc_resident(2ull * (sz->slice_cells + 1), 64));
	if (ok && sz->hw) {
		static const struct dp_hh_params def = HH_DEFAULT_PARAMS;
		static const struct dp_cls_params cdef = CLS_DEFAULT_PARAMS;
		const struct dp_rps_params rdef = RPS_DEFAULT_PARAMS(sz->rps_buffer);
		ok = (p->hh_params = rte_malloc(NULL, sizeof(def), 0)) &&
		     (p->hh = dp_zalloc_resident(sizeof(struct dp_hh_slot) * ((uint64_t)sz->hh_slots + 1), 64)) &&
		     (p->cls_params = rte_malloc(NULL, sizeof(cdef), 0)) &&
		     (p->cls = dp_zalloc_resident(sizeof(struct dp_cls_slot) * ((uint64_t)sz->cls_slots + 1), 64)) &&
		     (p->rps_params = rte_malloc(NULL, sizeof(rdef), 0));
		for (unsigned w = 0; ok && sz->rps_buffer && sz->rps_flows && w < g_dp.nworkers; w++)
			ok = (p->rps[w] = dp_rps_state_new(sz->rps_buffer, sz->rps_flows, sz->rps_track_depth)) != NULL;
		if (ok) {
			*p->hh_params = def;
			*p->cls_params = cdef;
			*p->rps_params = rdef;
		}
	}
	uint64_t cells = (sz->pre_qos_ctr > sz->post_qos_ctr ? sz->pre_qos_ctr : sz->post_qos_ctr) + 1ull;
	for (unsigned w = 0; ok && w < g_dp.nworkers; w++)
		ok = (p->ctr[w] = dp_zalloc_resident(sizeof(struct ctr) * cells, 64)) != NULL &&
		     (p->tctr[w] = dp_zalloc_resident(sizeof(struct tctr) * (sz->tenant_cells + 1ull), 64)) != NULL &&
		     (p->sctr[w] = dp_zalloc_resident(sizeof(struct tctr) * (sz->slice_cells + 1ull), 64)) != NULL;
	if (!ok) {
		pipeline_free(p);
		return NULL;
	}
	return p;
}

int dp_init(unsigned nworkers)
{
	if (nworkers == 0 || nworkers > DP_MAX_WORKERS)
		return -EINVAL;
	g_dp.nworkers = nworkers;
	size_t sz = rte_rcu_qsbr_get_memsize(DP_MAX_WORKERS);
	g_dp.qs = rte_zmalloc(NULL, sz, RTE_CACHE_LINE_SIZE);
	if (!g_dp.qs)
		return -ENOMEM;
	return rte_rcu_qsbr_init(g_dp.qs, DP_MAX_WORKERS);
}

int dp_pipeline_set(const struct dp_sizes *sz)
{
	struct pipeline *p = pipeline_new(sz);
	if (!p)
		return -ENOMEM;
	struct pipeline *old = g_dp.pipe;
	__atomic_store_n(&g_dp.pipe, p, __ATOMIC_RELEASE);
	if (old)
		defer(DEF_PIPE, old, 0);
	dp_commit();
	return 0;
}


#define PIPE_OR_ENODEV struct pipeline *p = g_dp.pipe; if (!p) return -ENODEV

static int check_op(int op) { return op >= DP_INSERT && op <= DP_DELETE ? 0 : -EINVAL; }

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
	PIPE_OR_ENODEV;
	if (gtpu_valid > 1 || (op != DP_DELETE && (iface < IFACE_ACCESS || iface > IFACE_CORE || slice > 15)))
		return -EINVAL;
	return lpm_write(p->iface[gtpu_valid], op, prefix, plen, (uint32_t)iface << 8 | slice, NULL);
}

int dp_route(int op, uint32_t prefix, uint8_t plen, const uint8_t src_mac[6], const uint8_t dst_mac[6], uint16_t port)
{
	PIPE_OR_ENODEV;
	uint32_t slot = 0, old;
	if (op != DP_DELETE) {
		int rc = vpool_get(&p->route_pool, &slot);
		if (rc)
			return rc;
		struct route *r = vpool_at(&p->route_pool, slot);
		memcpy(r->src_mac, src_mac, 6);
		memcpy(r->dst_mac, dst_mac, 6);
		r->port = port;
	}
	int rc = lpm_write(p->routes, op, prefix, plen, slot, &old);
	if (rc) {
		if (op != DP_DELETE)
			vpool_put(&p->route_pool, slot);
		return rc;
	}
	return op == DP_INSERT ? 0 : defer(DEF_SLOT, &p->route_pool, old);
}

/* ---- exact tables ---- */

int dp_ul_session(int op, uint32_t tun_dst, uint32_t teid, uint8_t action, uint32_t ue, uint32_t meter_idx)
{
	PIPE_OR_ENODEV;
	if (check_op(op) || (op != DP_DELETE && action != SESS_FWD && action != SESS_DROP))
		return -EINVAL;
	uint64_t v = ul_sess_val(action, ue, meter_idx);
	return ftable_write(&p->ul_sess, op, ul_sess_key(tun_dst, teid), &v);
}

int dp_dl_session(int op, uint32_t ue, uint8_t action, uint8_t peer, uint32_t meter_idx)
{
	PIPE_OR_ENODEV;
	if (check_op(op) || (op != DP_DELETE && (action < SESS_FWD || action > SESS_BUF)))
		return -EINVAL;
	uint64_t v = sess_val(action, peer, meter_idx);
	return ftable_write(&p->dl_sess, op, ue, &v);
}

static int term_write(struct ftable *t, int op, uint32_t ue, uint8_t app_id, const struct dp_term *tv)
{
	if (check_op(op) || (op != DP_DELETE && (!tv || (tv->action != TERM_FWD && tv->action != TERM_DROP) ||
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
	PIPE_OR_ENODEV;
	return term_write(&p->ul_term, op, ue, app_id, t);
}

int dp_dl_term(int op, uint32_t ue, uint8_t app_id, const struct dp_term *t)
{
	PIPE_OR_ENODEV;
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
	PIPE_OR_ENODEV;
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
	PIPE_OR_ENODEV;
	struct ftable *t = exact_table(p, table);
	return t ? (int64_t)t->n : -EINVAL;
}

#define DUMP_CHUNK 64  /* entries copied per ft_dump call */

int dp_exact_dump(int table, uint32_t *cursor, struct dp_exact_entry *out, uint32_t max)
{
	PIPE_OR_ENODEV;
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
	PIPE_OR_ENODEV;
	int have = (p->ig_peer[peer] >> 32) & 1;
	if (check_op(op) || (op == DP_INSERT && have))
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
	if (check_op(op) || (op == DP_INSERT && old))
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
	return old ? defer(DEF_PTR, old, 0) : 0;
}

int dp_eg_peer(int op, uint8_t peer, uint32_t src, uint32_t dst, uint16_t sport)
{
	PIPE_OR_ENODEV;
	struct eg_peer e = { src, dst, sport };
	return peer_slot_write((void **)&p->eg_peer[peer], op, &e, sizeof(e));
}

int dp_vx_peer(int op, uint8_t peer, const struct dp_vx_peer *v)
{
	PIPE_OR_ENODEV;
	if (op != DP_DELETE && v->vni >> 24)
		return -EINVAL;
	return peer_slot_write((void **)&p->vx_peer[peer], op, v, sizeof(*v));
}

int dp_set_encap_psc(int with_psc)
{
	PIPE_OR_ENODEV;
	__atomic_store_n(&p->encap_psc, (uint8_t)!!with_psc, __ATOMIC_RELEASE);
	return 0;
}

/* ---- tenants: a sorted array, copied on every write ---- */

static int64_t tenant_find(const struct tenant_set *s, uint64_t key)
{
	uint32_t lo = 0, hi = s ? s->n : 0;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (s->key[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return s && lo < s->n && s->key[lo] == key ? lo : -(int64_t)lo - 1;
}

int dp_tenant(int op, const struct dp_tenant *t)
{
	PIPE_OR_ENODEV;
	if (check_op(op) || t->vni >> 24 || t->dscp >> 6 || t->tc >> 2)
		return -EINVAL;
	struct tenant_set *old = p->tenants;
	uint32_t n = old ? old->n : 0;
	uint64_t key = tenant_key(t->vni, t->vtep);
	int64_t at = tenant_find(old, key);
	uint32_t nn;
	int rc = dp_cow_count(op, at >= 0, n, p->sz.tenants, &nn);
	if (rc)
		return rc;
	struct tenant_set *ns = NULL;
	if (nn) {
		ns = rte_malloc(NULL, sizeof(*ns) + nn * (sizeof(uint64_t) + sizeof(struct dp_tenant)), 0);
		if (!ns)
			return -ENOMEM;
		ns->n = nn;
		struct dp_tenant *nt = tenant_at(ns), *ot = old ? tenant_at(old) : NULL;
		uint32_t pos = at >= 0 ? (uint32_t)at : (uint32_t)(-at - 1), j = 0;
		for (uint32_t i = 0; i <= n; i++) {
			if (i == pos && op != DP_DELETE) {
				ns->key[j] = key;
				nt[j++] = *t;
				if (op == DP_MODIFY)
					continue;   /* the old entry at pos is replaced */
			}
			if (i == n || (i == pos && op == DP_DELETE))
				continue;
			ns->key[j] = old->key[i];
			nt[j++] = ot[i];
		}
	}
	__atomic_store_n(&p->tenants, ns, __ATOMIC_RELEASE);
	return old ? defer(DEF_PTR, old, 0) : 0;
}

/* ---- slices: one cell per (tenant id, QFI), written in place ---- */

int dp_slice(int op, const struct dp_slice *s)
{
	PIPE_OR_ENODEV;
	uint32_t cell = slice_cell(s->tenant_id, s->qfi);
	if (check_op(op) || s->qfi >> 6 || s->tc >> 2 || s->dscp >> 6 || cell >= p->sz.slice_cells)
		return -EINVAL;
	uint16_t old = p->slices[cell];
	if (op == DP_INSERT && old)
		return -EEXIST;
	if (op != DP_INSERT && !old)
		return -ENOENT;
	if (op == DP_INSERT && p->nslices >= p->sz.slices)
		return -ENOSPC;
	p->nslices += op == DP_INSERT ? 1u : op == DP_DELETE ? -1u : 0;
	__atomic_store_n(&p->slices[cell], op == DP_DELETE ? 0 : (uint16_t)(SLICE_SET | s->tc << 6 | s->dscp),
			 __ATOMIC_RELAXED);
	return 0;
}

int dp_queue(int op, uint8_t tc, uint8_t qid)
{
	PIPE_OR_ENODEV;
	if (check_op(op) || tc > 3 || qid > 7)
		return -EINVAL;
	__atomic_store_n(&p->queue[tc], op == DP_DELETE ? 0 : qid, __ATOMIC_RELAXED);
	return 0;
}

const struct dp_tenant *dp_tenant_lookup(const struct pipeline *p, uint32_t vni, uint32_t vtep)
{
	struct tenant_set *s = __atomic_load_n(&p->tenants, __ATOMIC_ACQUIRE);
	int64_t at = tenant_find(s, tenant_key(vni, vtep));
	return at >= 0 ? &tenant_at(s)[at] : NULL;
}

/* ---- ternary tables: a new trie replaces the old one ---- */

static int classifier_replace(struct rte_acl_ctx **slot, struct rte_acl_ctx *n)
{
	struct rte_acl_ctx *old = *slot;
	__atomic_store_n(slot, n, __ATOMIC_RELEASE);
	return old ? defer(DEF_ACL, old, 0) : 0;
}

int dp_apps_replace(const struct dp_app_rule *r, uint32_t n)
{
	PIPE_OR_ENODEV;
	struct rte_acl_ctx *c;
	int rc = n > p->sz.applications ? -ENOSPC : classifier_build_apps(&c, r, n);
	return rc ? rc : classifier_replace(&p->apps, c);
}

int dp_acl_replace(const struct dp_acl_rule *r, uint32_t n)
{
	PIPE_OR_ENODEV;
	struct rte_acl_ctx *c;
	int rc = n > p->sz.acl ? -ENOSPC : classifier_build_acl(&c, r, n);
	return rc ? rc : classifier_replace(&p->acl, c);
}

/* ---- meters and counters ---- */

int dp_meter_set(int which, uint32_t idx, const struct dp_meter_cfg *cfg)
{
	PIPE_OR_ENODEV;
	uint32_t size = which == METER_SESSION ? p->sz.session_meter : which == METER_APP ? p->sz.app_meter
			: which == METER_TENANT ? p->sz.tenant_cells : p->sz.slice_cells;
	if (which < METER_SESSION || which > METER_SLICE || idx >= size)
		return -EINVAL;
	uint32_t old = p->meter_map[which][idx], slot = 0;
	if (cfg) {
		struct rte_meter_trtcm_params prm = { .cir = cfg->cir, .pir = cfg->pir,
						      .cbs = cfg->cburst, .pbs = cfg->pburst };
		/* An empty committed band (a QER with an MBR and no GBR) is valid P4Runtime: every packet
		 * within the peak rate is yellow. rte_meter refuses zero rates and bursts, and a one-byte
		 * band gives the same colours, since no packet fits in one byte. */
		if (prm.cir == 0 && prm.cbs == 0 && prm.pir > 0)
			prm.cir = prm.cbs = 1;
		struct meter_state ms;
		if (cfg->pir < cfg->cir || rte_meter_trtcm_profile_config(&ms.prof, &prm) ||
		    rte_meter_trtcm_config(&ms.rt, &ms.prof))
			return -EINVAL;
		ms.rt.time_tc = ms.rt.time_tp = dp_now();  /* full buckets now, on the test clock too */
		int rc = vpool_get(&p->meters, &slot);
		if (rc)
			return rc;
		*(struct meter_state *)vpool_at(&p->meters, slot) = ms;
		slot++;
	}
	__atomic_store_n(&p->meter_map[which][idx], slot, __ATOMIC_RELEASE);
	return old ? defer(DEF_SLOT, &p->meters, old - 1) : 0;
}

void dp_clock_set(uint64_t ns)
{
	uint64_t hz = rte_get_tsc_hz();
	uint64_t tsc = ns / 1000000000ull * hz + ns % 1000000000ull * hz / 1000000000ull;
	__atomic_store_n(&g_dp.test_tsc, tsc, __ATOMIC_RELAXED);
	__atomic_store_n(&g_dp.test_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&g_dp.test_clock, 1, __ATOMIC_RELEASE);
}

uint64_t dp_now_us(void)
{
	if (__atomic_load_n(&g_dp.test_clock, __ATOMIC_ACQUIRE))
		return __atomic_load_n(&g_dp.test_ns, __ATOMIC_RELAXED) / 1000;
	return rte_rdtsc() / (rte_get_tsc_hz() / 1000000);
}

int dp_counter_read(int which, uint32_t idx, uint64_t *pkts, uint64_t *bytes)
{
	PIPE_OR_ENODEV;
	*pkts = *bytes = 0;
	if (which == CTR_TENANT || which == CTR_SLICE) {
		struct tctr *const *t = which == CTR_TENANT ? p->tctr : p->sctr;
		if (idx >= (which == CTR_TENANT ? p->sz.tenant_cells : p->sz.slice_cells))
			return -EINVAL;
		for (unsigned w = 0; w < g_dp.nworkers; w++) {
			*pkts += __atomic_load_n(&t[w][idx].pkts, __ATOMIC_RELAXED);
			*bytes += __atomic_load_n(&t[w][idx].bytes, __ATOMIC_RELAXED);
		}
		return 0;
	}
	uint32_t size = which == CTR_PRE_QOS ? p->sz.pre_qos_ctr : p->sz.post_qos_ctr;
	if ((which != CTR_PRE_QOS && which != CTR_POST_QOS) || idx >= size)
		return -EINVAL;
	for (unsigned w = 0; w < g_dp.nworkers; w++) {
		*pkts += __atomic_load_n(&p->ctr[w][idx].pkts[which], __ATOMIC_RELAXED);
		*bytes += __atomic_load_n(&p->ctr[w][idx].bytes[which], __ATOMIC_RELAXED);
	}
	return 0;
}

int dp_counter_read_range(int which, uint32_t lo, uint32_t n, uint64_t *pkts, uint64_t *bytes)
{
	PIPE_OR_ENODEV;
	if (which == CTR_TENANT || which == CTR_SLICE) {
		for (uint32_t i = 0; i < n; i++) {
			int rc = dp_counter_read(which, lo + i, &pkts[i], &bytes[i]);
			if (rc)
				return rc;
		}
		return 0;
	}
	uint32_t size = which == CTR_PRE_QOS ? p->sz.pre_qos_ctr : p->sz.post_qos_ctr;
	if ((which != CTR_PRE_QOS && which != CTR_POST_QOS) || lo > size || n > size - lo)
		return -EINVAL;
	memset(pkts, 0, n * sizeof(*pkts));
	memset(bytes, 0, n * sizeof(*bytes));
	/* Worker by worker: each pass streams one lcore's array. */
	for (unsigned w = 0; w < g_dp.nworkers; w++) {
		const struct ctr *c = p->ctr[w] + lo;
		for (uint32_t i = 0; i < n; i++) {
			pkts[i] += __atomic_load_n(&c[i].pkts[which], __ATOMIC_RELAXED);
			bytes[i] += __atomic_load_n(&c[i].bytes[which], __ATOMIC_RELAXED);
		}
	}
	return 0;
}

/* Sets the total: worker 0 holds the value, the others restart from zero. */
int dp_counter_write(int which, uint32_t idx, uint64_t pkts, uint64_t bytes)
{
	PIPE_OR_ENODEV;
	if (which == CTR_TENANT || which == CTR_SLICE) {
		struct tctr *const *t = which == CTR_TENANT ? p->tctr : p->sctr;
		if (idx >= (which == CTR_TENANT ? p->sz.tenant_cells : p->sz.slice_cells))
			return -EINVAL;
		for (unsigned w = 0; w < g_dp.nworkers; w++) {
			__atomic_store_n(&t[w][idx].pkts, w ? 0 : pkts, __ATOMIC_RELAXED);
			__atomic_store_n(&t[w][idx].bytes, w ? 0 : bytes, __ATOMIC_RELAXED);
		}
		return 0;
	}
	uint32_t size = which == CTR_PRE_QOS ? p->sz.pre_qos_ctr : p->sz.post_qos_ctr;
	if ((which != CTR_PRE_QOS && which != CTR_POST_QOS) || idx >= size)
		return -EINVAL;
	for (unsigned w = 0; w < g_dp.nworkers; w++) {
		__atomic_store_n(&p->ctr[w][idx].pkts[which], w ? 0 : pkts, __ATOMIC_RELAXED);
		__atomic_store_n(&p->ctr[w][idx].bytes[which], w ? 0 : bytes, __ATOMIC_RELAXED);
	}
	return 0;
}

int dp_drop_read(uint32_t reason, uint64_t *pkts)
{
	PIPE_OR_ENODEV;
	if (reason >= DROP_REASONS_SIZE)
		return -EINVAL;
	*pkts = 0;
	for (unsigned w = 0; w < g_dp.nworkers; w++)
		*pkts += __atomic_load_n(&p->drops[w][reason], __ATOMIC_RELAXED);
	return 0;
}
