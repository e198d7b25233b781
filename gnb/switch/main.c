/* gnb-switch: the gNB switch's stand-in (gnb_switch.h) on DPDK ports, where bmv2 is absent: DPDK port N is
 * the P4 program's port N. Table entries come from --entries (gnb_switch_entries.h). One lcore polls every
 * port; a frame's outputs leave on their ports (an output to a port that does not exist is dropped and
 * counted, as bmv2 does with a port it has no interface for). On SIGINT/SIGTERM, or after --packets
 * frames, it prints the P4 program's counters as one JSON object and exits; on SIGUSR1 it prints them and goes on. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include "gnb_switch_entries.h"
#include "signals.h"

#define BURST 32

struct io_stats {
	uint64_t rx, tx, tx_full, tx_no_port;
};

static void usage(void)
{
	fprintf(stderr, "usage: gnb-switch [EAL options] -- --entries FILE [--max-ues N] [--packets N] [--idle-sleep-us U]\n"
			"FILE: one table entry a line, 'TABLE ACTION FIELD=VALUE...' (docs/GNB.md)\n"
			"--idle-sleep-us: sleep that long after a pass that found no frame (0: poll without pause)\n");
}

static int port_init(uint16_t port, struct rte_mempool *pool)
{
	struct rte_eth_conf conf = { 0 };
	if (rte_eth_dev_configure(port, 1, 1, &conf) ||
	    rte_eth_rx_queue_setup(port, 0, 1024, (unsigned)rte_eth_dev_socket_id(port), NULL, pool) ||
	    rte_eth_tx_queue_setup(port, 0, 1024, (unsigned)rte_eth_dev_socket_id(port), NULL) ||
	    rte_eth_dev_start(port)) {
		fprintf(stderr, "gnb-switch: port %u cannot be set up\n", port);
		return -1;
	}
	rte_eth_promiscuous_enable(port);
	return 0;
}

/* Each port's outputs of one burst, sent together. */
struct tx_queue {
	struct rte_mbuf *m[2 * BURST];
	uint16_t n;
};

static void flush(struct tx_queue *q, uint16_t port, struct io_stats *st)
{
	if (!q->n)
		return;
	uint16_t sent = rte_eth_tx_burst(port, 0, q->m, q->n);
	st->tx += sent;
	if (sent < q->n) {
		st->tx_full += q->n - sent;
		rte_pktmbuf_free_bulk(q->m + sent, q->n - sent);
	}
	q->n = 0;
}

/* Frames received from every port once. */
static uint64_t poll_ports(struct gnb_switch *sw, uint16_t nports, struct tx_queue *txq, struct io_stats *st)
{
	uint64_t before = st->rx;
	for (uint16_t in = 0; in < nports; in++) {
		struct rte_mbuf *pkts[BURST];
		uint16_t n = rte_eth_rx_burst(in, 0, pkts, BURST);
		st->rx += n;
		for (uint16_t i = 0; i < n; i++) {
			struct gnb_sw_out out[2];
			unsigned k = gnb_switch_packet(sw, in, pkts[i], out);
			for (unsigned j = 0; j < k; j++) {
				if (out[j].port >= nports) {
					st->tx_no_port++;
					rte_pktmbuf_free(out[j].m);
					continue;
				}
				struct tx_queue *q = &txq[out[j].port];
				if (q->n == RTE_DIM(q->m))
					flush(q, out[j].port, st);
				q->m[q->n++] = out[j].m;
			}
		}
		for (uint16_t p = 0; p < nports; p++)
			flush(&txq[p], p, st);
	}
	return st->rx - before;
}

