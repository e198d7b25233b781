/* gnb-svc: the gNB's x86 services on DPDK ports, the crypto service on one lcore and BaaS on
 * another (both on the main lcore when EAL gives no workers). Each service's frames come in and
 * go out on its own port (docs/GNB.md). UE contexts come from a file (the RAN control plane's
 * stand-in); keys are never printed. On SIGINT/SIGTERM (or after --packets frames) it prints
 * its counters as one JSON object and exits; on SIGUSR1 it prints them and goes on. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include "stage.h"
#include "signals.h"

struct opts {
	int crypto_port, baas_port;
	const char *ues;
	struct baas_cfg baas;
	uint64_t tick_us, timeout_ms, packets, idle_us;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: gnb-svc [EAL options] -- --crypto-port P --baas-port P --ues FILE\n"
		"       [--max-ues N] [--window PDUS] [--ue-bytes B] [--total-pdus N] [--total-bytes B]\n"
		"       [--tick-us U] [--timeout-ms M] [--max-retx R] [--packets N] [--idle-sleep-us U]\n"
		"FILE: one UE a line, 'UE BEARER SN_BITS ENC_KEY_HEX [INT_KEY_HEX]' (BEARER: RB identity - 1)\n");
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "crypto-port", 1, 0, 'c' }, { "baas-port", 1, 0, 'b' }, { "ues", 1, 0, 'u' },
		{ "max-ues", 1, 0, 'n' }, { "window", 1, 0, 'w' }, { "ue-bytes", 1, 0, 'e' },
		{ "total-pdus", 1, 0, 'p' }, { "total-bytes", 1, 0, 't' }, { "tick-us", 1, 0, 'k' },
		{ "timeout-ms", 1, 0, 'm' }, { "max-retx", 1, 0, 'r' }, { "packets", 1, 0, 'x' },
		{ "idle-sleep-us", 1, 0, 's' }, { 0, 0, 0, 0 },
	};
	*o = (struct opts){ .crypto_port = -1, .baas_port = -1, .tick_us = 1000, .timeout_ms = 50,
			    .baas = { .max_ues = 1024, .window = 1024, .ue_bytes = 4u << 20, .total_pdus = 1u << 20,
				      .total_bytes = 1ull << 30, .max_retx = 4 } };
	int c;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		char *end;
		unsigned long long v = optarg ? strtoull(optarg, &end, 0) : 0;
		if (c != 'u' && (c == '?' || !optarg || *end)) {
			usage();
			return -1;
		}
		switch (c) {
		case 'c': o->crypto_port = (int)v; break;
		case 'b': o->baas_port = (int)v; break;
		case 'u': o->ues = optarg; break;
		case 'n': o->baas.max_ues = (uint32_t)v; break;
		case 'w': o->baas.window = (uint32_t)v; break;
		case 'e': o->baas.ue_bytes = v; break;
		case 'p': o->baas.total_pdus = (uint32_t)v; break;
		case 't': o->baas.total_bytes = v; break;
		case 'k': o->tick_us = v; break;
		case 'm': o->timeout_ms = v; break;
		case 'r': o->baas.max_retx = (uint8_t)v; break;
		case 'x': o->packets = v; break;
		case 's': o->idle_us = v; break;
		}
	}
	if (o->crypto_port < 0 || o->baas_port < 0 || !o->ues || !o->tick_us || o->timeout_ms * 1000 < o->tick_us) {
		usage();
		return -1;
	}
	o->baas.tick_cycles = rte_get_tsc_hz() / 1000000 * o->tick_us;
	o->baas.timeout_ticks = (uint32_t)(o->timeout_ms * 1000 / o->tick_us);
	return 0;
}

static int unhex16(const char *h, uint8_t out[16])
{
	if (strlen(h) != 32)
		return -1;
	for (int i = 0; i < 16; i++)
		if (sscanf(h + 2 * i, "%2hhx", &out[i]) != 1)
			return -1;
	return 0;
}

/* The UE file into both services. Errors name the line, never a key. */
static int load_ues(const char *path, struct crypto_svc *c, struct baas *b)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "gnb-svc: %s: %s\n", path, strerror(errno));
		return -1;
	}
	char line[256], enc[80], integ[80];
	int lineno = 0, n = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		unsigned ue, bearer, sn_bits;
		struct crypto_ue_cfg cfg = { 0 };
		int fields = sscanf(line, "%u %u %u %79s %79s", &ue, &bearer, &sn_bits, enc, integ);
		if (fields < 4 || bearer > 31 || unhex16(enc, cfg.enc_key) ||
		    (fields == 5 && unhex16(integ, cfg.int_key))) {
			fprintf(stderr, "gnb-svc: %s:%d: expected 'UE BEARER SN_BITS ENC_KEY [INT_KEY]', 128-bit keys in hex\n",
				path, lineno);
			fclose(f);
			return -1;
		}
		cfg.integrity = fields == 5;
		cfg.bearer = (uint8_t)bearer;
		cfg.sn_bits = (uint8_t)sn_bits;
		int rc = crypto_svc_ue_set(c, ue, &cfg);
		if (!rc)
			rc = baas_ue_add(b, ue, 0);
		explicit_bzero(&cfg, sizeof(cfg));
		if (rc) {
			fprintf(stderr, "gnb-svc: %s:%d: UE refused (%s)\n", path, lineno, strerror(-rc));
			fclose(f);
			return -1;
		}
		n++;
	}
	explicit_bzero(line, sizeof(line)); /* the last keys read */
	explicit_bzero(enc, sizeof(enc));
	explicit_bzero(integ, sizeof(integ));
	fclose(f);
	return n;
}

