/* The CPU port: packet-ins queued by the forwarding lcores for the agent, packet-outs queued by the agent
 * for lcore 0. The agent does not poll for packet-ins: it arms a wake-up (dp_packet_in_arm) and blocks on an
 * eventfd that the lcore that queues the next packet-in writes once; an idle backend's agent then takes no
 * CPU for packet-ins at all. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <rte_ring.h>
#include "io_int.h"

#define CPU_RING_SZ 4096

static struct {
	struct rte_mempool *pool;
	const int *dpdk_port;
	struct rte_ring *in, *out;
	int wake_fd;
	int armed;                  /* the agent waits on wake_fd (or is about to) */
	uint64_t to_cpu, to_cpu_dropped, pkt_out_n;
} cpu = { .wake_fd = -1 };

int cpu_port_init(struct rte_mempool *pool, const int *dpdk_port, char *err, unsigned errlen)
{
	cpu.pool = pool;
	cpu.dpdk_port = dpdk_port;
	cpu.in = rte_ring_create("pkt_in", CPU_RING_SZ, (int)rte_socket_id(), RING_F_SC_DEQ);
	cpu.out = rte_ring_create("pkt_out", CPU_RING_SZ, (int)rte_socket_id(), RING_F_SP_ENQ | RING_F_SC_DEQ);
	cpu.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!cpu.in || !cpu.out || cpu.wake_fd < 0) {
		snprintf(err, errlen, "cannot allocate the CPU port's rings or eventfd (raise --mem)");
		return -ENOMEM;
	}
	return 0;
}

/* The store of the queued packet and the load of armed are ordered by full fences here and in
 * dp_packet_in_arm (the store-buffering pattern): either the agent sees the packet before it blocks or
 * this lcore sees it armed and wakes it. */
void cpu_port_to_cpu(struct rte_mbuf *m, uint16_t ingress, uint8_t reason)
{
	m->port = ingress;
	m->hash.usr = reason;
	if (rte_ring_enqueue(cpu.in, m)) {
		__atomic_fetch_add(&cpu.to_cpu_dropped, 1, __ATOMIC_RELAXED);
		rte_pktmbuf_free(m);
		return;
	}
	__atomic_fetch_add(&cpu.to_cpu, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&cpu.armed, __ATOMIC_RELAXED) && __atomic_exchange_n(&cpu.armed, 0, __ATOMIC_ACQ_REL)) {
		uint64_t one = 1;
		if (write(cpu.wake_fd, &one, sizeof(one)) < 0)
			return;  /* only when the counter is full: a wake-up is pending anyway */
	}
}

int dp_packet_in_fd(void)
{
	return cpu.wake_fd;
}

unsigned dp_packet_in_arm(void)
{
	if (!cpu.in)
		return 0;
	__atomic_store_n(&cpu.armed, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return rte_ring_count(cpu.in);
}

void dp_packet_in_kick(void)
{
	uint64_t one = 1;
	if (cpu.wake_fd >= 0 && write(cpu.wake_fd, &one, sizeof(one)) < 0)
		return;  /* only when the counter is full: a wake-up is pending anyway */
}

int dp_packet_in(uint8_t *buf, uint32_t cap, uint16_t *ingress_port, uint8_t *reason)
{
	struct rte_mbuf *m;
	if (!cpu.in || rte_ring_dequeue(cpu.in, (void **)&m))
		return 0;
	uint32_t len = rte_pktmbuf_pkt_len(m);
	if (len > cap)
		len = cap;
	const void *src = rte_pktmbuf_read(m, 0, len, buf);
	if (src && src != buf)
		memcpy(buf, src, len);
	*ingress_port = m->port;
	*reason = (uint8_t)m->hash.usr;
	rte_pktmbuf_free(m);
	return (int)len;
}

int dp_packet_out(uint16_t port, const uint8_t *buf, uint32_t len)
{
	if (port >= IO_P4_PORTS || cpu.dpdk_port[port] < 0)
		return -ENODEV;
	struct rte_mbuf *m = rte_pktmbuf_alloc(cpu.pool);
	if (!m)
		return -ENOMEM;
	char *d = rte_pktmbuf_append(m, (uint16_t)len);
	if (!d || len > 0xffff) {
		rte_pktmbuf_free(m);
		return -EMSGSIZE;
	}
	memcpy(d, buf, len);
	m->port = port;
	if (rte_ring_enqueue(cpu.out, m)) {
		rte_pktmbuf_free(m);
		return -ENOBUFS;
	}
	__atomic_fetch_add(&cpu.pkt_out_n, 1, __ATOMIC_RELAXED);
	return 0;
}

uint16_t cpu_port_take_out(struct rte_mbuf **m, uint16_t n)
{
	return (uint16_t)rte_ring_dequeue_burst(cpu.out, (void **)m, n, NULL);
}

void cpu_port_stats(struct dp_stats *s)
{
	s->to_cpu = cpu.to_cpu;
	s->to_cpu_dropped = cpu.to_cpu_dropped;
	s->pkt_out = cpu.pkt_out_n;
}
