/* The gNB services' per-core rates by packet size: the crypto service (NEA2, NEA2 + NIA2, downlink)
 * and BaaS (each PDU held, then acknowledged by a status report every 32 PDUs of a UE), each on 1 or
 * 2 lcores with their own instance. On a shared machine wall-clock rates are noise: every rate here
 * is packets per second of the lcore's own CPU time (CLOCK_THREAD_CPUTIME_ID), min / median / max
 * over --runs runs; the machine's load average is printed with them.
 *
 *   bench_gnb [EAL options] -- [--runs R] [--packets N] [--lcores 1|2] [--kind 0|1|2] [--size BYTES]
 *   (EAL: -l 0-1 --no-huge; --kind: 0 NEA2, 1 NEA2 + NIA2, 2 BaaS; --size: one of the frame sizes) */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include "bench_util.h"
#include "baas.h"
#include "crypto_svc.h"
#include "pdcp.h"
#include "svc.h"

#define BURST 32
#define UES 64
#define MAX_RUNS 15
static const unsigned sizes[] = { 64, 128, 256, 512, 1024, 1500 }; /* frame bytes, Ethernet included */
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

enum kind { NEA2, NEA2_NIA2, BAAS, KINDS };
static const char *const kind_names[KINDS] = { "crypto NEA2", "crypto NEA2 + NIA2", "BaaS hold + ack" };

struct job {
	enum kind kind;
	unsigned size;
	uint64_t packets;
	unsigned lcore_idx;
	double cpu_ns_per_pkt;
};

static struct rte_mempool *g_pool[RTE_MAX_LCORE];

static struct rte_mbuf *frame(struct rte_mempool *pool, uint32_t ue, uint32_t count, uint8_t op, unsigned size)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	if (!m || !rte_pktmbuf_append(m, (uint16_t)size))
		abort();
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	memset(p, 0xa5, size);
	((struct rte_ether_hdr *)p)->ether_type = rte_cpu_to_be_16(GNB_SVC_ETHERTYPE);
	*(struct gnb_svc_hdr *)(p + sizeof(struct rte_ether_hdr)) =
		(struct gnb_svc_hdr){ .ue = rte_cpu_to_be_32(ue), .count = rte_cpu_to_be_32(count), .op = op };
	if (op == GNB_OP_STATUS)
		pdcp_write_status_hdr(p + GNB_SVC_PDU_OFF, count);
	else
		pdcp_write_data_hdr(p + GNB_SVC_PDU_OFF, 18, count);
	return m;
}

/* The timed part, a function of its own for callgrind (bench/callgrind.sh). */
static __attribute__((noinline)) void crypto_loop(struct crypto_svc *c, struct rte_mbuf **m, uint64_t packets,
						  int integrity)
{
	struct rte_mbuf *work[BURST];
	for (uint64_t done = 0; done < packets; done += BURST) {
		memcpy(work, m, sizeof(work));
		if (crypto_svc_burst(c, work, BURST) != BURST)
			abort();
		if (integrity) /* the same frames again: without the MAC-I just appended */
			for (int i = 0; i < BURST; i++)
				rte_pktmbuf_trim(m[i], NR_SEC_MAC_LEN);
	}
}

static void run_crypto(struct job *j, struct rte_mempool *pool)
{
	struct crypto_svc *c = crypto_svc_create(UES);
	struct crypto_ue_cfg cfg = { .integrity = j->kind == NEA2_NIA2, .bearer = 1, .sn_bits = 18 };
	for (uint32_t u = 0; u < UES; u++) {
		memset(cfg.enc_key, (int)u, 16);
		memset(cfg.int_key, (int)~u, 16);
		if (crypto_svc_ue_set(c, u, &cfg))
			abort();
	}
	struct rte_mbuf *m[BURST];
	for (int i = 0; i < BURST; i++)
		m[i] = frame(pool, (uint32_t)i % UES, (uint32_t)i, GNB_OP_DL_PROTECT, j->size);
	double t0 = thread_cpu_ns();
	crypto_loop(c, m, j->packets, cfg.integrity);
	j->cpu_ns_per_pkt = (thread_cpu_ns() - t0) / (double)j->packets;
	rte_pktmbuf_free_bulk(m, BURST);
	crypto_svc_free(c);
}

/* The timed part of run_baas, a function of its own for callgrind. */
static __attribute__((noinline)) void baas_loop(struct baas *b, struct rte_mbuf **m, struct rte_mbuf *st,
						uint64_t packets)
{
	struct rte_mbuf *out[BURST];
	uint32_t next[UES] = { 0 };
	for (uint64_t done = 0, u = 0; done < packets; done += BURST, u = (u + 1) % UES) {
		for (int i = 0; i < BURST; i++) {
			struct gnb_svc_hdr *h = gnb_svc_hdr(m[i]);
			h->ue = rte_cpu_to_be_32((uint32_t)u);
			h->count = rte_cpu_to_be_32(next[u] + (uint32_t)i);
			h->op = GNB_OP_BUFFER;
			rte_mbuf_refcnt_update(m[i], 1);
		}
		baas_burst(b, m, BURST, rte_rdtsc(), out, BURST);
		next[u] += BURST;
		struct gnb_svc_hdr *h = gnb_svc_hdr(st);
		h->ue = rte_cpu_to_be_32((uint32_t)u);
		pdcp_write_status_hdr(rte_pktmbuf_mtod_offset(st, uint8_t *, GNB_SVC_PDU_OFF), next[u]);
		rte_mbuf_refcnt_update(st, 1);
		baas_burst(b, &st, 1, rte_rdtsc(), out, BURST);
		baas_timers(b, rte_rdtsc(), out, BURST);
	}
}