static int port_init(uint16_t port, struct rte_mempool *pool)
{
	struct rte_eth_conf conf = { 0 };
	if (!rte_eth_dev_is_valid_port(port) || rte_eth_dev_configure(port, 1, 1, &conf) ||
	    rte_eth_rx_queue_setup(port, 0, 1024, (unsigned)rte_eth_dev_socket_id(port), NULL, pool) ||
	    rte_eth_tx_queue_setup(port, 0, 1024, (unsigned)rte_eth_dev_socket_id(port), NULL) ||
	    rte_eth_dev_start(port)) {
		fprintf(stderr, "gnb-svc: port %u cannot be set up\n", port);
		return -1;
	}
	return 0;
}

static void print_stats(const struct gnb_stage *cs, const struct gnb_stage *bs)
{
	const struct crypto_stats *c = crypto_svc_stats(cs->crypto);
	const struct baas_stats *b = baas_stats(bs->baas);
	printf("{\"crypto\": {\"protected\": %" PRIu64 ", \"unprotected\": %" PRIu64 ", \"rx\": %" PRIu64
	       ", \"tx_full\": %" PRIu64 ", \"drops\": {", c->protected_pdus, c->unprotected_pdus, cs->rx, cs->tx_full);
	for (int i = 0; i < CRYPTO_DROP_REASONS; i++)
		printf("%s\"%s\": %" PRIu64, i ? ", " : "", crypto_drop_name(i), c->drops[i]);
	printf("}}, \"baas\": {\"held\": %" PRIu64 ", \"acked\": %" PRIu64 ", \"status_reports\": %" PRIu64
	       ", \"retx_status\": %" PRIu64 ", \"retx_timeout\": %" PRIu64 ", \"retx_deferred\": %" PRIu64
	       ", \"held_pdus\": %" PRIu64 ", \"held_bytes\": %" PRIu64 ", \"rx\": %" PRIu64 ", \"tx_full\": %" PRIu64
	       ", \"drops\": {", b->held, b->acked, b->status_reports, b->retx_status, b->retx_timeout, b->retx_deferred,
	       b->held_pdus, b->held_bytes, bs->rx, bs->tx_full);
	for (int i = 0; i < BAAS_DROP_REASONS; i++)
		printf("%s\"%s\": %" PRIu64, i ? ", " : "", baas_drop_name(i), b->drops[i]);
	printf("}}}\n");
	fflush(stdout);
}

