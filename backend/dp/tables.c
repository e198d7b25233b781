/* Table storage: the pipeline's lifecycle, value pools and deferred frees, and the
 * ternary tables' replacement. Single writer (the agent serialises calls); readers
 * are the forwarding lcores, which never take a lock. Anything a reader may still
 * hold is queued here and released in dp_commit() after an RCU grace period. The
 * tables' writes are in upf_tables.c, tenant_tables.c, rps_tables.c, counters.c. */
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

void dp_vpool_put(struct vpool *vp, uint32_t idx) { vp->free[vp->nfree++] = idx; }

int dp_defer_free(void *obj) { return defer(DEF_PTR, obj, 0); }

int dp_defer_slot(struct vpool *vp, uint32_t idx) { return defer(DEF_SLOT, vp, idx); }

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
		case DEF_SLOT: dp_vpool_put(d->obj, d->idx); break;
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

/* Takes a slot; when all are waiting for a grace period, ends one first. */
int dp_vpool_get(struct vpool *vp, uint32_t *idx)
{
	if (!vp->nfree)
		dp_commit();
	if (!vp->nfree)
		return -ENOSPC;
	*idx = vp->free[--vp->nfree];
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
	for (unsigned w = 0; w <= DP_MAX_WORKERS; w++)
		rte_free(p->ctr_dirty[w]);
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
	p->ctr_dirty_words = (uint32_t)((cells + 64 * DP_CTR_BLOCK - 1) / (64 * DP_CTR_BLOCK));
	for (unsigned w = 0; ok && w <= g_dp.nworkers; w++) {
		unsigned k = w == g_dp.nworkers ? DP_MAX_WORKERS : w;  /* the writes' bitmap is the last slot */
		ok = (p->ctr_dirty[k] = dp_zalloc_resident(8ull * p->ctr_dirty_words, 64)) != NULL;
	}
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


/* ---- ternary tables: a new trie replaces the old one ---- */

static int classifier_replace(struct rte_acl_ctx **slot, struct rte_acl_ctx *n)
{
	struct rte_acl_ctx *old = *slot;
	__atomic_store_n(slot, n, __ATOMIC_RELEASE);
	return old ? defer(DEF_ACL, old, 0) : 0;
}

int dp_apps_replace(const struct dp_app_rule *r, uint32_t n)
{
	DP_PIPE_OR_ENODEV;
	struct rte_acl_ctx *c;
	int rc = n > p->sz.applications ? -ENOSPC : classifier_build_apps(&c, r, n);
	return rc ? rc : classifier_replace(&p->apps, c);
}

int dp_acl_replace(const struct dp_acl_rule *r, uint32_t n)
{
	DP_PIPE_OR_ENODEV;
	struct rte_acl_ctx *c;
	int rc = n > p->sz.acl ? -ENOSPC : classifier_build_acl(&c, r, n);
	return rc ? rc : classifier_replace(&p->acl, c);
}
