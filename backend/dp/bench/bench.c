/* Data-plane benchmark: pre-built mbufs through the full pipeline (parse, ACL,
 * interfaces, sessions, applications, terminations, meters, counters, routing,
 * GTP-U decap/encap) on one core, uplink and downlink interleaved, 64-byte inner
 * UDP payload, sessions picked uniformly at random. Prints a markdown report.
 *   bench [sessions...]   (default: 1000 1000000 16000000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <rte_eal.h>
#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include "dp_int.h"
#include "pkt.h"

#define BURST 32
#define NTPL 8192          /* distinct packets (templates) per run */
static uint64_t PKTS = 20000000;  /* packets per measurement; env BENCH_PKTS overrides (profiling) */
#define N3 0x0a000001u
#define GNB 0x0a000064u
#define APP 0x08080808u
#define UE_BASE 0x10000000u

struct tpl { uint8_t b[192]; uint16_t len, port; };

static uint64_t xs = 88172645463325252ull;
static uint64_t rnd(void) { xs ^= xs << 13; xs ^= xs >> 7; xs ^= xs << 17; return xs; }

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* CPU time of this thread: the machine is shared, so wall time would count the
 * time other processes ran. */
static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Core cycles of this thread from the PMU when the kernel/VM exposes it (-1: not). */
static int cycles_fd = -1;
static void cycles_open(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				     .config = PERF_COUNT_HW_CPU_CYCLES, .exclude_kernel = 1, .exclude_hv = 1 };
	cycles_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}
