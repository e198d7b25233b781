/* HK-IPG on packets: a trace replayed through the hw profile's pipeline (the data plane that
 * `hupf-backend --profile hw` runs as the switch's stand-in), each packet at its own timestamp
 * on the data plane's test clock. Every packet is a downlink frame to a UE without a switch
 * session, so it is steered to a backend and HK-IPG sees it, as on the switch.
 *
 *   hhreplay TRACE   (writes to stdout)
 *
 * TRACE (all little-endian), written by tools/hupf_tools/lab/hhpackets.py:
 *   u32 magic "HHR1", u32 hh_slots, u32 ntau, u32 npackets
 *   u32 tau_th, ipg_init, ipg_th, decay_k, timeslot_us, alpha_shift, key_mode
 *   ntau x (u32 lo, u32 hi, u32 tau)                      tau_table, in match order
 *   npackets x (u64 ts_us, u32 ue)                        sorted by ts_us
 * Output: one line "R <ts_us> <flow key>" per HH_REPORT packet-in (the key read from the
 * report's bytes), "D <reason> <packets>" per drop reason met, then "P <packets> <forwarded> <wall s> <cpu s>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include "dp_int.h"
#include "pkt.h"

#define MAGIC 0x31524848u   /* "HHR1" */
#define PORT_CORE 2
#define PORT_BACKEND 3
#define APP 0x08080808u
#define UE_NET 0x0a000000u
#define PAYLOAD 64

static double now_s(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int read_u32s(FILE *f, uint32_t *v, size_t n)
{
	return fread(v, sizeof(*v), n, f) == n ? 0 : -1;
}

static void w16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }
static void w32(uint8_t *p, uint32_t v) { w16(p, v >> 16); w16(p + 2, v & 0xffff); }

/* Ethernet + IPv4 + UDP from the application to `ue` (the UE address is patched per packet). */
static uint16_t downlink_template(uint8_t *b)
{
	memset(b, 0, 14 + 28 + PAYLOAD);
	w16(b + 12, 0x0800);
	uint8_t *ip = b + 14;
	ip[0] = 0x45; w16(ip + 2, 28 + PAYLOAD); ip[8] = 64; ip[9] = 17;
	w32(ip + 12, APP);
	w16(ip + 20, 80); w16(ip + 22, 4000); w16(ip + 24, 8 + PAYLOAD);
	return 14 + 28 + PAYLOAD;
}

static int configure(FILE *f, uint32_t *npkts)
{
	uint32_t h[4], c[7];
	if (read_u32s(f, h, 4) || h[0] != MAGIC || read_u32s(f, c, 7))
		return fprintf(stderr, "hhreplay: not a trace (magic, header)\n"), -1;
	*npkts = h[3];
	struct dp_sizes sz = { .interfaces = 64, .ul_sessions = 1024, .dl_sessions = 1024, .applications = 64,
			       .ul_terms = 1024, .dl_terms = 1024, .routes = 64, .acl = 64, .pre_qos_ctr = 1024,
			       .post_qos_ctr = 1024, .session_meter = 64, .app_meter = 64, .meter_states = 128,
			       .hw = 1, .hh_slots = h[1], .cls_slots = 1024 };
	struct dp_range tau[256];
	if (h[2] > 256)
		return fprintf(stderr, "hhreplay: %u tau entries (at most 256)\n", h[2]), -1;
	for (uint32_t i = 0; i < h[2]; i++) {
		uint32_t e[3];
		if (read_u32s(f, e, 3))
			return fprintf(stderr, "hhreplay: truncated tau table\n"), -1;
		tau[i] = (struct dp_range){ e[0], e[1], (uint16_t)e[2] };
	}
	const struct dp_hh_params prm = { (uint16_t)c[0], c[1], c[2], c[3], c[4], (uint8_t)c[5], (uint8_t)c[6] };
	const struct dp_backend be = { PORT_BACKEND, { 0, 0, 0, 0, 0xbb, 1 } };
	/* Every UE (10/8, the trace's addresses) is behind the core interface of slice 1, whose one
	 * backend takes the misses. */
	int rc[5] = { dp_pipeline_set(&sz), dp_interface(DP_INSERT, UE_NET, 8, 0, IFACE_CORE, 1),
		      dp_backends_set(1, &be, 1), dp_hh_config(&prm), dp_tau_replace(tau, h[2]) };
	for (int i = 0; i < 5; i++)
		if (rc[i])
			return fprintf(stderr, "hhreplay: pipeline set-up step %d failed (%d)\n", i, rc[i]), -1;
	dp_commit();
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return fprintf(stderr, "usage: hhreplay TRACE\n"), 2;
	char *eal[] = { "hhreplay", "-m", "512", "--no-pci", "--no-shconf", "--no-telemetry", "--no-huge",
			"--log-level=lib.*:error", "-l", "0" };
	if (rte_eal_init((int)RTE_DIM(eal), eal) < 0 || dp_init(1))
		return 1;
	struct rte_mempool *pool = rte_pktmbuf_pool_create("replay", 64, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	g_dp.cpu_pool = rte_pktmbuf_pool_create("reports", 64, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	FILE *f = fopen(argv[1], "rb");
	uint32_t npkts;
	if (!pool || !g_dp.cpu_pool || !f || configure(f, &npkts))
		return 1;
	rte_rcu_qsbr_thread_register(g_dp.qs, 0);
	rte_rcu_qsbr_thread_online(g_dp.qs, 0);
	struct pipeline *p = dp_pipe();
	uint8_t tpl[128];
	uint16_t len = downlink_template(tpl);
	uint64_t fwd = 0, drops[256] = { 0 };
	double w0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
	for (uint32_t k = 0; k < npkts; k++) {
		uint64_t ts;
		uint32_t ue;
		if (fread(&ts, sizeof(ts), 1, f) != 1 || fread(&ue, sizeof(ue), 1, f) != 1)
			return fprintf(stderr, "hhreplay: trace ends at packet %u of %u\n", k, npkts), 1;
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
		if (!m)
			return 1;
		uint8_t *b = (uint8_t *)rte_pktmbuf_append(m, len);
		memcpy(b, tpl, len);
		w32(b + 14 + 16, ue);
		pkt_ipv4_fix_cksum(b + 14);
		m->port = PORT_CORE;
		struct dp_verdict v;
		/* One packet per burst: the pipeline reads the clock once per burst. */
		dp_clock_set(ts * 1000);
		dp_process_burst(p, 0, &m, 1, &v);
		fwd += v.fwd && v.out_port == PORT_BACKEND;
		drops[v.drop_reason] += !v.fwd;
		if (v.cpu_copy && v.copy_reason == PKTIN_HH_REPORT) {
			const uint8_t *r = rte_pktmbuf_mtod((struct rte_mbuf *)v.cpu_copy, const uint8_t *);
			printf("R %lu %u\n", (unsigned long)ts, (uint32_t)r[0] << 24 | r[1] << 16 | r[2] << 8 | r[3]);
		}
		rte_pktmbuf_free(v.cpu_copy);
		rte_pktmbuf_free(m);
		rte_rcu_qsbr_quiescent(g_dp.qs, 0);
	}
	for (int r = 0; r < 256; r++)
		if (drops[r])
			printf("D %d %lu\n", r, (unsigned long)drops[r]);
	printf("P %u %lu %.3f %.3f\n", npkts, (unsigned long)fwd, now_s(CLOCK_MONOTONIC) - w0,
	       now_s(CLOCK_THREAD_CPUTIME_ID) - c0);
	fclose(f);
	return 0;
}
