/* Data-plane benchmark: mbufs rebuilt per burst and run through the full pipeline
 * (parse, ACL, interfaces, sessions, applications, terminations, meters, counters,
 * routing, GTP-U decap/encap), uplink and downlink interleaved, 64-byte inner UDP
 * payload. Prints markdown rows.
 *
 *   bench [-t traffic] [-T trials] [-w workers] [-L label] [-H] [-P hw [-R mode]] sessions...
 *
 * -P hw runs the hw profile's pipeline (HK-IPG and MATADOR on every packet, at the hw
 * P4's default parameters; sessions hit, so nothing is steered).
 * -R 1|2 (with -P hw): RPS on, every UE's flow sampled both ways (1 % direct disclosures, quiet time
 * 1 ms, a quarter of the candidates selected): each packet is observed at IN and OUT. Receipts are
 * decided but not copied into mbufs (no CPU port).
 *
 * Traffic (which session each packet belongs to):
 *   uniform  every packet a uniformly random session of all the sessions (default)
 *   zipf     Zipf(0.99) over all the sessions, ranks scattered over the session space
 *   hot      8,192 sessions (BENCH_HOT) drawn once, then cycled: the working set of the first
 *            version of this benchmark ("hot-cache": it mostly stays in the L2/L3); packet k is of
 *            the k-th drawn session, uplink when k is odd (tests/t4p4s/bench_t4p4s.py replays it)
 * Rule set (always): every termination its own pre/post-QoS counter index (2 per
 * session), a configured session meter (trTCM, rates high enough to stay green) on
 * every 16th session (up to the sw profile's 65,536 meters), 32 application rules
 * and 16 ACL rules that the traffic does not match (so every packet is classified
 * against them all and takes its session's default termination, as most traffic does).
 * Time is the forwarding threads' own CPU time (the machine is shared); each trial
 * rebuilds and processes BENCH_PKTS packets (default 5 M; split over the workers);
 * the rebuild alone is measured too and subtracted for the "pipeline" column.
 * -w 2: two worker lcores, each with its own traffic and counters, same tables.
 * Environment: BENCH_PKTS, BENCH_MEM_MB (EAL memory, default 7168), BENCH_HUGE
 * (non-empty: 2 MiB hugepages with --in-memory instead of --no-huge).
 * -H: no trials; process BENCH_PKTS packets once after a warm-up of as many; under
 *     callgrind, the statistics are zeroed after the warm-up and dumped after the pass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include <rte_eal.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include "dp_int.h"
#include "pkt.h"

#define BURST 32
#define NHOT 8192
#define ZIPF_DRAWS (1u << 20)
#define METERS 65536u
#define N3 0x0a000001u
#define GNB 0x0a000064u
#define APP 0x08080808u
#define UE_BASE 0x10000000u

enum traffic { T_UNIFORM, T_ZIPF, T_HOT };
static const char *traffic_name[] = { "uniform", "zipf", "hot-cache" };
static enum traffic g_traffic = T_UNIFORM;
static uint64_t PKTS = 5000000;  /* packets per trial; env BENCH_PKTS overrides */
static unsigned g_trials = 5, g_workers = 1, g_once;
static const char *g_label = "";

static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double wall_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void w16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }
static void w32(uint8_t *p, uint32_t v) { w16(p, v >> 16); w16(p + 2, v & 0xffff); }

static uint32_t ipudp(uint8_t *b, uint32_t src, uint32_t dst, uint16_t sp, uint16_t dp, uint32_t pl)
{
	memset(b, 0, 28 + pl);
	b[0] = 0x45; w16(b + 2, (uint16_t)(28 + pl)); b[8] = 64; b[9] = 17;
	w32(b + 12, src); w32(b + 16, dst);
	pkt_ipv4_fix_cksum(b);
	w16(b + 20, sp); w16(b + 22, dp); w16(b + 24, (uint16_t)(8 + pl));
	return 28 + pl;
}

