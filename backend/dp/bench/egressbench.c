/* Egress scheduler benchmark (egress.c, --port-rate): what a rate-limited port costs per packet
 * in egress_enqueue and egress_dequeue, called as io.c calls them (bursts of 32, enqueue then
 * dequeue at most 32), at a rate the traffic never reaches (every packet leaves, none is dropped),
 * 128-byte frames of priorities 0, 3, 0, 2, 0, 0, 7, 0 cycled. Prints markdown rows.
 *
 *   egressbench [-m direct|hop|threads] [-T trials] [-L label] [-H]
 *
 * direct   the owner lcore's own packets, queued directly: the only path with --lcores 1
 * hop      another lcore's packets in one thread: enqueued as lcore 1 (onto the owner's ring), then
 *          dequeued as the owner (ring -> scheduler -> out): the ring hop's instructions, without
 *          the cache lines it moves between cores
 * threads  the same on two lcores, the producer (lcore 1) and the owner (lcore 0); the producer
 *          waits (outside the measured calls) until its next burst leaves at most 64 packets on
 *          their way, so that neither the ring nor a queue drops
 * Time: TSC cycles inside each call (rdtsc around it) per packet it took or returned; per trial
 * of BENCH_PKTS packets (default 2,000,000, after a warm-up trial) the median call of each side
 * (a call during which the thread lost the CPU is an outlier on a shared machine; dequeues that
 * return nothing are not counted), summed; min / median / max over the trials.
 * -H: no trials; BENCH_PKTS packets once after a warm-up of as many; under callgrind the statistics
 *     are zeroed after the warm-up and dumped after the pass (egress.sh counts the two calls).
 * Built against an egress.h from before the ring (no EGRESS_RING_PKTS): direct only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include "egress.h"

#define BURST 32
#define FRAME 128
#define IN_FLIGHT 64    /* threads: the producer's lead over the owner (a queue holds 64) */

/* The time goes in as io.c gives it (the owner's TSC, read inside the measured call). */
#ifdef EGRESS_RING_PKTS
#define CREATE(name, rate, mtu, nlcores, err) egress_create(name, rate, mtu, nlcores, 0, err, sizeof(err))
#define ENQUEUE(e, lcore, m, prio, n) \
	egress_enqueue(e, lcore, m, prio, n, (lcore) == egress_owner(e) ? rte_get_tsc_cycles() : 0)
#define DEQUEUE(e, m, max) egress_dequeue(e, m, max, rte_get_tsc_cycles())
#else
#define CREATE(name, rate, mtu, nlcores, err) egress_create(name, rate, mtu, err, sizeof(err))
#define ENQUEUE(e, lcore, m, prio, n) ((void)(lcore), egress_enqueue(e, m, prio, n))
#define DEQUEUE(e, m, max) egress_dequeue(e, m, max)
#endif

enum mode { M_DIRECT, M_HOP, M_THREADS };
static const char *mode_name[] = { "direct (owner's own packets)", "ring hop, one thread",
				   "ring hop, two lcores" };
static const uint8_t PRIOS[8] = { 0, 3, 0, 2, 0, 0, 7, 0 };

static struct rte_mempool *g_pool;
static uint64_t PKTS = 2000000;

struct run {
	struct egress *e;
	uint64_t pkts;
	volatile int stop;                      /* threads: the owner gave up (a drop): the producer stops */
	/* Each call's TSC cycles per packet: inside egress_enqueue (threads: the producer's) and inside
	 * egress_dequeue (the owner's), each side on cache lines of its own. */
	struct calls {
		double *per_pkt;
		unsigned n;
	} enq __rte_cache_aligned, deq __rte_cache_aligned;
	uint64_t sent;
	volatile uint64_t delivered;            /* threads: sent, which the producer waits on */
};

static void fill(struct rte_mbuf **m, uint8_t *prio, uint64_t base)
{
	while (rte_pktmbuf_alloc_bulk(g_pool, m, BURST))
		rte_pause();
	for (unsigned i = 0; i < BURST; i++) {
		m[i]->data_len = m[i]->pkt_len = FRAME;
		prio[i] = PRIOS[(base + i) % 8];
	}
}

static void dequeue(struct run *r)
{
	struct rte_mbuf *out[BURST];
	uint64_t t0 = rte_rdtsc();
	uint16_t n = DEQUEUE(r->e, out, BURST);
	uint64_t t1 = rte_rdtsc();
	if (n)   /* threads: the owner's empty polls, while the producer has not yet handed anything over, are idle time */
		r->deq.per_pkt[r->deq.n++] = (double)(t1 - t0) / n;
	rte_pktmbuf_free_bulk(out, n);   /* what the TX ring would take */
	r->sent += n;
	__atomic_store_n(&r->delivered, r->sent, __ATOMIC_RELEASE);
}

static void enqueue(struct run *r, unsigned lcore, uint64_t base)
{
	struct rte_mbuf *m[BURST];
	uint8_t prio[BURST];
	fill(m, prio, base);
	uint64_t t0 = rte_rdtsc();
	ENQUEUE(r->e, lcore, m, prio, BURST);
	r->enq.per_pkt[r->enq.n++] = (double)(rte_rdtsc() - t0) / BURST;
}

