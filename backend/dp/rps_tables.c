/* hw profile: RPS's tables as the control plane writes them (rps.config, rps.flows) and its events counters,
 * on tables.c's copy-on-write helpers. rps.c holds the algorithm the forwarding path runs, whose per-lcore
 * state tables.c allocates: kept apart, the two files do not call each other. Single writer; readers see
 * whole objects. */
#include <errno.h>
#include <stdlib.h>
#include <rte_malloc.h>
#include "dp_int.h"

static int flow_cmp(const void *a, const void *b)
{
	const struct rps_flow *x = a, *y = b;
	if (x->direction != y->direction)
		return x->direction - y->direction;
	if (x->plen != y->plen)
		return y->plen - x->plen;
	return x->prefix < y->prefix ? -1 : x->prefix > y->prefix;
}

int dp_rps_flow(int op, uint32_t prefix, uint8_t plen, uint8_t direction, uint16_t flow_id, uint32_t disc_threshold)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (op < DP_INSERT || op > DP_DELETE || plen > 32 || direction > 1 ||
	    (op != DP_DELETE && flow_id >= p->sz.rps_flows))
		return -EINVAL;
	const struct rps_flow want = { prefix & dp_prefix_mask(plen), plen, direction, flow_id, disc_threshold };
	struct rps_flow_set *old = p->rps_flows;
	uint32_t n = old ? old->n : 0, at = n;
	for (uint32_t i = 0; i < n; i++)
		if (!flow_cmp(&old->e[i], &want))
			at = i;
	uint32_t nn;
	int rc = dp_cow_count(op, at < n, n, p->sz.rps_flow_entries, &nn);
	if (rc)
		return rc;
	struct rps_flow_set *ns = NULL;
	if (nn) {
		ns = rte_zmalloc(NULL, sizeof(*ns) + nn * sizeof(ns->e[0]), 0);
		if (!ns)
			return -ENOMEM;
		for (uint32_t i = 0; i < n; i++)
			if (i != at)
				ns->e[ns->n++] = old->e[i];
		if (op != DP_DELETE)
			ns->e[ns->n++] = want;
		qsort(ns->e, ns->n, sizeof(ns->e[0]), flow_cmp);
		for (uint32_t i = 0; i < ns->n; i++) {
			struct rps_flow_group *last = ns->ngroups ? &ns->group[ns->ngroups - 1] : NULL;
			if (last && last->direction == ns->e[i].direction && last->plen == ns->e[i].plen)
				last->hi = i + 1;
			else
				ns->group[ns->ngroups++] = (struct rps_flow_group){ ns->e[i].direction, ns->e[i].plen, i, i + 1 };
		}
	}
	__atomic_store_n(&p->rps_flows, ns, __ATOMIC_RELEASE);
	return old ? dp_defer_free(old) : 0;
}


int dp_rps_config(const struct dp_rps_params *prm)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (prm->mode > RPS_MODE_HYBRID || (prm->mode != RPS_MODE_OFF && !p->rps[0]) ||
	    (prm->mode == RPS_MODE_DATA_PLANE && (prm->buffer_len == 0 || prm->buffer_len > p->sz.rps_buffer)))
		return -EINVAL;
	return dp_publish_copy((void **)&p->rps_params, prm, sizeof(*prm));
}

/* The hw pipeline when idx is one of its events cells (it has RPS state); else NULL with *err set. */
static struct pipeline *events_pipe(uint32_t idx, int *err)
{
	struct pipeline *p = dp_hw_pipe(err);
	if (p && (idx >= DP_RPS_EVENT_CELLS || !p->rps[0]))
		*err = -EINVAL;
	return *err ? NULL : p;
}

int dp_rps_events_read(uint32_t idx, uint64_t *pkts)
{
	int err;
	struct pipeline *p = events_pipe(idx, &err);
	if (!p)
		return err;
	*pkts = 0;
	for (unsigned w = 0; w < g_dp.nworkers; w++)
		*pkts += __atomic_load_n(&p->rps[w]->events[idx], __ATOMIC_RELAXED);
	return 0;
}

/* Sets the total: worker 0 holds the value, the others restart from zero. */
int dp_rps_events_write(uint32_t idx, uint64_t pkts)
{
	int err;
	struct pipeline *p = events_pipe(idx, &err);
	if (!p)
		return err;
	for (unsigned w = 0; w < g_dp.nworkers; w++)
		__atomic_store_n(&p->rps[w]->events[idx], w ? 0 : pkts, __ATOMIC_RELAXED);
	return 0;
}
