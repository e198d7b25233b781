/* Egress QoS of a TX port with a configured rate (--port-rate): DPDK's hierarchical
 * scheduler (rte_sched) with one subport and one pipe at the port's rate, one queue per
 * v1model priority (what HupfIngress.qos.queues gives the packet's traffic class),
 * served in strict priority: a higher priority leaves first, priority 0 last. A full
 * queue drops the packet and counts it by priority. One forwarding lcore owns a port's
 * scheduler (rte_sched is single-threaded); the counters are read from any thread. */
#ifndef HUPF_EGRESS_H
#define HUPF_EGRESS_H

#include <stdint.h>
#include <rte_mbuf.h>

#define EGRESS_PRIOS 8          /* v1model priority: bit<3> */
#define EGRESS_QUEUE_PKTS 64    /* packets each priority's queue holds */

struct egress;

/* A scheduler sending rate_bps bits per second, framing included (preamble, FCS, gap:
 * RTE_SCHED_FRAME_OVERHEAD_DEFAULT bytes per frame), for frames up to mtu bytes. NULL with a
 * message in err when rte_sched refuses it. */
struct egress *egress_create(const char *name, uint64_t rate_bps, uint32_t mtu, char *err, unsigned errlen);
void egress_free(struct egress *e);
/* Queues n packets, each at its priority (prio[i] & 7); a packet whose queue is full is
 * freed and counted in drops. Returns the packets queued. */
uint16_t egress_enqueue(struct egress *e, struct rte_mbuf **m, const uint8_t *prio, uint16_t n);
/* The packets the rate lets leave now, highest priority first, at most max. */
uint16_t egress_dequeue(struct egress *e, struct rte_mbuf **m, uint16_t max);
/* Packets queued and not yet dequeued (owner lcore only). */
uint32_t egress_backlog(const struct egress *e);
/* Packets dropped for a full queue, by priority, since creation. */
void egress_drops(const struct egress *e, uint64_t drops[EGRESS_PRIOS]);

#endif