/* Two templates; a packet of session s is a template with s's TEID / UE address. */
struct tpl { uint8_t b[192]; uint16_t len, port, teid_off, ue_off, ip_off; };
static struct tpl g_tpl[2];

static void make_tpls(void)
{
	struct tpl *t = &g_tpl[0];
	uint8_t b[192], inner[96];
	memset(b, 0, 12); w16(b + 12, 0x0800);
	uint32_t il = ipudp(inner, UE_BASE, APP, 4000, 53, 64);
	uint32_t n = 14 + ipudp(b + 14, GNB, N3, 2152, 2152, 8 + il) - 8 - il;
	b[n] = 0x30; b[n + 1] = 0xff; w16(b + n + 2, (uint16_t)il);
	memcpy(b + n + 8, inner, il);
	*t = (struct tpl){ .len = (uint16_t)(n + 8 + il), .port = 1, .teid_off = (uint16_t)(n + 4),
			   .ip_off = (uint16_t)(n + 8), .ue_off = (uint16_t)(n + 8 + 12) };
	memcpy(t->b, b, sizeof(t->b));
	t = &g_tpl[1];
	memset(t->b, 0, 12); w16(t->b + 12, 0x0800);
	t->len = (uint16_t)(14 + ipudp(t->b + 14, APP, UE_BASE, 53, 4000, 64));
	t->port = 2; t->teid_off = 0; t->ip_off = 14; t->ue_off = 14 + 16;
}

static void build(struct rte_mbuf *m, int uplink, uint32_t sess)
{
	const struct tpl *t = &g_tpl[!uplink];
	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = m->pkt_len = t->len;
	m->port = t->port;
	uint8_t *b = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(b, t->b, t->len);
	if (uplink)
		w32(b + t->teid_off, sess + 1);
	w32(b + t->ue_off, UE_BASE + sess);
	pkt_ipv4_fix_cksum(b + t->ip_off);
}

/* Session sequences: uniform draws on the fly; hot and zipf cycle a drawn table. */
struct gen { uint64_t xs; uint64_t k; };
static uint32_t *g_table, g_table_n, g_nsess;
static uint32_t g_hot = NHOT;  /* env BENCH_HOT overrides */

static inline uint32_t next_sess(struct gen *g)
{
	if (g_traffic == T_UNIFORM) {
		g->xs ^= g->xs << 13; g->xs ^= g->xs >> 7; g->xs ^= g->xs << 17;
		return (uint32_t)(g->xs % g_nsess);
	}
	return g_table[g->k++ % g_table_n];
}

static uint64_t seed_rnd(uint64_t *x) { *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17; return *x; }

static int make_table(uint32_t n)
{
	uint64_t xs = 0x9e3779b97f4a7c15ull;
	free(g_table);
	g_table = NULL;
	if (g_traffic == T_UNIFORM)
		return 0;
	g_table_n = g_traffic == T_HOT ? g_hot : ZIPF_DRAWS;
	g_table = malloc(sizeof(uint32_t) * g_table_n);
	if (!g_table)
		return -1;
	if (g_traffic == T_HOT) {
		for (uint32_t i = 0; i < g_table_n; i++)
			g_table[i] = (uint32_t)(seed_rnd(&xs) % n);
		return 0;
	}
	/* Zipf(0.99): inverse CDF by binary search; rank r is session r * prime mod n. */
	double *cdf = malloc(sizeof(double) * n), sum = 0;
	if (!cdf)
		return -1;
	for (uint32_t r = 0; r < n; r++)
		cdf[r] = (sum += 1.0 / pow(r + 1.0, 0.99));
	for (uint32_t i = 0; i < g_table_n; i++) {
		double u = (double)(seed_rnd(&xs) >> 11) / (double)(1ull << 53) * sum;
		uint32_t lo = 0, hi = n - 1;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		g_table[i] = (uint32_t)((uint64_t)lo * 2654435761ull % n);
	}
	free(cdf);
	return 0;
}

static size_t heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	rte_malloc_get_socket_stats(0, &st);
	return st.heap_allocsz_bytes;
}

