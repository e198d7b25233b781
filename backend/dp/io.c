/* EAL and the forwarding lcores (the ports' devices: ports.c; the CPU port: cpu_port.c). One RX queue
 * (where the port has enough) and one TX queue per port per worker. Neither af_packet's fanout nor a NIC's RSS
 * sees the inner (UE) address of GTP-U, so with several workers each one hands
 * what it receives to the worker chosen by a hash of the packet's UE address, over
 * a ring: a UE's packets always meet the same worker, which keeps each flow in
 * order (a flow arrives on one RX queue, then takes one ring) and its meters
 * single-writer. A rate-limited port's scheduler (egress.h) has one owner lcore; the
 * others hand it their packets for that port over the scheduler's own ring. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_ring.h>
#include <rte_hash_crc.h>
#include "dp_int.h"
#include "egress.h"
#include "io_int.h"
#include "pkt.h"

#define BURST 32
#define AFP_PREFIX "af_packet:"
#define RING_SZ 4096
/* The largest L2 header around an MTU-sized IP packet (Ethernet + one VLAN tag). */
#define L2_OVERHEAD 18
/* Empty polls in a row before an lcore with idle_sleep_us naps. */
#define IDLE_POLLS 256

static struct {
	unsigned nports;
	uint16_t p4_port[RTE_MAX_ETHPORTS];     /* dpdk port id -> P4 port */
	int dpdk_port[IO_P4_PORTS];             /* P4 port -> dpdk port id, -1 none */
	uint16_t dev[DP_MAX_PORTS];             /* dpdk port ids in config order */
	uint16_t nrxq[DP_MAX_PORTS];            /* RX queues of each port (<= workers) */
	struct rte_mempool *pool;
	struct rte_ring *to_worker[DP_MAX_WORKERS];
	volatile int stop;
	unsigned idle_sleep_us, idle_sleep_max_us;
	/* Each lcore's naps, written by it alone (dp_stats sums them). */
	struct {
		uint64_t naps, capped, work_after_capped;
	} __rte_cache_aligned nap[DP_MAX_WORKERS];
	uint64_t no_pipeline, ipv4_fragments;
	unsigned afp_frame;                     /* af_packet ring frame size, from the largest port MTU */
	unsigned lcore_of[DP_MAX_WORKERS];
	struct egress *egress[RTE_MAX_ETHPORTS];  /* dpdk port id -> its scheduler (--port-rate), NULL: none */
	uint64_t rate_bps[RTE_MAX_ETHPORTS];
	unsigned negress;
	/* The rate-limited ports whose scheduler each lcore owns (dpdk port ids). */
	struct {
		unsigned n;
		uint16_t dev[DP_MAX_PORTS];
	} owned[DP_MAX_WORKERS];
} io;

static void tx_one(uint16_t qid, uint16_t p4port, struct rte_mbuf *m)
{
	int d = p4port < IO_P4_PORTS ? io.dpdk_port[p4port] : -1;
	if (d < 0 || rte_eth_tx_burst((uint16_t)d, qid, &m, 1) != 1)
		rte_pktmbuf_free(m);
}

/* Sends n packets out of a P4 port, through its scheduler when it has a rate (queued by its
 * owner lcore, handed to the owner over its ring by the others; a full queue or ring frees and
 * counts what it refuses); what the port does not take is freed. */
static void tx_burst(unsigned slot, uint16_t p4port, struct rte_mbuf **m, const uint8_t *prio, uint16_t n)
{
	int d = p4port < IO_P4_PORTS ? io.dpdk_port[p4port] : -1;
	if (d >= 0 && io.egress[d]) {
		struct egress *e = io.egress[d];
		egress_enqueue(e, slot, m, prio, n, slot == egress_owner(e) ? rte_get_tsc_cycles() : 0);
		return;
	}
	uint16_t sent = d < 0 ? 0 : rte_eth_tx_burst((uint16_t)d, (uint16_t)slot, m, n);
	if (sent < n)
		rte_pktmbuf_free_bulk(m + sent, n - sent);
}

/* Sends what the schedulers this lcore owns let leave now (after queueing what the other lcores
 * handed over); returns the packets sent, and in *held those they still hold. */
