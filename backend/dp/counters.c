/* Meters, counters, drop counts and the data plane's clock: the control plane's writes and reads of the
 * per-lcore cells the forwarding path updates. Meter states live in tables.c's value pools. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <rte_cycles.h>
#include "dp_int.h"

/* ---- meters and counters ---- */

int dp_meter_set(int which, uint32_t idx, const struct dp_meter_cfg *cfg)
{
	DP_PIPE_OR_ENODEV;
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
		int rc = dp_vpool_get(&p->meters, &slot);
		if (rc)
			return rc;
		*(struct meter_state *)dp_vpool_at(&p->meters, slot) = ms;
		slot++;
	}
	__atomic_store_n(&p->meter_map[which][idx], slot, __ATOMIC_RELEASE);
	return old ? dp_defer_slot(&p->meters, old - 1) : 0;
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
	DP_PIPE_OR_ENODEV;
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
	DP_PIPE_OR_ENODEV;
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

int dp_counter_read_cells(const uint32_t *idx, uint32_t n, uint64_t *counts)
{
	DP_PIPE_OR_ENODEV;
	uint32_t size = p->sz.pre_qos_ctr < p->sz.post_qos_ctr ? p->sz.pre_qos_ctr : p->sz.post_qos_ctr;
	for (uint32_t i = 0; i < n; i++)
		if (idx[i] >= size)
			return -EINVAL;
	memset(counts, 0, 4 * n * sizeof(*counts));
	for (unsigned w = 0; w < g_dp.nworkers; w++) {
		const struct ctr *c = p->ctr[w];
		for (uint32_t i = 0; i < n; i++) {
			const struct ctr *cell = &c[idx[i]];
			uint64_t *out = counts + 4 * i;
			out[0] += __atomic_load_n(&cell->pkts[CTR_PRE_QOS], __ATOMIC_RELAXED);
			out[1] += __atomic_load_n(&cell->bytes[CTR_PRE_QOS], __ATOMIC_RELAXED);
			out[2] += __atomic_load_n(&cell->pkts[CTR_POST_QOS], __ATOMIC_RELAXED);
			out[3] += __atomic_load_n(&cell->bytes[CTR_POST_QOS], __ATOMIC_RELAXED);
		}
	}
	return 0;
}

/* Sets the total: worker 0 holds the value, the others restart from zero. */
int dp_counter_write(int which, uint32_t idx, uint64_t pkts, uint64_t bytes)
{
	DP_PIPE_OR_ENODEV;
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
	__atomic_fetch_or(&p->ctr_dirty[DP_MAX_WORKERS][idx / (64 * DP_CTR_BLOCK)], 1ull << (idx / DP_CTR_BLOCK % 64),
			  __ATOMIC_SEQ_CST);
	return 0;
}

/* A word read as zero is left alone (no store to the lcore's line); the exchange, a full barrier, orders the
 * caller's later reads of the cells after the clearing. */
int dp_counter_harvest(uint64_t *bits, uint32_t nwords)
{
	DP_PIPE_OR_ENODEV;
	if (nwords > p->ctr_dirty_words)
		nwords = p->ctr_dirty_words;
	for (unsigned w = 0; w <= DP_MAX_WORKERS; w++) {
		uint64_t *d = p->ctr_dirty[w];
		if (!d)
			continue;
		for (uint32_t i = 0; i < nwords; i++)
			if (__atomic_load_n(&d[i], __ATOMIC_RELAXED))
				bits[i] |= __atomic_exchange_n(&d[i], 0, __ATOMIC_SEQ_CST);
	}
	return 0;
}

int dp_drop_read(uint32_t reason, uint64_t *pkts)
{
	DP_PIPE_OR_ENODEV;
	if (reason >= DROP_REASONS_SIZE)
		return -EINVAL;
	*pkts = 0;
	for (unsigned w = 0; w < g_dp.nworkers; w++)
		*pkts += __atomic_load_n(&p->drops[w][reason], __ATOMIC_RELAXED);
	return 0;
}