static int populate(uint32_t n, double *insert_rate)
{
	static const uint8_t mac[6] = { 0, 0, 0, 0, 0, 1 };
	if (dp_interface(DP_INSERT, N3, 32, 1, IFACE_ACCESS, 1) ||
	    dp_interface(DP_INSERT, UE_BASE, 8, 0, IFACE_CORE, 1) || dp_ig_peer(DP_INSERT, 1, GNB) ||
	    dp_eg_peer(DP_INSERT, 1, N3, GNB, 2152) || dp_route(DP_INSERT, APP, 8, mac, mac, 2) ||
	    dp_route(DP_INSERT, GNB, 32, mac, mac, 1))
		return -1;
	/* Applications and ACL rules for other servers and ports than the traffic's. */
	struct dp_app_rule apps[32];
	for (uint32_t i = 0; i < 32; i++)
		apps[i] = (struct dp_app_rule){ .slice_id = 1, .addr = 0xc0a80000u + (i << 8), .addr_mask = 0xffffff00u,
						.port_lo = (uint16_t)(1000 + i), .port_hi = (uint16_t)(1000 + i),
						.proto = 17, .proto_mask = 0xff, .app_id = (uint8_t)(1 + i % 8) };
	struct dp_acl_rule acl[16];
	memset(acl, 0, sizeof(acl));
	for (uint32_t i = 0; i < 16; i++) {
		acl[i].ip_dst = 0xac100000u + i; acl[i].ip_dst_mask = 0xffffffffu;
		acl[i].proto = 6; acl[i].proto_mask = 0xff;
		acl[i].dport = (uint16_t)(22 + i); acl[i].dport_mask = 0xffff;
		acl[i].action = ACL_DROP;
	}
	if (dp_apps_replace(apps, 32) || dp_acl_replace(acl, 16))
		return -1;
	const struct dp_meter_cfg mc = { 1250000000ull, 1000000, 2500000000ull, 2000000 };
	double t0 = cpu_s();
	for (uint32_t i = 0; i < n; i++) {
		uint32_t ue = UE_BASE + i;
		uint32_t meter = i % 16 == 0 && i / 16 < METERS ? i / 16 : METERS;  /* METERS: none */
		if (meter < METERS && dp_meter_set(METER_SESSION, meter, &mc))
			return -1;
		struct dp_term ul = { TERM_FWD, 0, 0, 2 * i, 0, 0 }, dl = { TERM_FWD, 0, 9, 2 * i + 1, i + 1, 0 };
		if (dp_ul_session(DP_INSERT, N3, i + 1, SESS_FWD, ue, meter) ||
		    dp_dl_session(DP_INSERT, ue, SESS_FWD, 1, meter) ||
		    dp_ul_term(DP_INSERT, ue, 0, &ul) || dp_dl_term(DP_INSERT, ue, 0, &dl)) {
			fprintf(stderr, "insert %u failed\n", i);
			return -1;
		}
	}
	*insert_rate = 4.0 * n / (cpu_s() - t0);
	dp_commit();
	return 0;
}

static struct rte_mempool *g_pools[DP_MAX_WORKERS];

struct job {
	unsigned slot;
	uint64_t pkts, fwd;
	struct gen g;
	double secs;           /* CPU time of the thread */
	int restore_only;
};

static int work(void *arg)
{
	struct job *j = arg;
	struct rte_mbuf *m[BURST];
	struct dp_verdict v[BURST];
	if (rte_pktmbuf_alloc_bulk(g_pools[j->slot], m, BURST))
		return -1;
	struct pipeline *p = dp_pipe();
	rte_rcu_qsbr_thread_online(g_dp.qs, j->slot);
	double t0 = cpu_s();
	uint64_t fwd = 0;
	for (uint64_t k = 0; k < j->pkts; k += BURST) {
		for (int i = 0; i < BURST; i++)
			build(m[i], (int)(i & 1), next_sess(&j->g));
		if (j->restore_only)
			continue;
		dp_process_burst(p, j->slot, m, BURST, v);
		for (int i = 0; i < BURST; i++)
			fwd += v[i].fwd;
		rte_rcu_qsbr_quiescent(g_dp.qs, j->slot);
	}
	j->secs = cpu_s() - t0;
	j->fwd = fwd;
	rte_rcu_qsbr_thread_offline(g_dp.qs, j->slot);
	rte_pktmbuf_free_bulk(m, BURST);
	return 0;
}