static uint32_t egress_drain(unsigned slot, uint32_t *held)
{
	uint32_t sent_all = 0;
	for (unsigned i = 0; i < io.owned[slot].n; i++) {
		uint16_t d = io.owned[slot].dev[i];
		struct egress *e = io.egress[d];
		struct rte_mbuf *m[BURST];
		uint16_t n = egress_dequeue(e, m, BURST, rte_get_tsc_cycles());
		uint16_t sent = n ? rte_eth_tx_burst(d, (uint16_t)slot, m, n) : 0;
		if (sent < n)
			rte_pktmbuf_free_bulk(m + sent, n - sent);
		sent_all += n;
		*held += egress_backlog(e);
	}
	return sent_all;
}

/* An IPv4 fragment (MF set or a fragment offset), outer or plain, without VLAN: hupf does not reassemble
 * (a GTP-U path is sized so that nothing fragments; reassembly would hold state per
 * flow for any sender), so fragments are dropped here and counted (stats: ipv4_fragments_dropped). */
static int is_ipv4_fragment(struct rte_mbuf *m)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
	if (rte_pktmbuf_data_len(m) < 14 + 20 || b[12] != 0x08 || b[13] != 0x00 || (b[14] >> 4) != 4)
		return 0;
	return ((b[20] << 8 | b[21]) & 0x3fff) != 0;
}

/* Runs the pipeline on a burst and acts on the verdicts. */
static void forward(unsigned slot, struct rte_mbuf **m, uint16_t n)
{
	struct pipeline *p = dp_pipe();
	struct dp_verdict v[BURST];
	if (!p) {
		__atomic_fetch_add(&io.no_pipeline, n, __ATOMIC_RELAXED);
		rte_pktmbuf_free_bulk(m, n);
		return;
	}
	uint16_t kept = 0;
	for (uint16_t i = 0; i < n; i++) {
		if (is_ipv4_fragment(m[i])) {
			__atomic_fetch_add(&io.ipv4_fragments, 1, __ATOMIC_RELAXED);
			rte_pktmbuf_free(m[i]);
		} else {
			m[kept++] = m[i];
		}
	}
	n = kept;
	if (!n)
		return;
	uint16_t ingress[BURST];
	for (uint16_t i = 0; i < n; i++)
		ingress[i] = m[i]->port;
	dp_process_burst(p, slot, m, n, v);
	/* Group consecutive packets to the same port into one tx burst. */
	struct rte_mbuf *out[BURST];
	uint8_t prio[BURST];
	uint16_t nout = 0, out_port = 0;
	for (uint16_t i = 0; i <= n; i++) {
		if (nout && (i == n || !v[i].fwd || v[i].out_port != out_port)) {
			tx_burst(slot, out_port, out, prio, nout);
			nout = 0;
		}
		if (i == n)
			break;
		if (v[i].cpu_copy)
			cpu_port_to_cpu(v[i].cpu_copy, ingress[i], v[i].copy_reason);  /* v.to_cpu may have become DOWNLINK_BUFFER */
		if (v[i].rps_copy)
			cpu_port_to_cpu(v[i].rps_copy, ingress[i], PKTIN_RPS);
		if (v[i].fwd) {
			out_port = v[i].out_port;
			prio[nout] = v[i].prio;
			out[nout++] = m[i];
		} else if (v[i].to_cpu) {
			cpu_port_to_cpu(m[i], ingress[i], v[i].to_cpu);
		} else {
			rte_pktmbuf_free(m[i]);
		}
	}
}

/* The UE of a packet: inner source of GTP-U, else the destination. A VXLAN frame goes by its
 * VNI: a tenant's packets meet one lcore, so that its meter has a single writer (and each of its
 * UEs stays in order); one tenant then uses one lcore. */
static unsigned pick_worker(struct rte_mbuf *m, unsigned n)
{
	struct pkt_info pi;
	pkt_parse(rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_data_len(m), &pi);
	uint32_t ue = pi.vxlan ? pi.vni : pi.inner ? pi.inner_src : pi.ip_dst;
	return rte_hash_crc_4byte(ue, 0) % n;
}

