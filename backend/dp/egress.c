/* Egress QoS of a rate-limited TX port: one queue per v1model priority and one token bucket at the
 * port's rate, served in strict priority: the head of the highest waiting priority leaves once the
 * bucket covers its frame, and nothing below it leaves before it (a lower frame that would fit the
 * credits waits too: it would take the time the higher frame is waiting for).
 *
 * DPDK's rte_sched did this before and could not: its traffic classes each get their rate's credits
 * per class period (refilled, not saved) and its dequeue sends the next class whose head fits when the
 * first class's credits or the pipe's bucket do not cover its head; a grinder also keeps serving the
 * classes it found waiting when it loaded the pipe. A class above the port's rate spent its period's
 * credits before the period ended while the pipe's bucket, filling continuously, had credits left for
 * the classes below it: frames left below a full priority 3 (the tenants lab's "no slices" run: 157).
 * Its class rates cannot exceed the pipe's, so no configuration makes those credits the pipe's.
 *
 * With several forwarding lcores, one owns the queues (as DPDK's qos_sched sample and BESS do: no
 * lock); the others hand it their packets over an MPSC rte_ring, each packet's priority written in
 * its mbuf, and count what a full ring refuses in counters of their own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_ring.h>
#include "egress.h"

/* The bucket holds this much time's credits, at least two of the largest frames (a frame larger than
 * the bucket would never leave), so that an owner kept off the CPU that long loses no sending time. */
#define BUCKET_MS_MIN 10

/* What the owner takes from the ring before a dequeue: at most this many, in bursts of TAKE_BURST. */
#define TAKE_MAX 256
#define TAKE_BURST 64

/* One lcore's drops for a full ring, on a cache line of its own. */
struct ring_drops {
	uint64_t n[EGRESS_PRIOS];
} __rte_cache_aligned;

struct egress {
	/* Read by every lcore, written only at creation. */
	struct rte_ring *ring;                 /* the other lcores' packets to the owner; NULL with one lcore */
	unsigned owner, nlcores;
	/* TSC cycles a byte takes at the rate (<< 16), and the bucket's size in TSC cycles. */
	uint64_t cycles_per_byte_q16, bucket_tsc;
	/* The owner's. */
	uint32_t backlog __rte_cache_aligned;
	uint64_t credit_tsc, refilled_tsc;     /* the bucket: sending time saved, and when it was last filled */
	struct {
		uint32_t head, count;
		struct rte_mbuf *m[EGRESS_QUEUE_PKTS];
	} q[EGRESS_PRIOS];
	uint64_t drops[EGRESS_PRIOS];          /* full queues */
	/* How the owner served the port (egress_service): its last visit, in TSC cycles; the priorities whose
	 * queue still holds a stall's backlog (a bit each). */
	uint64_t visited_tsc;
	uint8_t stall_backlog;
	uint64_t stall_drops[EGRESS_PRIOS], below_full, longest_gap_tsc;
	struct ring_drops ring_drops[];        /* full ring, one row per lcore */
};

struct egress *egress_create(const char *name, uint64_t rate_bps, uint32_t mtu, unsigned nlcores, unsigned owner,
			     char *err, unsigned errlen)
{
	uint64_t rate = rate_bps / 8;   /* bytes per second */
	if (!rate || !mtu) {
		snprintf(err, errlen, "%s: rate %lu bit/s, MTU %u: both must be positive", name, (unsigned long)rate_bps, mtu);
		return NULL;
	}
	if (!nlcores || owner >= nlcores) {
		snprintf(err, errlen, "%s: owner lcore %u of %u", name, owner, nlcores);
		return NULL;
	}
	uint64_t frame = mtu + EGRESS_FRAME_OVERHEAD;
	uint64_t bucket_ms = RTE_MAX((uint64_t)BUCKET_MS_MIN, (2 * frame * 1000 + rate - 1) / rate);
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
	e->bucket_tsc = rte_get_tsc_hz() * bucket_ms / 1000;
	e->credit_tsc = e->bucket_tsc;   /* full: the owner's first visit, whenever it is, adds nothing */
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
	for (uint8_t p = 0; p < EGRESS_PRIOS; p++)
		for (; e->q[p].count; e->q[p].count--, e->q[p].head = (e->q[p].head + 1) % EGRESS_QUEUE_PKTS)
			rte_pktmbuf_free(e->q[p].m[e->q[p].head]);
	free(e);
}

unsigned egress_owner(const struct egress *e)
{
	return e->owner;
}

/* The owner at its queues at time now. Away for longer than the bucket's credits last, the port lost
 * sending time: a stall (a lcore kept off the CPU), whose backlog every queue holds until it empties. */
