/* The lcore stages (see stage.h). */
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include "stage.h"

static inline uint16_t io_rx(const struct gnb_io *io, struct rte_mbuf **m, uint16_t n)
{
	return io->ring ? (uint16_t)rte_ring_dequeue_burst(io->ring, (void **)m, n, NULL)
			: rte_eth_rx_burst(io->port, 0, m, n);
}

static uint16_t io_tx(struct gnb_stage *s, struct rte_mbuf **m, uint16_t n)
{
	uint16_t sent = s->out.ring ? (uint16_t)rte_ring_enqueue_burst(s->out.ring, (void **)m, n, NULL)
				    : rte_eth_tx_burst(s->out.port, 0, m, n);
	if (sent < n) {
		s->tx_full += n - sent;
		rte_pktmbuf_free_bulk(m + sent, n - sent);
	}
	return sent;
}

uint16_t gnb_stage_once(struct gnb_stage *s, uint64_t now)
{
	struct rte_mbuf *in[GNB_BURST], *out[GNB_BURST];
	uint16_t n = io_rx(&s->in, in, GNB_BURST);
	s->rx += n;
	if (s->crypto)
		return n ? io_tx(s, in, crypto_svc_burst(s->crypto, in, n)) : 0;
	uint16_t k = n ? baas_burst(s->baas, in, n, now, out, GNB_BURST) : 0;
	uint16_t sent = k ? io_tx(s, out, k) : 0;
	k = baas_timers(s->baas, now, out, GNB_BURST);
	return (uint16_t)(sent + (k ? io_tx(s, out, k) : 0));
}

int gnb_stage_run(void *arg)
{
	struct gnb_stage *s = arg;
	while (!*s->stop)
		gnb_stage_once(s, rte_rdtsc());
	return 0;
}