static int worker_main(void *arg)
{
	unsigned slot = (unsigned)(uintptr_t)arg, nw = g_dp.nworkers;
	struct rte_mbuf *m[BURST];
	unsigned idle = 0, nap_us = io.idle_sleep_us, capped = 0;
	rte_rcu_qsbr_thread_register(g_dp.qs, slot);
	rte_rcu_qsbr_thread_online(g_dp.qs, slot);
	while (!io.stop) {
		unsigned work = 0;
		for (unsigned i = 0; i < io.nports; i++) {
			if (slot >= io.nrxq[i])
				continue;
			uint16_t d = io.dev[i];
			uint16_t n = rte_eth_rx_burst(d, (uint16_t)slot, m, BURST);
			work += n;
			for (uint16_t k = 0; k < n; k++)
				m[k]->port = io.p4_port[d];
			if (nw == 1) {
				if (n)
					forward(slot, m, n);
				continue;
			}
			for (uint16_t k = 0; k < n; k++)
				if (rte_ring_enqueue(io.to_worker[pick_worker(m[k], nw)], m[k]))
					rte_pktmbuf_free(m[k]);
		}
		if (nw > 1) {
			uint16_t n = (uint16_t)rte_ring_dequeue_burst(io.to_worker[slot], (void **)m, BURST, NULL);
			work += n;
			if (n)
				forward(slot, m, n);
		}
		if (slot == 0) {
			uint16_t n = cpu_port_take_out(m, BURST);
			work += n;
			for (uint16_t k = 0; k < n; k++)
				tx_one(0, m[k]->port, m[k]);
		}
		uint32_t held = 0;
		if (io.owned[slot].n)
			work += egress_drain(slot, &held);
		rte_rcu_qsbr_quiescent(g_dp.qs, slot);
		/* A busy-polling thread is always runnable: on CPUs it shares (tests, labs,
		 * several instances on a small machine) the scheduler can keep it off the
		 * CPU for seconds while packets wait in the RX rings. Idle, it naps instead
		 * (offline for RCU, so that writers do not wait for it), and wakes as a
		 * sleeper that the scheduler runs promptly. */
		idle = work ? 0 : idle + 1;
		if (work) {
			io.nap[slot].work_after_capped += capped;
			nap_us = io.idle_sleep_us;
		}
		capped = 0;
		/* Packets a scheduler holds until its rate lets them leave are no reason to spin: the
		 * lcore naps at once, as a sleeper that the scheduler wakes promptly, where spinning
		 * would get it preempted for whole time slices on a shared CPU (the buckets keep the
		 * credits of the nap). Those naps stay short; a quiet lcore's double with each empty one
		 * up to idle_sleep_max_us, as DPDK's l3fwd-power does: an idle backend wakes ~1,000 times
		 * a second instead of ~5,000, and a packet after a quiet spell waits at most that long. */
		if (io.idle_sleep_us && (idle >= IDLE_POLLS || (held && !work))) {
			unsigned us = held ? io.idle_sleep_us : nap_us;
			rte_rcu_qsbr_thread_offline(g_dp.qs, slot);
			rte_delay_us_sleep(us);
			rte_rcu_qsbr_thread_online(g_dp.qs, slot);
			io.nap[slot].naps++;
			if (us > io.idle_sleep_us && us >= io.idle_sleep_max_us) {
				io.nap[slot].capped++;
				capped = 1;
			}
			if (!held && nap_us < io.idle_sleep_max_us)
				nap_us = RTE_MIN(2 * nap_us, io.idle_sleep_max_us);
		}
	}
	rte_rcu_qsbr_thread_offline(g_dp.qs, slot);
	rte_rcu_qsbr_thread_unregister(g_dp.qs, slot);
	return 0;
}

/* A scheduler on port d at pc's rate, for frames up to the port's MTU (the ethdev's or the Linux
 * interface's, whichever is larger) with an Ethernet header and a VLAN tag. A scheduler is
 * single-threaded: the k-th rate-limited port's scheduler is owned by forwarding lcore
 * k % nworkers (the schedulers spread over the lcores), which queues its own packets directly
 * and those of the other lcores from the scheduler's ring, dequeues and transmits. */
static int egress_attach(const struct dp_port_cfg *pc, uint16_t d, unsigned nworkers, char *err, unsigned errlen)
{
	char name[32];
	uint16_t mtu = RTE_ETHER_MTU;
	unsigned owner = io.negress % nworkers;
	rte_eth_dev_get_mtu(d, &mtu);
	snprintf(name, sizeof(name), "egress%u", pc->p4_port);
	io.egress[d] = egress_create(name, pc->rate_bps, RTE_MAX((unsigned)mtu, port_afp_mtu(pc->dev)) + L2_OVERHEAD,
				     nworkers, owner, err, errlen);
	if (!io.egress[d])
		return -EINVAL;
	io.rate_bps[d] = pc->rate_bps;
	io.owned[owner].dev[io.owned[owner].n++] = d;
	io.negress++;
	return 0;
}