/* Both stages on one lcore, until stopped or (with a limit) after that many frames; with --idle-sleep-us, a
 * pass that neither took nor sent a frame sleeps (a lab sharing its CPUs; BaaS's ticks are far longer). */
static int run_both(struct gnb_stage *cs, struct gnb_stage *bs, const struct opts *o)
{
	while (!g_stop && (!o->packets || cs->rx + bs->rx < o->packets)) {
		uint64_t rx = cs->rx + bs->rx;
		uint16_t sent = gnb_stage_once(cs, rte_rdtsc());
		sent += gnb_stage_once(bs, rte_rdtsc());
		if (o->idle_us && !sent && rx == cs->rx + bs->rx)
			rte_delay_us_sleep((unsigned)o->idle_us);
		if (g_dump) {
			g_dump = 0;
			print_stats(cs, bs);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int eal = rte_eal_init(argc, argv);
	if (eal < 0) {
		fprintf(stderr, "gnb-svc: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	struct opts o;
	if (parse_opts(argc - eal, argv + eal, &o))
		return 2;
	struct rte_mempool *pool = rte_pktmbuf_pool_create("gnb", 8191, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
							   (int)rte_socket_id());
	struct crypto_svc *crypto = crypto_svc_create(o.baas.max_ues);
	struct baas *baas = baas_create(&o.baas, rte_rdtsc());
	if (!pool || !crypto || !baas) {
		fprintf(stderr, "gnb-svc: out of memory (mbufs, UE tables or BaaS slots: --max-ues x --window)\n");
		return 1;
	}
	int n = load_ues(o.ues, crypto, baas);
	if (n < 0 || port_init((uint16_t)o.crypto_port, pool) ||
	    (o.baas_port != o.crypto_port && port_init((uint16_t)o.baas_port, pool)))
		return 1;
	signals_install();
	struct gnb_stage cs = { .crypto = crypto, .in = { .port = (uint16_t)o.crypto_port },
				.out = { .port = (uint16_t)o.crypto_port }, .stop = &g_stop };
	struct gnb_stage bs = { .baas = baas, .in = { .port = (uint16_t)o.baas_port },
				.out = { .port = (uint16_t)o.baas_port }, .stop = &g_stop };
	unsigned w1 = rte_get_next_lcore(-1, 1, 0), w2 = w1 < RTE_MAX_LCORE ? rte_get_next_lcore(w1, 1, 0) : RTE_MAX_LCORE;
	fprintf(stderr, "gnb-svc: %d UEs; crypto on port %d, BaaS on port %d, %s\n", n, o.crypto_port, o.baas_port,
		w2 < RTE_MAX_LCORE ? "one lcore each" : "both on the main lcore");
	if (w2 < RTE_MAX_LCORE && !o.packets) {
		rte_eal_remote_launch(gnb_stage_run, &cs, w1);
		rte_eal_remote_launch(gnb_stage_run, &bs, w2);
		while (!g_stop) {   /* the workers' counters, read while they run (aligned 64-bit words) */
			if (g_dump) {
				g_dump = 0;
				print_stats(&cs, &bs);
			}
			rte_delay_us_sleep(10000);
		}
		rte_eal_mp_wait_lcore();
	} else {
		run_both(&cs, &bs, &o);
	}
	print_stats(&cs, &bs);
	/* Closing the ports flushes what they hold (a pcap port's file). */
	rte_eth_dev_stop((uint16_t)o.crypto_port);
	rte_eth_dev_close((uint16_t)o.crypto_port);
	if (o.baas_port != o.crypto_port) {
		rte_eth_dev_stop((uint16_t)o.baas_port);
		rte_eth_dev_close((uint16_t)o.baas_port);
	}
	crypto_svc_free(crypto);
	baas_free(baas);
	rte_eal_cleanup();
	return 0;
}
