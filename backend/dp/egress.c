/* Egress QoS of a rate-limited TX port on DPDK's hierarchical scheduler (rte_sched): one
 * subport and one pipe, both at the port's rate, so that the port's rate is the only limit and
 * the pipe's traffic classes give strict priority. v1model priority p goes to rte_sched class
 * BE - p: rte_sched serves class 0 first and the best-effort class (12) last, bmv2 serves the
 * highest priority first, so priority 0 is best effort and 7 the first served.
 *
 * With several forwarding lcores, one owns the scheduler (as DPDK's qos_sched sample and BESS do:
 * rte_sched takes no lock); the others hand it their packets over an MPSC rte_ring, each packet's
 * rte_sched queue already written in its mbuf, and count what a full ring refuses in counters of
 * their own. No lock, and the owner's own packets take no ring. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_ring.h>
#include <rte_sched.h>
#include "egress.h"

/* Each class's credits are its rate x this period, at least two of the largest frames
 * (a frame larger than a period's credits would never leave). */
#define TC_PERIOD_MS_MIN 10
/* rte_sched's port rate is the line's: the scheduler's clock, which advances by every frame
 * it sends and at least at the line rate in real time, not a limit (a NIC's full TX ring is).
 * The configured rate is the subport's and the pipe's token buckets, which fill with that
 * clock: a line rate 1000 times above them (at most 100 Gbit/s) keeps the credits that sending
 * itself earns within 0.1 % (1 % at 1 Gbit/s and more). */
#define LINE_FACTOR 1000
#define LINE_MAX_BYTES (100000000000ull / 8)

/* What the owner takes from the ring before a dequeue: at most this many, in bursts of TAKE_BURST. */
#define TAKE_MAX 256
#define TAKE_BURST 64

/* One lcore's drops for a full ring, on a cache line of its own. */
struct ring_drops {
	uint64_t n[EGRESS_PRIOS];
} __rte_cache_aligned;

struct egress {
	/* Read by every lcore, written only at creation. */
	struct rte_sched_port *port;
	struct rte_ring *ring;                 /* the other lcores' packets to the owner; NULL with one lcore */
	unsigned owner, nlcores;
	struct rte_mbuf_sched sched[EGRESS_PRIOS];  /* each priority's rte_sched queue, class and colour */
	/* The owner's. */
	uint32_t backlog __rte_cache_aligned;
	/* Pacing under congestion (egress_dequeue): TSC cycles per byte at the rate (<< 16), and when the
	 * scheduler was last left with packets it had no credits for, 0 while it is not congested. */
	uint64_t cycles_per_byte_q16, congested_tsc;
	/* Each priority's queue as rte_sched holds it: its packets' frame lengths in order (the owner drops
	 * what a full queue would refuse before rte_sched sees it, so the two stay the same). */
	struct {
		uint32_t head, count;
		uint16_t len[EGRESS_QUEUE_PKTS];
	} q[EGRESS_PRIOS];
	uint64_t drops[EGRESS_PRIOS];          /* full queues */
	/* How the owner served the port (egress_service): the buckets' period and its last visit, in TSC
	 * cycles; the priorities whose queue still holds a stall's backlog (a bit each). */
	uint64_t period_tsc, visited_tsc;
	uint8_t stall_backlog;
	uint64_t stall_drops[EGRESS_PRIOS], below_full, longest_gap_tsc;
	struct ring_drops ring_drops[];        /* full ring, one row per lcore */
};

static inline uint32_t sched_class(uint8_t prio)
{
	return RTE_SCHED_TRAFFIC_CLASS_BE - (prio & (EGRESS_PRIOS - 1));
}

static inline uint8_t sched_prio(const struct rte_mbuf *m)
{
	return (uint8_t)(RTE_SCHED_TRAFFIC_CLASS_BE - m->hash.sched.traffic_class);
}

/* What rte_sched_port_pkt_write writes for each priority (its queue index from the port's
 * layout), written by one 8-byte store per packet on any lcore, without reading the port. */