/* One trial over all workers: worker 0 on this lcore, the others on theirs. */
static void trial(struct job *jobs, double *wall)
{
	double t0 = wall_s();
	unsigned w = 1, lc;
	RTE_LCORE_FOREACH_WORKER(lc) {
		if (w >= g_workers)
			break;
		rte_eal_remote_launch(work, &jobs[w++], lc);
	}
	work(&jobs[0]);
	rte_eal_mp_wait_lcore();
	*wall = wall_s() - t0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static size_t g_heap_base;
static int g_hw;   /* -P hw: the hw profile's pipeline (ignored by a data plane without it) */
static int g_rps;  /* -R: RPS's mode (hw; ignored by a data plane without it) */

static void run(uint32_t n)
{
	/* Counter cells for every termination (2 per session), as the agent sizes them. */
	struct dp_sizes sz = { .interfaces = 64, .ul_sessions = n, .dl_sessions = n, .applications = 4096,
			       .ul_terms = n, .dl_terms = n, .routes = 16384, .acl = 1024, .pre_qos_ctr = 2 * n,
			       .post_qos_ctr = 2 * n, .session_meter = METERS, .app_meter = 4096,
			       .meter_states = METERS + 4096 };
#ifdef DP_CLS_FEATURES   /* a data plane with the hw profile */
	if (g_hw) {   /* -P hw: every packet also goes through HK-IPG and MATADOR (hw's default params) */
		sz.hw = 1;
		sz.hh_slots = sz.cls_slots = 4096;
	}
#endif
#ifdef DP_RPS_RECEIPT_LEN   /* a data plane with RPS: size_hw.p4's sizes */
	if (g_hw) {
		sz.rps_buffer = 4096;
		sz.rps_flows = 256;
		sz.rps_flow_entries = 64;
		sz.rps_track_depth = 64;
	}
#endif
	g_nsess = n;
	if (dp_pipeline_set(&sz)) {
		printf("| %s | %s | %u | pipeline allocation failed (raise -m) |\n", g_label, traffic_name[g_traffic], n);
		return;
	}
	size_t mem = heap_bytes() - g_heap_base;
	double rate;
	if (populate(n, &rate) || make_table(n)) {
		printf("| %s | %s | %u | populate failed |\n", g_label, traffic_name[g_traffic], n);
		return;
	}
#ifdef DP_RPS_RECEIPT_LEN
	const struct dp_rps_params rps = { (uint8_t)g_rps, 1000, 0x40000000u, 4096 };
	if (g_hw && g_rps && (dp_rps_flow(DP_INSERT, UE_BASE, 8, 0, 0, 0x028F5C29u) ||
			      dp_rps_flow(DP_INSERT, UE_BASE, 8, 1, 1, 0x028F5C29u) || dp_rps_config(&rps))) {
		printf("| %s | %s | %u | RPS setup failed |\n", g_label, traffic_name[g_traffic], n);
		return;
	}
	dp_commit();
#endif
	struct job jobs[DP_MAX_WORKERS];
	uint64_t per = PKTS / g_workers / BURST * BURST;
	for (unsigned w = 0; w < g_workers; w++)
		jobs[w] = (struct job){ .slot = w, .pkts = per, .g = { 88172645463325252ull + 7919 * w, (uint64_t)w * 4099 } };
	double wall;
	if (g_once) {
		/* Warm-up (tables and code), then the measured pass that callgrind counts. */
		trial(jobs, &wall);
		CALLGRIND_ZERO_STATS;
		trial(jobs, &wall);
		CALLGRIND_DUMP_STATS;
		printf("BENCH_MEASURED_PKTS %lu\n", (unsigned long)(per * g_workers));
		return;
	}
	jobs[0].restore_only = 1;
	work(&jobs[0]);
	double restore_ns = jobs[0].secs * 1e9 / per;
	jobs[0].restore_only = 0;
	double mpps[64], wall_mpps[64], pipe_ns[64], fwd = 0;
	unsigned T = g_trials > 64 ? 64 : g_trials;
	trial(jobs, &wall);  /* warm-up */
	for (unsigned t = 0; t < T; t++) {
		trial(jobs, &wall);
		double sum = 0;
		for (unsigned w = 0; w < g_workers; w++) {
			sum += per / jobs[w].secs / 1e6;
			fwd += jobs[w].fwd;
		}
		mpps[t] = sum;
		wall_mpps[t] = per * g_workers / wall / 1e6;
		pipe_ns[t] = jobs[0].secs * 1e9 / per - restore_ns;
	}
	qsort(mpps, T, sizeof(double), cmp_d);
	qsort(wall_mpps, T, sizeof(double), cmp_d);
	qsort(pipe_ns, T, sizeof(double), cmp_d);
	printf("| %s | %s | %u | %u | %.2f / %.2f / %.2f | %.1f | %.1f | %.2f | %.0f | %.2f | %.1f%% |\n", g_label,
	       traffic_name[g_traffic], n, g_workers, mpps[0], mpps[T / 2], mpps[T - 1], pipe_ns[T / 2],
	       restore_ns, wall_mpps[T / 2], (double)mem / n, rate / 1e6, 100.0 * fwd / ((double)per * g_workers * T));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int o;
	while ((o = getopt(argc, argv, "t:T:w:L:HP:R:")) != -1) {
		if (o == 't')
			g_traffic = !strcmp(optarg, "zipf") ? T_ZIPF : !strcmp(optarg, "hot") ? T_HOT : T_UNIFORM;
		else if (o == 'T')
			g_trials = (unsigned)atoi(optarg);
		else if (o == 'w')
			g_workers = (unsigned)atoi(optarg);
		else if (o == 'L')
			g_label = optarg;
		else if (o == 'H')
			g_once = 1;
		else if (o == 'P')
			g_hw = !strcmp(optarg, "hw");
		else if (o == 'R')
			g_rps = atoi(optarg);
		else
			return 2;
	}
	if (g_workers < 1 || g_workers > 2 || g_trials < 1)
		return 2;
	char lcores[8];
	snprintf(lcores, sizeof(lcores), "%s", g_workers == 2 ? "0,1" : "0");
	char *mem = getenv("BENCH_MEM_MB") ? getenv("BENCH_MEM_MB") : "7168";
	char *eal[16] = { "bench", "-m", mem, "--no-pci", "--no-shconf", "--no-telemetry",
			  "--log-level=lib.*:error", "-l", lcores };
	int ne = 9;
	const char *huge = getenv("BENCH_HUGE");  /* non-empty: EAL memory from 2 MiB hugepages */
	eal[ne++] = huge && *huge ? "--in-memory" : "--no-huge";
	if (rte_eal_init(ne, eal) < 0 || dp_init(g_workers))
		return 1;
	if (getenv("BENCH_PKTS"))
		PKTS = strtoull(getenv("BENCH_PKTS"), NULL, 0);
	if (getenv("BENCH_HOT"))
		g_hot = (uint32_t)strtoul(getenv("BENCH_HOT"), NULL, 0);
	for (unsigned w = 0; w < g_workers; w++) {
		char nm[32];
		snprintf(nm, sizeof(nm), "bench%u", w);
		g_pools[w] = rte_pktmbuf_pool_create(nm, 256, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
		if (!g_pools[w])
			return 1;
		rte_rcu_qsbr_thread_register(g_dp.qs, w);
	}
	make_tpls();
	g_heap_base = heap_bytes();
	for (int i = optind; i < argc; i++)
		run((uint32_t)strtoul(argv[i], NULL, 0));
	return 0;
}
