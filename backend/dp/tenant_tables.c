/* The VXLAN tenants, their slices and the traffic classes' queues: control-plane writes and the readers'
 * tenant lookup. On tables.c's copy-on-write helpers; single writer, lock-free readers (tables.c). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <rte_malloc.h>
#include "dp_int.h"

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
	DP_PIPE_OR_ENODEV;
	if (dp_check_op(op) || t->vni >> 24 || t->dscp >> 6 || t->tc >> 2)
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
	return old ? dp_defer_free(old) : 0;
}

/* ---- slices: one cell per (tenant id, QFI), written in place ---- */

int dp_slice(int op, const struct dp_slice *s)
{
	DP_PIPE_OR_ENODEV;
	uint32_t cell = slice_cell(s->tenant_id, s->qfi);
	if (dp_check_op(op) || s->qfi >> 6 || s->tc >> 2 || s->dscp >> 6 || cell >= p->sz.slice_cells)
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
	DP_PIPE_OR_ENODEV;
	if (dp_check_op(op) || tc > 3 || qid > 7)
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