static void print_stats(const struct gnb_switch *sw, uint32_t max_ues, const struct io_stats *st)
{
	const uint64_t *d = gnb_switch_drops(sw);
	printf("{\"rx\": %" PRIu64 ", \"tx\": %" PRIu64 ", \"tx_full\": %" PRIu64 ", \"tx_no_port\": %" PRIu64
	       ", \"copy_failed\": %" PRIu64 ", \"drops\": {", st->rx, st->tx, st->tx_full, st->tx_no_port,
	       gnb_switch_copy_failed(sw));
	for (unsigned r = 1; r < GNB_DROPS_SIZE; r++)
		printf("%s\"%s\": %" PRIu64, r > 1 ? ", " : "", gnb_switch_drop_name(r), d[r]);
	printf("}, \"ues\": {");
	int first = 1;
	for (uint32_t ue = 0; ue < max_ues; ue++) {
		const struct gnb_sw_ue_counters *c = gnb_switch_ue_counters(sw, ue);
		uint32_t tx_next = gnb_switch_tx_next(sw, ue);
		if (!tx_next && !c->dl_pkts && !c->ul_pkts && !c->status_reports && !c->retransmissions)
			continue;
		printf("%s\"%u\": {\"tx_next\": %u, \"dl_pdus\": %" PRIu64 ", \"dl_bytes\": %" PRIu64 ", \"ul_pdus\": %" PRIu64
		       ", \"ul_bytes\": %" PRIu64 ", \"status_reports\": %" PRIu64 ", \"retransmissions\": %" PRIu64 "}",
		       first ? "" : ", ", ue, tx_next, c->dl_pkts, c->dl_bytes, c->ul_pkts, c->ul_bytes, c->status_reports,
		       c->retransmissions);
		first = 0;
	}
	printf("}}\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int eal = rte_eal_init(argc, argv);
	if (eal < 0) {
		fprintf(stderr, "gnb-switch: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= eal;
	argv += eal;
	static const struct option lo[] = {
		{ "entries", 1, 0, 'e' }, { "max-ues", 1, 0, 'n' }, { "packets", 1, 0, 'x' }, { "idle-sleep-us", 1, 0, 's' }, { 0, 0, 0, 0 },
	};
	const char *entries = NULL;
	unsigned long long max_ues = 1024, packets = 0, idle_us = 0;
	int c;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		char *end = NULL;
		if (c == 'e')
			entries = optarg;
		else if (c == 'n' || c == 'x' || c == 's')
			*(c == 'n' ? &max_ues : c == 'x' ? &packets : &idle_us) = strtoull(optarg, &end, 0);
		if (c == '?' || (end && *end)) {
			usage();
			return 2;
		}
	}
	if (!entries || !max_ues || max_ues > UINT32_MAX) {
		usage();
		return 2;
	}
	uint16_t nports = rte_eth_dev_count_avail();
	struct rte_mempool *pool = rte_pktmbuf_pool_create("gnbsw", 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
							   (int)rte_socket_id());
	struct gnb_switch *sw = pool ? gnb_switch_create((uint32_t)max_ues, pool) : NULL;
	struct tx_queue *txq = calloc(nports ? nports : 1, sizeof(*txq));
	if (!sw || !txq) {
		fprintf(stderr, "gnb-switch: out of memory (mbufs or tables: --max-ues)\n");
		return 1;
	}
	FILE *f = fopen(entries, "r");
	if (!f) {
		fprintf(stderr, "gnb-switch: %s: %s\n", entries, strerror(errno));
		return 1;
	}
	int n = gnb_switch_entries_load(sw, f, entries);
	fclose(f);
	if (n < 0)
		return 1;
	for (uint16_t p = 0; p < nports; p++)
		if (port_init(p, pool))
			return 1;
	signals_install();
	fprintf(stderr, "gnb-switch: %d entries, %u ports\n", n, nports);
	struct io_stats st = { 0 };
	while (!g_stop && (!packets || st.rx < packets)) {
		if (!poll_ports(sw, nports, txq, &st) && idle_us)
			rte_delay_us_sleep((unsigned)idle_us);
		if (g_dump) {
			g_dump = 0;
			print_stats(sw, (uint32_t)max_ues, &st);
		}
	}
	print_stats(sw, (uint32_t)max_ues, &st);
	for (uint16_t p = 0; p < nports; p++) {   /* closing flushes what a port holds (a pcap file) */
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	gnb_switch_free(sw);
	free(txq);
	rte_eal_cleanup();
	return 0;
}
