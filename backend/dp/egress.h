/* Egress QoS of a TX port with a configured rate (--port-rate): one queue per v1model priority
 * (what HupfIngress.qos.queues gives the packet's traffic class) and one token bucket at the
 * port's rate, served in strict priority: a higher priority leaves first, priority 0 last, and no
 * frame leaves while a higher priority has one waiting. A full queue drops the packet and counts
 * it by priority.
 *
 * The queues are single-threaded: one forwarding lcore, the port's owner, enqueues and dequeues.
 * The owner queues its own packets directly; every other lcore hands its packets, their priority
 * written in the mbuf, over a bounded multi-producer ring that the owner empties into the queues
 * before each dequeue. A full ring drops the packet and counts it like a full queue (under its
 * priority, in the other lcore's own counters). The counters are read from any thread.
 *
 * Time is the owner's to give: its enqueue and dequeue take `now`, in TSC cycles (never 0; the data
 * plane passes rte_get_tsc_cycles(), as rte_meter's callers pass theirs), so that a test moves a
 * clock of its own and asserts exact rates and orders whatever the CPU it gets. */
#ifndef HUPF_EGRESS_H
#define HUPF_EGRESS_H

#include <stdint.h>
#include <rte_mbuf.h>

#define EGRESS_PRIOS 8          /* v1model priority: bit<3> */
#define EGRESS_QUEUE_PKTS 64    /* packets each priority's queue holds */
#define EGRESS_RING_PKTS 1024   /* the ring from the other lcores to the owner (one slot stays empty) */
#define EGRESS_FRAME_OVERHEAD 24   /* bytes a frame takes on the wire beyond its own: preamble, FCS, gap */

struct egress;

/* A scheduler sending rate_bps bits per second, framing included (EGRESS_FRAME_OVERHEAD bytes per
 * frame), for frames up to mtu bytes, fed by nlcores forwarding lcores (0..nlcores-1) of which owner
 * runs it (a ring only when nlcores > 1). NULL with a message in err when a parameter is out of
 * range or the ring cannot be made. */
struct egress *egress_create(const char *name, uint64_t rate_bps, uint32_t mtu, unsigned nlcores, unsigned owner,
			     char *err, unsigned errlen);
/* Frees the scheduler and every packet its queues or the ring still hold (no lcore may use it). */
void egress_free(struct egress *e);
unsigned egress_owner(const struct egress *e);
/* Lcore lcore's n packets, each at its priority (prio[i] & 7): the owner queues them at its time now,
 * another lcore puts them on the owner's ring (now unused). A packet whose queue (or the ring) is full
 * is freed and counted in drops. Returns the packets taken. */
uint16_t egress_enqueue(struct egress *e, unsigned lcore, struct rte_mbuf **m, const uint8_t *prio, uint16_t n,
			uint64_t now);
/* Owner only, at its time now: queues what the other lcores handed over, then returns the packets the
 * rate lets leave by then, highest priority first, at most max. */
uint16_t egress_dequeue(struct egress *e, struct rte_mbuf **m, uint16_t max, uint64_t now);
/* Packets queued and not yet dequeued, those on the ring included (from any thread: the stats). */
uint32_t egress_backlog(const struct egress *e);
/* Packets dropped for a full queue or a full ring, by priority, since creation. */
void egress_drops(const struct egress *e, uint64_t drops[EGRESS_PRIOS]);

/* How the owner served the port, since creation, to tell a strict-priority fault from a stall:
 * - stall_drops: of the full queues' drops, by priority, those while the queue still held a stall's
 *   backlog (a stall: the owner away from the scheduler for longer than the credits its bucket keeps,
 *   so that the port lost sending time; the queue's backlog is cleared when it empties);
 * - below_full: frames sent while a queue of a higher priority was full (what strict priority forbids:
 *   the port's time spent below a queue that is dropping);
 * - longest_gap_us: the owner's longest absence from the scheduler. */
struct egress_service {
	uint64_t stall_drops[EGRESS_PRIOS];
	uint64_t below_full, longest_gap_us;
};
void egress_service(const struct egress *e, struct egress_service *s);

#endif