/* Each UE gets 32 PDUs in a row (one burst), then a status report with FMC past them: every PDU is
 * held and released once, the status report's cost shared by 32 PDUs. The frames are reused: one
 * extra reference each, so that BaaS's free on acknowledgement leaves them to the bench. */
static void run_baas(struct job *j, struct rte_mempool *pool)
{
	struct baas_cfg cfg = { .max_ues = UES, .window = 64, .ue_bytes = 1 << 20, .total_pdus = UES * 64,
				.total_bytes = 1u << 30, .tick_cycles = rte_get_tsc_hz() / 1000, .timeout_ticks = 1000,
				.max_retx = 4 };
	struct baas *b = baas_create(&cfg, rte_rdtsc());
	for (uint32_t u = 0; u < UES; u++)
		baas_ue_add(b, u, 0);
	struct rte_mbuf *m[BURST], *st;
	for (int i = 0; i < BURST; i++)
		m[i] = frame(pool, 0, 0, GNB_OP_BUFFER, j->size);
	st = frame(pool, 0, 0, GNB_OP_STATUS, 64);
	double t0 = thread_cpu_ns();
	baas_loop(b, m, st, j->packets);
	j->cpu_ns_per_pkt = (thread_cpu_ns() - t0) / (double)j->packets;
	const struct baas_stats *s = baas_stats(b);
	if (s->held != s->acked || s->held_pdus || s->retx_timeout)
		abort(); /* every PDU held once and acknowledged once */
	baas_free(b);
	rte_pktmbuf_free_bulk(m, BURST);
	rte_pktmbuf_free(st);
}

static int run_job(void *arg)
{
	struct job *j = arg;
	struct rte_mempool *pool = g_pool[rte_lcore_id()];
	if (j->kind == BAAS)
		run_baas(j, pool);
	else
		run_crypto(j, pool);
	return 0;
}

int main(int argc, char **argv)
{
	int eal = rte_eal_init(argc, argv);
	if (eal < 0)
		return 1;
	argc -= eal;
	argv += eal;
	unsigned runs = 5, nlcores = 1, only_size = 0;
	int only_kind = -1;
	uint64_t packets = 2000000;
	static const struct option lo[] = { { "runs", 1, 0, 'r' }, { "packets", 1, 0, 'p' }, { "lcores", 1, 0, 'l' },
					    { "kind", 1, 0, 'k' }, { "size", 1, 0, 's' }, { 0, 0, 0, 0 } };
	for (int c; (c = getopt_long(argc, argv, "", lo, NULL)) != -1;) {
		if (c == 'r')
			runs = (unsigned)atoi(optarg);
		else if (c == 'p')
			packets = strtoull(optarg, NULL, 0);
		else if (c == 'l')
			nlcores = (unsigned)atoi(optarg);
		else if (c == 'k')
			only_kind = atoi(optarg);
		else if (c == 's')
			only_size = (unsigned)atoi(optarg);
		else
			return 2;
	}
	if (!runs || runs > MAX_RUNS || !nlcores || nlcores > rte_lcore_count()) {
		fprintf(stderr, "bench_gnb: --runs 1..%d, --lcores 1..%u (EAL -l)\n", MAX_RUNS, rte_lcore_count());
		return 2;
	}
	unsigned lc[RTE_MAX_LCORE], n = 0, id;
	RTE_LCORE_FOREACH(id) {
		char name[32];
		snprintf(name, sizeof(name), "bench%u", id);
		g_pool[id] = rte_pktmbuf_pool_create(name, 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
		if (!g_pool[id])
			return 1;
		if (n < nlcores)
			lc[n++] = id;
	}
	double load[3];
	getloadavg(load, 3);
	printf("%llu packets a run, %u runs, %u lcore(s) at once (each its own instance, %d UEs); load average at "
	       "start %.2f %.2f %.2f; rates per lcore from its thread CPU time\n\n",
	       (unsigned long long)packets, runs, nlcores, UES, load[0], load[1], load[2]);
	printf("| service | frame bytes | lcores | ns CPU / packet (median) | Mpps per core min / median / max | "
	       "Gbit/s per core (median) |\n|---|---|---|---|---|---|\n");
	for (int k = 0; k < KINDS; k++) {
		for (size_t s = 0; s < NSIZES; s++) {
			if ((only_kind >= 0 && k != only_kind) || (only_size && sizes[s] != only_size))
				continue;
			double rate[MAX_RUNS * RTE_MAX_LCORE];
			unsigned nr = 0;
			for (unsigned r = 0; r < runs; r++) {
				struct job jobs[RTE_MAX_LCORE];
				for (unsigned i = 0; i < nlcores; i++) {
					jobs[i] = (struct job){ .kind = k, .size = sizes[s], .packets = packets };
					if (lc[i] != rte_get_main_lcore())
						rte_eal_remote_launch(run_job, &jobs[i], lc[i]);
				}
				for (unsigned i = 0; i < nlcores; i++)
					if (lc[i] == rte_get_main_lcore())
						run_job(&jobs[i]);
				rte_eal_mp_wait_lcore();
				for (unsigned i = 0; i < nlcores; i++)
					rate[nr++] = 1e3 / jobs[i].cpu_ns_per_pkt;
			}
			qsort(rate, nr, sizeof(rate[0]), cmp_double);
			double med = rate[nr / 2];
			printf("| %s | %u | %u | %.0f | %.2f / %.2f / %.2f | %.2f |\n", kind_names[k], sizes[s], nlcores,
			       1e3 / med, rate[0], med, rate[nr - 1], med * sizes[s] * 8 / 1e3);
			fflush(stdout);
		}
	}
	getloadavg(load, 3);
	printf("\nload average at the end %.2f %.2f %.2f\n", load[0], load[1], load[2]);
	return 0;
}