static void sched_fields(struct egress *e)
{
	for (uint8_t p = 0; p < EGRESS_PRIOS; p++) {
		struct rte_mbuf m;
		memset(&m, 0, sizeof(m));
		rte_sched_port_pkt_write(e->port, &m, 0, 0, sched_class(p), 0, RTE_COLOR_GREEN);
		e->sched[p] = m.hash.sched;
	}
}

struct egress *egress_create(const char *name, uint64_t rate_bps, uint32_t mtu, unsigned nlcores, unsigned owner,
			     char *err, unsigned errlen)
{
	uint64_t rate = rate_bps / 8;   /* rte_sched counts bytes per second */
	if (!rate || !mtu) {
		snprintf(err, errlen, "%s: rate %lu bit/s, MTU %u: both must be positive", name, (unsigned long)rate_bps, mtu);
		return NULL;
	}
	if (!nlcores || owner >= nlcores) {
		snprintf(err, errlen, "%s: owner lcore %u of %u", name, owner, nlcores);
		return NULL;
	}
	uint64_t frame = mtu + RTE_SCHED_FRAME_OVERHEAD_DEFAULT;
	uint64_t period_ms = RTE_MAX((uint64_t)TC_PERIOD_MS_MIN, (2 * frame * 1000 + rate - 1) / rate);
	/* A burst of one period's worth: credits a forwarding lcore kept off the CPU for that long
	 * does not lose (the buckets fill only when the scheduler runs). */
	uint64_t burst = RTE_MAX(2 * frame, rate * period_ms / 1000);
	struct rte_sched_subport_profile_params sp = { .tb_rate = rate, .tb_size = burst, .tc_period = period_ms };
	struct rte_sched_pipe_params pp = { .tb_rate = rate, .tb_size = burst, .tc_period = period_ms,
					    .tc_ov_weight = 1, .wrr_weights = { 1, 1, 1, 1 } };
	struct rte_sched_subport_params sub = { .n_pipes_per_subport_enabled = 1, .pipe_profiles = &pp,
						.n_pipe_profiles = 1, .n_max_pipe_profiles = 1 };
	for (uint32_t c = 0; c < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; c++) {
		sp.tc_rate[c] = pp.tc_rate[c] = rate;
		sub.qsize[c] = EGRESS_QUEUE_PKTS;
	}
	uint64_t line = RTE_MAX(RTE_MIN(rate * LINE_FACTOR, LINE_MAX_BYTES), rate);
	struct rte_sched_port_params pa = { .name = name, .socket = (int)rte_socket_id(), .rate = line, .mtu = mtu,
					    .frame_overhead = RTE_SCHED_FRAME_OVERHEAD_DEFAULT, .n_subports_per_port = 1,
					    .subport_profiles = &sp, .n_subport_profiles = 1,
					    .n_max_subport_profiles = 1, .n_pipes_per_subport = 1 };
	struct egress *e = NULL;
	size_t size = sizeof(*e) + nlcores * sizeof(e->ring_drops[0]);
	if (posix_memalign((void **)&e, RTE_CACHE_LINE_SIZE, size)) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	memset(e, 0, size);
	e->owner = owner;
	e->nlcores = nlcores;
	e->cycles_per_byte_q16 = (rte_get_tsc_hz() << 16) / rate;
	e->period_tsc = rte_get_tsc_hz() * period_ms / 1000;
	if (nlcores > 1) {
		char rn[RTE_RING_NAMESIZE];
		snprintf(rn, sizeof(rn), "%.20s_own", name);
		e->ring = rte_ring_create(rn, EGRESS_RING_PKTS, (int)rte_socket_id(), RING_F_SC_DEQ);
		if (!e->ring) {
			snprintf(err, errlen, "%s: cannot create the ring to the owner lcore: %s", name, rte_strerror(rte_errno));
			free(e);
			return NULL;
		}
	}
	e->port = rte_sched_port_config(&pa);
	int rc = e->port ? rte_sched_subport_config(e->port, 0, &sub, 0) : -EINVAL;
	if (!rc)
		rc = rte_sched_pipe_config(e->port, 0, 0, 0);
	/* Best effort's oversubscription control would share its rate among pipes: there is one. */
	if (!rc)
		rc = rte_sched_subport_tc_ov_config(e->port, 0, false);
	if (rc) {
		snprintf(err, errlen, "%s: rte_sched refused a rate of %lu bit/s with MTU %u (%d)", name,
			 (unsigned long)rate_bps, mtu, rc);
		egress_free(e);
		return NULL;
	}
	sched_fields(e);
	return e;
}

