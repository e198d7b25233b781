/* What the forwarding loop (io.c) shares with the port set-up (ports.c) and the CPU port (cpu_port.c). */
#ifndef HUPF_IO_INT_H
#define HUPF_IO_INT_H

#include <stdint.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include "hupf_dp.h"

#define IO_P4_PORTS 512

/* Ports (ports.c). */
unsigned port_afp_mtu(const char *dev);
unsigned port_afp_frame_size(const struct dp_boot *cfg);
/* Creates the DPDK device of pc (the i-th configured port) with nq TX queues and up to nq RX queues of mbufs
 * from pool; *nrx: its RX queues (0 for a sink that is never polled). */
int port_attach(const struct dp_port_cfg *pc, unsigned i, unsigned nq, struct rte_mempool *pool, unsigned afp_frame,
		uint16_t *d, uint16_t *nrx, char *err, unsigned errlen);

/* af_packet receive-ring drops (afp_stats.c): afp_stats_track finds the queue sockets of the i-th port, an
 * "af_packet:IFACE" port just created (how many, or -errno); afp_stats_rx_drops is its drops so far. */
int afp_stats_track(unsigned port, const char *iface);
uint64_t afp_stats_rx_drops(unsigned port);

/* CPU port (cpu_port.c). */
/* dpdk_port: the P4 port -> DPDK port map (IO_P4_PORTS entries, -1 none) that packet-outs are checked against. */
int cpu_port_init(struct rte_mempool *pool, const int *dpdk_port, char *err, unsigned errlen);
/* Queues m as a packet-in from P4 port ingress (freed and counted when the queue is full). */
void cpu_port_to_cpu(struct rte_mbuf *m, uint16_t ingress, uint8_t reason);
/* Takes up to n queued packet-outs (their P4 egress port in m->port). */
uint16_t cpu_port_take_out(struct rte_mbuf **m, uint16_t n);
void cpu_port_stats(struct dp_stats *s);

#endif