static uint64_t cycles_now(void)
{
	uint64_t v = 0;
	if (cycles_fd < 0 || read(cycles_fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
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

static void make_tpl(struct tpl *t, int uplink, uint32_t sess)
{
	uint8_t *b = t->b;
	memset(b, 0, 12); w16(b + 12, 0x0800);
	uint32_t ue = UE_BASE + sess;
	if (uplink) {
		uint8_t inner[96];
		uint32_t il = ipudp(inner, ue, APP, 4000, 53, 64);
		uint32_t n = 14 + ipudp(b + 14, GNB, N3, 2152, 2152, 8 + il) - 8 - il;
		b[n] = 0x30; b[n + 1] = 0xff; w16(b + n + 2, (uint16_t)il); w32(b + n + 4, sess + 1);
		memcpy(b + n + 8, inner, il);
		t->len = (uint16_t)(n + 8 + il);
		t->port = 1;
	} else {
		t->len = (uint16_t)(14 + ipudp(b + 14, APP, ue, 53, 4000, 64));
		t->port = 2;
	}
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
	double t0 = now_s();
	for (uint32_t i = 0; i < n; i++) {
		uint32_t ue = UE_BASE + i, ctr = (2 * i) % (1u << 20);
		struct dp_term ul = { TERM_FWD, 0, 0, ctr, 0, 0 }, dl = { TERM_FWD, 0, 9, ctr + 1, i + 1, 0 };
		if (dp_ul_session(DP_INSERT, N3, i + 1, SESS_FWD, ue, 0) || dp_dl_session(DP_INSERT, ue, SESS_FWD, 1, 0) ||
		    dp_ul_term(DP_INSERT, ue, 0, &ul) || dp_dl_term(DP_INSERT, ue, 0, &dl)) {
			fprintf(stderr, "insert %u failed\n", i);
			return -1;
		}
	}
	*insert_rate = 4.0 * n / (now_s() - t0);
	dp_commit();
	return 0;
}

/* Restores a burst of mbufs from templates (packets are rewritten in place). */
static void restore(struct rte_mbuf **m, const struct tpl *t, const uint32_t *pick, uint64_t base)
{
	for (int i = 0; i < BURST; i++) {
		const struct tpl *tp = &t[pick[(base + i) % NTPL]];
		m[i]->data_off = RTE_PKTMBUF_HEADROOM;
		m[i]->data_len = m[i]->pkt_len = tp->len;
		m[i]->port = tp->port;
		memcpy(rte_pktmbuf_mtod(m[i], void *), tp->b, tp->len);
	}
}

static size_t g_heap_base;  /* heap in use with no pipeline */

static void run(uint32_t n, struct rte_mempool *mp)
{
	struct dp_sizes sz = { .interfaces = 64, .ul_sessions = n, .dl_sessions = n, .applications = 4096,
			       .ul_terms = n, .dl_terms = n, .routes = 16384, .acl = 1024, .pre_qos_ctr = 1u << 20,
			       .post_qos_ctr = 1u << 20, .session_meter = 65536, .app_meter = 4096, .meter_states = 4096 };
	if (dp_pipeline_set(&sz)) {
		printf("| %u | pipeline allocation failed (raise -m) |\n", n);
		return;
	}
	size_t mem = heap_bytes() - g_heap_base;  /* the previous pipeline was freed by dp_pipeline_set */
	double rate;
	if (populate(n, &rate)) {
		printf("| %u | populate failed |\n", n);
		return;
	}
	static struct tpl t[NTPL];
	static uint32_t pick[NTPL];
	for (uint32_t i = 0; i < NTPL; i++) {
		make_tpl(&t[i], i & 1, (uint32_t)(rnd() % n));
		pick[i] = i;
	}
	struct rte_mbuf *m[BURST];
	struct dp_verdict v[BURST];
	if (rte_pktmbuf_alloc_bulk(mp, m, BURST))
		return;
	struct pipeline *p = dp_pipe();
	/* Online (a reader) only while forwarding: the control calls above wait for readers. */
	rte_rcu_qsbr_thread_online(g_dp.qs, 0);
	/* Restore alone, to subtract its cost from the pipeline's. */
	double t0 = cpu_s();
	uint64_t c0 = cycles_now();
	for (uint64_t k = 0; k < PKTS; k += BURST)
		restore(m, t, pick, k);
	double s_restore = cpu_s() - t0;
	uint64_t c_restore = cycles_now() - c0;
	uint64_t fwd = 0;
	t0 = cpu_s();
	c0 = cycles_now();
	for (uint64_t k = 0; k < PKTS; k += BURST) {
		restore(m, t, pick, k);
		dp_process_burst(p, 0, m, BURST, v);
		for (int i = 0; i < BURST; i++)
			fwd += v[i].fwd;
		rte_rcu_qsbr_quiescent(g_dp.qs, 0);
	}
	double secs = cpu_s() - t0;
	uint64_t cyc = cycles_now() - c0;
	rte_rcu_qsbr_thread_offline(g_dp.qs, 0);
	/* Without a PMU, cycles are estimated as CPU time x TSC rate. */
	if (cycles_fd < 0) {
		cyc = (uint64_t)(secs * rte_get_tsc_hz());
		c_restore = (uint64_t)(s_restore * rte_get_tsc_hz());
	}
	double ns_total = secs * 1e9 / PKTS, ns_restore = s_restore * 1e9 / PKTS;
	printf("| %u | %.2f | %.1f | %.0f | %.1f | %.0f | %.0f | %.2f | %.1f%% |\n", n, 1e3 / ns_total, ns_total,
	       (double)cyc / PKTS, ns_total - ns_restore, (double)(cyc - c_restore) / PKTS, (double)mem / n,
	       rate / 1e6, 100.0 * fwd / PKTS);
	fflush(stdout);
	rte_pktmbuf_free_bulk(m, BURST);
}

int main(int argc, char **argv)
{
	char *eal[] = { "bench", "--no-huge", "-m", "7168", "--no-pci", "--no-shconf", "--no-telemetry",
			"--log-level=lib.*:error", "-l", "0", NULL };
	if (rte_eal_init(10, eal) < 0 || dp_init(1))
		return 1;
	if (getenv("BENCH_PKTS"))
		PKTS = strtoull(getenv("BENCH_PKTS"), NULL, 0) / BURST * BURST;
	rte_rcu_qsbr_thread_register(g_dp.qs, 0);
	struct rte_mempool *mp = rte_pktmbuf_pool_create("bench", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	g_heap_base = heap_bytes();
	cycles_open();
	printf("Packets: %lu per run, bursts of %d, %d distinct packets, UL/DL interleaved, 64-byte inner UDP payload, "
	       "sessions uniformly random. Time is this thread's CPU time; cycles %s (TSC %.2f GHz).\n\n", (unsigned long)PKTS, BURST,
	       NTPL, cycles_fd >= 0 ? "from the PMU" : "estimated as CPU time x TSC rate (no PMU access)",
	       rte_get_tsc_hz() / 1e9);
	printf("| sessions | Mpps/core | ns/pkt | cycles/pkt | ns/pkt pipeline only | cycles/pkt pipeline only | "
	       "bytes/session | C inserts (M entries/s) | forwarded |\n|---|---|---|---|---|---|---|---|---|\n");
	uint32_t def[] = { 1000, 1000000, 16000000 };
	int nn = argc > 1 ? argc - 1 : 3;
	for (int i = 0; i < nn; i++)
		run(argc > 1 ? (uint32_t)strtoul(argv[i + 1], NULL, 0) : def[i], mp);
	return 0;
}