void egress_free(struct egress *e)
{
	if (!e)
		return;
	if (e->ring) {
		struct rte_mbuf *m[TAKE_BURST];
		unsigned n;
		while ((n = rte_ring_sc_dequeue_burst(e->ring, (void **)m, TAKE_BURST, NULL)))
			rte_pktmbuf_free_bulk(m, n);
		rte_ring_free(e->ring);
	}
	rte_sched_port_free(e->port);   /* frees the packets its queues hold */
	free(e);
}

unsigned egress_owner(const struct egress *e)
{
	return e->owner;
}

/* The owner at the scheduler. Away for longer than the credits its buckets keep (one period), the port
 * lost sending time: a stall (a lcore kept off the CPU), whose backlog every queue holds until it empties. */
static void owner_visit(struct egress *e)
{
	uint64_t now = rte_get_tsc_cycles(), gap = now - e->visited_tsc;
	if (e->visited_tsc && gap > e->period_tsc)
		e->stall_backlog = (uint8_t)((1u << EGRESS_PRIOS) - 1);
	if (e->visited_tsc && gap > e->longest_gap_tsc)
		__atomic_store_n(&e->longest_gap_tsc, gap, __ATOMIC_RELAXED);
	e->visited_tsc = now;
}

/* The owner: packets whose rte_sched queue is written in their mbuf into the scheduler. A packet whose
 * queue is full is dropped here, counted under its priority (rte_sched would drop it the same way), so
 * that each queue's frame lengths are known in order. */
static uint16_t sched_enqueue(struct egress *e, struct rte_mbuf **m, uint16_t n)
{
	uint16_t keep = 0;
	for (uint16_t i = 0; i < n; i++) {
		uint8_t p = sched_prio(m[i]);
		if (e->q[p].count == EGRESS_QUEUE_PKTS) {
			__atomic_fetch_add(&e->drops[p], 1, __ATOMIC_RELAXED);
			if (e->stall_backlog & (1u << p))
				__atomic_fetch_add(&e->stall_drops[p], 1, __ATOMIC_RELAXED);
			rte_pktmbuf_free(m[i]);
			continue;
		}
		e->q[p].len[(e->q[p].head + e->q[p].count++) % EGRESS_QUEUE_PKTS] =
			(uint16_t)RTE_MIN(rte_pktmbuf_pkt_len(m[i]) + RTE_SCHED_FRAME_OVERHEAD_DEFAULT, (uint32_t)UINT16_MAX);
		m[keep++] = m[i];
	}
	int queued = rte_sched_port_enqueue(e->port, m, keep);
	e->backlog += (uint32_t)queued;
	return (uint16_t)queued;
}

uint16_t egress_enqueue(struct egress *e, unsigned lcore, struct rte_mbuf **m, const uint8_t *prio, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++)
		m[i]->hash.sched = e->sched[prio[i] & (EGRESS_PRIOS - 1)];
	if (lcore == e->owner) {
		owner_visit(e);
		return sched_enqueue(e, m, n);
	}
	unsigned put = rte_ring_mp_enqueue_burst(e->ring, (void *const *)m, n, NULL);
	if (put < n) {
		/* This lcore's row: a single writer, read by the stats. */
		struct ring_drops *d = &e->ring_drops[lcore];
		for (uint16_t i = (uint16_t)put; i < n; i++) {
			uint8_t p = prio[i] & (EGRESS_PRIOS - 1);
			__atomic_store_n(&d->n[p], d->n[p] + 1, __ATOMIC_RELAXED);
		}
		rte_pktmbuf_free_bulk(m + put, n - put);
	}
	return (uint16_t)put;
}

