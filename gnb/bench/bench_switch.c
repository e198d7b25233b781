/* The switch stand-in's CPU time per frame (gnb_switch_packet) for each path of p4src/gnb/gnb.p4, by frame
 * size: N3 G-PDU -> crypto port; protected PDU -> the UE and a copy to BaaS; air data PDU -> crypto port;
 * deciphered PDU -> N3. Each run times, on this thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), frames made from
 * a template (mbuf allocated, bytes copied), switched and freed; and, in the same run, the same without the
 * switch: the difference is the switch's. min / median / max over --runs runs.
 *
 *   bench_switch [EAL options] -- [--runs R] [--packets N]   (EAL: -l 0 --no-huge) */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include "bench_util.h"
#include "gnb_switch_entries.h"
#include "switch_entries.h"

#define MAX_RUNS 15
static const unsigned sizes[] = { 128, 512, 1500 };   /* frame bytes, Ethernet included */
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
enum path { DL_N3, DL_PROTECTED, UL_AIR, UL_DECIPHERED, PATHS };
static const char *const path_names[PATHS] = { "N3 G-PDU -> crypto", "protected -> UE + BaaS copy",
					       "air data -> crypto", "deciphered -> N3" };
static const uint16_t in_port[PATHS] = { 0, 2, 1, 2 };

/* The path's frame of size bytes: headers as the vectors' (tests/gnb/gnb_vectors.py), the rest payload. */
static void template(enum path p, unsigned size, uint8_t *f)
{
	static const uint8_t mac_a[6] = { 2, 0, 0, 0, 3, 1 }, ue_mac[6] = { 2, 0, 0, 0, 1, 0x10 };
	memset(f, 0x45, size);
	memcpy(f, mac_a, 6);
	memcpy(f + 6, p == UL_AIR ? ue_mac : mac_a, 6);
	uint8_t *h = f + 14;
	if (p == DL_N3) {
		f[12] = 0x08, f[13] = 0x00;
		unsigned ip_len = size - 14, udp_len = ip_len - 20;
		uint8_t ip[20] = { 0x45, 0, (uint8_t)(ip_len >> 8), (uint8_t)ip_len, 0, 0, 0, 0, 64, 17, 0, 0,
				   10, 0, 3, 2, 10, 0, 3, 1 };
		memcpy(h, ip, 20);
		uint8_t udp[8] = { 0x08, 0x68, 0x08, 0x68, (uint8_t)(udp_len >> 8), (uint8_t)udp_len, 0, 0 };
		memcpy(h + 20, udp, 8);
		unsigned msglen = udp_len - 16;
		uint8_t gtp[8] = { 0x30, 0xff, (uint8_t)(msglen >> 8), (uint8_t)msglen, 0, 0, 1, 0 };
		memcpy(h + 28, gtp, 8);
	} else if (p == UL_AIR) {
		f[12] = 0x88, f[13] = 0xb6;
		unsigned len = size - 17;
		h[0] = 0x40 | 4, h[1] = (uint8_t)(len >> 8), h[2] = (uint8_t)len, h[3] = 0x80, h[4] = 0x01;
	} else {
		f[12] = 0x88, f[13] = 0xb5;
		memset(h, 0, 12);
		h[8] = p == DL_PROTECTED ? 1 : 2;   /* op */
		h[12] = 0x80, h[13] = 0x01;         /* PDCP data, SN 1 */
	}
}

/* CPU ns per frame of n frames from the template, switched (sw) or only made and freed (sw NULL). */
static double run(struct gnb_switch *sw, struct rte_mempool *pool, enum path p, const uint8_t *tmpl, unsigned size,
		  uint64_t n)
{
	double t0 = thread_cpu_ns();
	for (uint64_t i = 0; i < n; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
		if (!m || !rte_pktmbuf_append(m, (uint16_t)size))
			abort();
		memcpy(rte_pktmbuf_mtod(m, uint8_t *), tmpl, size);
		if (!sw) {
			rte_pktmbuf_free(m);
			continue;
		}
		struct gnb_sw_out out[2];
		unsigned k = gnb_switch_packet(sw, in_port[p], m, out);
		if (!k)
			abort();   /* every frame here has a way out */
		for (unsigned j = 0; j < k; j++)
			rte_pktmbuf_free(out[j].m);
	}
	return (thread_cpu_ns() - t0) / (double)n;
}

int main(int argc, char **argv)
{
	int eal = rte_eal_init(argc, argv);
	if (eal < 0)
		return 1;
	argc -= eal;
	argv += eal;
	unsigned runs = 5;
	uint64_t packets = 200000;
	static const struct option lo[] = { { "runs", 1, 0, 'r' }, { "packets", 1, 0, 'n' }, { 0, 0, 0, 0 } };
	int c;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c == 'r')
			runs = (unsigned)atoi(optarg);
		else if (c == 'n')
			packets = strtoull(optarg, NULL, 0);
		else
			return 2;
	}
	if (!runs || runs > MAX_RUNS || !packets)
		return 2;
	struct rte_mempool *pool = rte_pktmbuf_pool_create("bench", 4095, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	struct gnb_switch *sw = pool ? gnb_switch_create(16, pool) : NULL;
	char err[160];
	for (size_t i = 0; sw && i < SWITCH_ENTRIES; i++)
		if (gnb_switch_entry(sw, switch_entries[i], err, sizeof(err))) {
			fprintf(stderr, "bench_switch: %s: %s\n", switch_entries[i], err);
			return 1;
		}
	if (!sw)
		return 1;
	double load[3] = { 0 };
	FILE *la = fopen("/proc/loadavg", "r");
	if (!la || fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
		return 1;
	fclose(la);
	printf("gnb-switch stand-in, CPU ns per frame (switch = with - without), %u runs x %lu frames, load %.2f %.2f %.2f\n\n",
	       runs, (unsigned long)packets, load[0], load[1], load[2]);
	printf("| path | frame bytes | switch ns/frame min / median / max | frame made and freed, ns |\n|---|---|---|---|\n");
	uint8_t tmpl[1500];
	for (int p = 0; p < PATHS; p++)
		for (size_t s = 0; s < NSIZES; s++) {
			double d[MAX_RUNS], base[MAX_RUNS];
			template(p, sizes[s], tmpl);
			for (unsigned r = 0; r < runs; r++) {
				base[r] = run(NULL, pool, p, tmpl, sizes[s], packets);
				d[r] = run(sw, pool, p, tmpl, sizes[s], packets) - base[r];
			}
			qsort(d, runs, sizeof(double), cmp_double);
			qsort(base, runs, sizeof(double), cmp_double);
			printf("| %s | %u | %.0f / %.0f / %.0f | %.0f |\n", path_names[p], sizes[s], d[0], d[runs / 2],
			       d[runs - 1], base[runs / 2]);
		}
	gnb_switch_free(sw);
	rte_eal_cleanup();
	return 0;
}