int dp_boot(const struct dp_boot *cfg, char *err, unsigned errlen)
{
	char mem[32], lc[48], *argv[40];
	char extra[256];
	int argc = 0;
	snprintf(mem, sizeof(mem), "%u", cfg->mem_mb ? cfg->mem_mb : 512);
	/* One CPU per lcore when there are enough; otherwise the lcores float over all
	 * CPUs (labs and tests on small machines), which costs throughput, not correctness.
	 * Extra EAL arguments that place the lcores (-l, --lcores, -c) replace this: several
	 * backends on one machine would otherwise all put their lcore 1 on CPU 1. */
	cpu_set_t cs;
	long ncpu = sched_getaffinity(0, sizeof(cs), &cs) ? 1 : CPU_COUNT(&cs);
	if (ncpu > (long)cfg->nworkers)
		snprintf(lc, sizeof(lc), "-l 0-%u", cfg->nworkers);
	else
		snprintf(lc, sizeof(lc), "--lcores=(0-%u)@(0-%ld)", cfg->nworkers, ncpu - 1);
	argv[argc++] = "hupf-backend";
	argv[argc++] = "--no-huge";
	argv[argc++] = "-m";
	argv[argc++] = mem;
	int pci = 0;
	for (unsigned i = 0; i < cfg->nports && i < DP_MAX_PORTS; i++)
		if (!strncmp(cfg->ports[i].dev, "pci:", 4) && argc < 30) {
			argv[argc++] = "-a";
			argv[argc++] = (char *)cfg->ports[i].dev + 4;
			pci = 1;
		}
	if (!pci)
		argv[argc++] = "--no-pci";
	argv[argc++] = "--no-shconf";
	argv[argc++] = "--log-level=lib.*:warning";
	argv[argc++] = "--no-telemetry";
	snprintf(extra, sizeof(extra), "%s", cfg->extra_eal);
	int placed = 0; /* the extra arguments place the lcores themselves (EAL refuses two placements) */
	for (char *t = strtok(extra, " "); t && argc < 37; t = strtok(NULL, " ")) {
		placed |= !strncmp(t, "-l", 2) || !strncmp(t, "--lcores", 8) || !strncmp(t, "-c", 2);
		argv[argc++] = t;
	}
	if (!placed && lc[1] == 'l') {
		argv[argc++] = "-l";
		argv[argc++] = lc + 3;
	} else if (!placed) {
		argv[argc++] = lc;
	}
	argv[argc] = NULL;
	if (cfg->nworkers == 0 || cfg->nworkers > DP_MAX_WORKERS || cfg->nports > DP_MAX_PORTS) {
		snprintf(err, errlen, "workers must be 1..%d and ports at most %d", DP_MAX_WORKERS, DP_MAX_PORTS);
		return -EINVAL;
	}
	if (rte_eal_init(argc, argv) < 0) {
		snprintf(err, errlen, "EAL init failed: %s", rte_strerror(rte_errno));
		return -EINVAL;
	}
	if (rte_lcore_count() < cfg->nworkers + 1) {
		snprintf(err, errlen, "need %u lcores", cfg->nworkers + 1);
		return -EINVAL;
	}
	int rc = dp_init(cfg->nworkers);
	if (rc) {
		snprintf(err, errlen, "data plane init: %s", strerror(-rc));
		return rc;
	}
	unsigned nm = cfg->mbufs ? cfg->mbufs : 16384;
	/* One mbuf holds one af_packet frame: the PMD copies a frame into a single mbuf. */
	io.afp_frame = port_afp_frame_size(cfg);
	unsigned room = RTE_MAX((unsigned)RTE_MBUF_DEFAULT_DATAROOM, io.afp_frame) + RTE_PKTMBUF_HEADROOM;
	io.pool = rte_pktmbuf_pool_create("mbufs", nm, 256, 0, (uint16_t)room, (int)rte_socket_id());
	if (!io.pool) {
		snprintf(err, errlen, "cannot allocate mbufs (raise --mem)");
		return -ENOMEM;
	}
	rc = cpu_port_init(io.pool, io.dpdk_port, err, errlen);
	if (rc)
		return rc;
	g_dp.cpu_pool = io.pool;
	for (unsigned w = 0; w < cfg->nworkers && cfg->nworkers > 1; w++) {
		char nm2[32];
		snprintf(nm2, sizeof(nm2), "w%u", w);
		io.to_worker[w] = rte_ring_create(nm2, RING_SZ, (int)rte_socket_id(), RING_F_SC_DEQ);
		if (!io.to_worker[w]) {
			snprintf(err, errlen, "cannot allocate worker rings");
			return -ENOMEM;
		}
	}
	for (int i = 0; i < IO_P4_PORTS; i++)
		io.dpdk_port[i] = -1;
	for (unsigned i = 0; i < cfg->nports; i++) {
		const struct dp_port_cfg *pc = &cfg->ports[i];
		uint16_t d;
		if (pc->p4_port >= 511 || io.dpdk_port[pc->p4_port] >= 0) {
			snprintf(err, errlen, "port %u: invalid or repeated P4 port number", pc->p4_port);
			return -EINVAL;
		}
		rc = port_attach(pc, i, cfg->nworkers, io.pool, io.afp_frame, &d, &io.nrxq[i], err, errlen);
		if (rc)
			return rc;
		if (!strncmp(pc->dev, AFP_PREFIX, strlen(AFP_PREFIX)) &&
		    afp_stats_track(i, pc->dev + strlen(AFP_PREFIX)) < 0) {
			snprintf(err, errlen, "port %u: no af_packet queue socket found on %s", pc->p4_port, pc->dev);
			return -ENODEV;
		}
		io.dev[i] = d;
		io.p4_port[d] = pc->p4_port;
		io.dpdk_port[pc->p4_port] = d;
		if (pc->rate_bps) {
			rc = egress_attach(pc, d, cfg->nworkers, err, errlen);
			if (rc)
				return rc;
		}
	}
	io.nports = cfg->nports;
	io.idle_sleep_us = cfg->idle_sleep_us;
	io.idle_sleep_max_us = RTE_MAX(cfg->idle_sleep_max_us, cfg->idle_sleep_us);
	unsigned lcore, w = 0;
	RTE_LCORE_FOREACH_WORKER(lcore) {
		if (w == cfg->nworkers)
			break;
		io.lcore_of[w] = lcore;
		rte_eal_remote_launch(worker_main, (void *)(uintptr_t)w, lcore);
		w++;
	}
	return 0;
}