/* The owner: what the other lcores put on the ring into the scheduler. */
static void take_ring(struct egress *e)
{
	struct rte_mbuf *m[TAKE_BURST];
	unsigned n, taken = 0;
	do {
		n = rte_ring_sc_dequeue_burst(e->ring, (void **)m, TAKE_BURST, NULL);
		if (n)
			sched_enqueue(e, m, (uint16_t)n);
		taken += n;
	} while (n == TAKE_BURST && taken < TAKE_MAX);
}

/* rte_sched does not preempt: it sends the first waiting class's head packet only when the credits cover
 * it, and otherwise the next class's if that one's fit. Asked on every poll while credits trickle in, it
 * found a smaller best-effort frame fitting before a larger high-priority one, every time (a high class
 * above the rate with 1,400-byte frames left with a third of the port, best effort's 1,000-byte frames
 * took the rest: test_egress_priority_holds_when_oversubscribed). So once it was left with packets it had
 * no credits for (credits below every waiting head frame), it is asked again only when the credits come
 * in for the head frame of the highest waiting priority: that one fits first, and what it leaves is below
 * the lower heads. Not congested, nothing waits; a light high-priority packet waits for its own size. */
uint16_t egress_dequeue(struct egress *e, struct rte_mbuf **m, uint16_t max)
{
	owner_visit(e);
	if (e->ring)
		take_ring(e);
	if (!e->backlog || !max)   /* rte_sched_port_dequeue sends one packet before it compares with max */
		return 0;
	uint64_t now = rte_get_tsc_cycles();
	if (e->congested_tsc) {
		uint8_t p = EGRESS_PRIOS - 1;
		while (p && !e->q[p].count)
			p--;
		uint64_t need = ((uint64_t)e->q[p].len[e->q[p].head] * e->cycles_per_byte_q16) >> 16;
		if (now - e->congested_tsc < need)
			return 0;
	}
	int n = rte_sched_port_dequeue(e->port, m, max);
	for (int i = 0; i < n; i++) {
		uint8_t p = sched_prio(m[i]);
		for (uint8_t h = p + 1; h < EGRESS_PRIOS; h++)
			if (e->q[h].count == EGRESS_QUEUE_PKTS) {
				__atomic_fetch_add(&e->below_full, 1, __ATOMIC_RELAXED);
				break;
			}
		e->q[p].head = (e->q[p].head + 1) % EGRESS_QUEUE_PKTS;
		e->q[p].count--;
	}
	for (uint8_t p = 0; p < EGRESS_PRIOS; p++)
		if (!e->q[p].count)
			e->stall_backlog &= (uint8_t)~(1u << p);
	e->backlog -= (uint32_t)n;
	e->congested_tsc = e->backlog && n < max ? now : 0;
	return (uint16_t)n;
}

uint32_t egress_backlog(const struct egress *e)
{
	return e->backlog + (e->ring ? rte_ring_count(e->ring) : 0);
}

void egress_drops(const struct egress *e, uint64_t drops[EGRESS_PRIOS])
{
	for (uint8_t p = 0; p < EGRESS_PRIOS; p++) {
		drops[p] = __atomic_load_n(&e->drops[p], __ATOMIC_RELAXED);
		for (unsigned l = 0; l < e->nlcores; l++)
			drops[p] += __atomic_load_n(&e->ring_drops[l].n[p], __ATOMIC_RELAXED);
	}
}

void egress_service(const struct egress *e, struct egress_service *s)
{
	for (uint8_t p = 0; p < EGRESS_PRIOS; p++)
		s->stall_drops[p] = __atomic_load_n(&e->stall_drops[p], __ATOMIC_RELAXED);
	s->below_full = __atomic_load_n(&e->below_full, __ATOMIC_RELAXED);
	s->longest_gap_us = __atomic_load_n(&e->longest_gap_tsc, __ATOMIC_RELAXED) * 1000000 / rte_get_tsc_hz();
}