static void owner_visit(struct egress *e, uint64_t now)
{
	uint64_t gap = now - e->visited_tsc;
	if (e->visited_tsc && gap > e->bucket_tsc)
		e->stall_backlog = (uint8_t)((1u << EGRESS_PRIOS) - 1);
	if (e->visited_tsc && gap > e->longest_gap_tsc)
		__atomic_store_n(&e->longest_gap_tsc, gap, __ATOMIC_RELAXED);
	e->visited_tsc = now;
}

/* The owner: one packet into its priority's queue, or dropped and counted under that priority when the
 * queue is full. Returns whether it was queued. */
static int queue_packet(struct egress *e, struct rte_mbuf *m, uint8_t p)
{
	if (e->q[p].count == EGRESS_QUEUE_PKTS) {
		__atomic_fetch_add(&e->drops[p], 1, __ATOMIC_RELAXED);
		if (e->stall_backlog & (1u << p))
			__atomic_fetch_add(&e->stall_drops[p], 1, __ATOMIC_RELAXED);
		rte_pktmbuf_free(m);
		return 0;
	}
	e->q[p].m[(e->q[p].head + e->q[p].count++) % EGRESS_QUEUE_PKTS] = m;
	__atomic_store_n(&e->backlog, e->backlog + 1, __ATOMIC_RELAXED);   /* read by the stats */
	return 1;
}

uint16_t egress_enqueue(struct egress *e, unsigned lcore, struct rte_mbuf **m, const uint8_t *prio, uint16_t n,
			uint64_t now)
{
	if (lcore == e->owner) {
		owner_visit(e, now);
		uint16_t queued = 0;
		for (uint16_t i = 0; i < n; i++)
			queued += (uint16_t)queue_packet(e, m[i], prio[i] & (EGRESS_PRIOS - 1));
		return queued;
	}
	for (uint16_t i = 0; i < n; i++)
		rte_mbuf_sched_traffic_class_set(m[i], prio[i] & (EGRESS_PRIOS - 1));
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

/* The owner: what the other lcores put on the ring into the queues. */
static void take_ring(struct egress *e)
{
	struct rte_mbuf *m[TAKE_BURST];
	unsigned n, taken = 0;
	do {
		n = rte_ring_sc_dequeue_burst(e->ring, (void **)m, TAKE_BURST, NULL);
		for (unsigned i = 0; i < n; i++)
			queue_packet(e, m[i], rte_mbuf_sched_traffic_class_get(m[i]));
		taken += n;
	} while (n == TAKE_BURST && taken < TAKE_MAX);
}

uint16_t egress_dequeue(struct egress *e, struct rte_mbuf **m, uint16_t max, uint64_t now)
{
	owner_visit(e, now);
	if (e->ring)
		take_ring(e);
	e->credit_tsc = RTE_MIN(e->bucket_tsc, e->credit_tsc + (now - e->refilled_tsc));
	e->refilled_tsc = now;
	uint16_t n = 0;
	int p = EGRESS_PRIOS - 1;
	while (n < max) {
		while (p >= 0 && !e->q[p].count)
			p--;
		if (p < 0)
			break;
		struct rte_mbuf *head = e->q[p].m[e->q[p].head];
		uint64_t cost = ((uint64_t)(rte_pktmbuf_pkt_len(head) + EGRESS_FRAME_OVERHEAD) * e->cycles_per_byte_q16) >> 16;
		if (e->credit_tsc < cost)
			break;
		e->credit_tsc -= cost;
		/* What strict priority forbids, counted as the stats' check of it (p is the highest waiting). */
		for (int h = p + 1; h < EGRESS_PRIOS; h++)
			if (e->q[h].count == EGRESS_QUEUE_PKTS) {
				__atomic_fetch_add(&e->below_full, 1, __ATOMIC_RELAXED);
				break;
			}
		m[n++] = head;
		e->q[p].head = (e->q[p].head + 1) % EGRESS_QUEUE_PKTS;
		e->q[p].count--;
	}
	for (uint8_t q = 0; q < EGRESS_PRIOS; q++)
		if (!e->q[q].count)
			e->stall_backlog &= (uint8_t)~(1u << q);
	__atomic_store_n(&e->backlog, e->backlog - n, __ATOMIC_RELAXED);
	return n;
}

uint32_t egress_backlog(const struct egress *e)
{
	return __atomic_load_n(&e->backlog, __ATOMIC_RELAXED) + (e->ring ? rte_ring_count(e->ring) : 0);
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
