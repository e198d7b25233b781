/* The services as DPDK lcore stages, like the backend's: each lcore loops on bursts from its
 * input (an rte_ring or an ethdev port's queue 0) to its output. A burst the output refuses is
 * freed and counted (tx_full); BaaS's refused resends stay held (their reference is dropped). */
#ifndef GNB_STAGE_H
#define GNB_STAGE_H

#include <stdint.h>
#include <rte_ring.h>
#include "baas.h"
#include "crypto_svc.h"

#define GNB_BURST 32

struct gnb_io {
	struct rte_ring *ring;   /* NULL: the port */
	uint16_t port;
};

struct gnb_stage {
	struct crypto_svc *crypto;   /* one of the two */
	struct baas *baas;
	struct gnb_io in, out;
	uint64_t rx, tx_full;   /* frames taken in; frames the output refused */
	volatile int *stop;
};

/* One iteration: a burst in, processed, out; BaaS then advances its timers to now. Packets sent. */
uint16_t gnb_stage_once(struct gnb_stage *s, uint64_t now);
/* The lcore loop (rte_eal_remote_launch), on rte_rdtsc's clock until *stop. */
int gnb_stage_run(void *arg);

#endif