void dp_shutdown(void)
{
	io.stop = 1;
	rte_eal_mp_wait_lcore();
	for (unsigned i = 0; i < io.nports; i++)
		rte_eth_dev_stop(io.dev[i]);
}

void dp_stats_get(struct dp_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->nports = io.nports;
	for (unsigned i = 0; i < io.nports; i++) {
		struct rte_eth_stats es;
		s->port[i].p4_port = io.p4_port[io.dev[i]];
		s->port[i].rate_bps = io.rate_bps[io.dev[i]];
		if (io.egress[io.dev[i]]) {
			struct egress_service sv;
			egress_drops(io.egress[io.dev[i]], s->port[i].queue_dropped);
			egress_service(io.egress[io.dev[i]], &sv);
			memcpy(s->port[i].queue_stall_dropped, sv.stall_drops, sizeof(sv.stall_drops));
			s->port[i].sent_below_full = sv.below_full;
			s->port[i].longest_gap_us = sv.longest_gap_us;
			s->port[i].queue_backlog = egress_backlog(io.egress[io.dev[i]]);
		}
		if (rte_eth_stats_get(io.dev[i], &es))
			continue;
		s->port[i].rx = es.ipackets;
		s->port[i].tx = es.opackets;
		s->port[i].rx_missed = es.imissed + afp_stats_rx_drops(i);
		s->port[i].tx_dropped = es.oerrors;
	}
	cpu_port_stats(s);
	s->no_pipeline = io.no_pipeline;
	s->ipv4_fragments = io.ipv4_fragments;
	for (unsigned w = 0; w < DP_MAX_WORKERS; w++) {
		s->idle_naps += io.nap[w].naps;
		s->idle_naps_capped += io.nap[w].capped;
		s->work_after_capped += io.nap[w].work_after_capped;
	}
}