/* threads: lcore 1 offers r->pkts packets, at most IN_FLIGHT ahead of the owner. */
static int producer(void *arg)
{
	struct run *r = arg;
	for (uint64_t i = 0; i < r->pkts; i += BURST) {
		while (i + BURST - __atomic_load_n(&r->delivered, __ATOMIC_ACQUIRE) > IN_FLIGHT) {
			if (r->stop)
				return 0;
			rte_pause();
		}
		enqueue(r, 1, i);
	}
	return 0;
}

static void trial(struct run *r, enum mode m)
{
	r->enq.n = r->deq.n = 0;
	r->sent = 0;
	r->delivered = 0;
	r->stop = 0;
	if (m == M_THREADS) {
		rte_eal_remote_launch(producer, r, rte_get_next_lcore(rte_lcore_id(), 1, 0));
	} else {
		for (uint64_t i = 0; i < r->pkts; i += BURST) {
			enqueue(r, m == M_HOP ? 1 : 0, i);
			dequeue(r);
		}
	}
	/* The rest (threads: all) until every packet left, or 10 s (a drop: the row says so). */
	for (double end = rte_get_tsc_cycles() + 10.0 * rte_get_tsc_hz(); r->sent < r->pkts && rte_get_tsc_cycles() < end;)
		dequeue(r);
	r->stop = 1;
	if (m == M_THREADS)
		rte_eal_mp_wait_lcore();
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median call's cycles per packet. */
static double median(struct calls *c)
{
	qsort(c->per_pkt, c->n, sizeof(double), cmp_d);
	return c->n ? c->per_pkt[c->n / 2] : 0;
}

int main(int argc, char **argv)
{
	enum mode mode = M_DIRECT;
	unsigned trials = 7, once = 0;
	const char *label = "";
	int o;
	while ((o = getopt(argc, argv, "m:T:L:H")) != -1) {
		if (o == 'm')
			mode = !strcmp(optarg, "hop") ? M_HOP : !strcmp(optarg, "threads") ? M_THREADS : M_DIRECT;
		else if (o == 'T')
			trials = (unsigned)atoi(optarg);
		else if (o == 'L')
			label = optarg;
		else if (o == 'H')
			once = 1;
		else
			return 2;
	}
#ifndef EGRESS_RING_PKTS
	if (mode != M_DIRECT) {
		printf("| %s | %s | (no ring in this egress.c) |||||\n", label, mode_name[mode]);
		return 0;
	}
#endif
	if (trials < 1 || trials > 64)
		return 2;
	char *eal[] = { "egressbench", "--no-huge", "-m", "256", "--no-pci", "--no-shconf", "--no-telemetry",
			"--log-level=lib.*:error", "-l", mode == M_THREADS ? "0,1" : "0", NULL };
	if (rte_eal_init(10, eal) < 0)
		return 1;
	if (getenv("BENCH_PKTS"))
		PKTS = strtoull(getenv("BENCH_PKTS"), NULL, 0) / BURST * BURST;
	g_pool = rte_pktmbuf_pool_create("egb", 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	char err[160];
	/* 100 Gbit/s: far above what one core queues here, so that every packet leaves at once. */
	struct run r = { .e = CREATE("egb", 100000000000ull, 1518, mode == M_DIRECT ? 1 : 2, err), .pkts = PKTS };
	r.enq.per_pkt = malloc(sizeof(double) * (PKTS / BURST + 1));
	r.deq.per_pkt = malloc(sizeof(double) * (PKTS + 1));   /* a call returns at least one packet */
	if (!g_pool || !r.e || !r.enq.per_pkt || !r.deq.per_pkt) {
		fprintf(stderr, "egressbench: %s\n", g_pool ? err : "no mbuf pool");
		return 1;
	}
	if (once) {
		trial(&r, mode);
		CALLGRIND_ZERO_STATS;
		trial(&r, mode);
		CALLGRIND_DUMP_STATS;
		printf("BENCH_MEASURED_PKTS %lu\n", (unsigned long)r.sent);
		return r.sent == r.pkts ? 0 : 1;
	}
	double hz = (double)rte_get_tsc_hz(), total[64], enq[64], deq[64];
	uint64_t drops[EGRESS_PRIOS], dropped = 0, short_ = 0;
	trial(&r, mode);   /* warm-up */
	for (unsigned t = 0; t < trials; t++) {
		trial(&r, mode);
		short_ += r.pkts - r.sent;
		enq[t] = median(&r.enq) * 1e9 / hz;
		deq[t] = median(&r.deq) * 1e9 / hz;
		total[t] = enq[t] + deq[t];
	}
	egress_drops(r.e, drops);
	for (unsigned p = 0; p < EGRESS_PRIOS; p++)
		dropped += drops[p];
	qsort(total, trials, sizeof(double), cmp_d);
	qsort(enq, trials, sizeof(double), cmp_d);
	qsort(deq, trials, sizeof(double), cmp_d);
	printf("| %s | %s | %.1f / %.1f / %.1f | %.1f | %.1f | %lu |\n", label, mode_name[mode], total[0],
	       total[trials / 2], total[trials - 1], enq[trials / 2], deq[trials / 2], (unsigned long)(dropped + short_));
	egress_free(r.e);
	return dropped + short_ ? 1 : 0;
}
