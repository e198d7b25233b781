/* Buffer-as-a-Service (seed 001 §5.6.1): each UE's protected downlink PDCP PDUs held until the UE
 * acknowledges them, sent again for a status report that says they are missing or when their
 * timer expires (RLC-AM-style ARQ, which the switch cannot do: no buffer memory, no timers).
 *
 * A UE's PDUs live in a window of cfg.window slots from the first unacknowledged COUNT (its base):
 * a status report acknowledges every COUNT below FMC (the base moves to FMC) and those its bitmap
 * marks received, and resends FMC and the bitmap's missing ones. Timers are a wheel of 1-tick
 * buckets on the lcore's clock (rte_rdtsc, or the caller's in tests): each held PDU sits in the
 * bucket of its deadline and is resent and re-armed when the wheel reaches it, at most
 * cfg.max_retx times, then given up. Memory is bounded per UE (window, bytes) and in total
 * (PDUs, bytes); what does not fit is freed and counted by reason, as is every malformed input.
 *
 * One instance per lcore, not thread-safe; a resent PDU is the held mbuf with one more reference. */
#ifndef GNB_BAAS_H
#define GNB_BAAS_H

#include <stdint.h>
#include <rte_mbuf.h>

enum baas_drop {
	BAAS_DROP_MALFORMED,     /* not a service frame */
	BAAS_DROP_BAD_OP,
	BAAS_DROP_NO_UE,
	BAAS_DROP_STALE,         /* a PDU already acknowledged (below the base) */
	BAAS_DROP_DUPLICATE,     /* its COUNT is already held */
	BAAS_DROP_WINDOW,        /* beyond the UE's window */
	BAAS_DROP_UE_BYTES,      /* the UE's byte bound */
	BAAS_DROP_TOTAL,         /* the global PDU or byte bound */
	BAAS_DROP_BAD_STATUS,    /* a status report that does not parse */
	BAAS_DROP_RETX_EXHAUSTED,/* a held PDU resent max_retx times and given up */
	BAAS_DROP_REASONS
};

struct baas_stats {
	uint64_t held, acked, status_reports;
	uint64_t retx_status, retx_timeout;
	uint64_t retx_deferred;  /* resends the output had no room for: still held, retried by the timer */
	uint64_t drops[BAAS_DROP_REASONS];
	uint64_t held_pdus, held_bytes; /* now */
};

struct baas_cfg {
	uint32_t max_ues;
	uint32_t window;         /* PDUs per UE, a power of two */
	uint64_t ue_bytes;       /* bytes per UE */
	uint32_t total_pdus;
	uint64_t total_bytes;
	uint64_t tick_cycles;    /* the wheel's tick in clock cycles */
	uint32_t timeout_ticks;  /* a held PDU's timer */
	uint8_t max_retx;
};

struct baas;

/* NULL with errno EINVAL (window not a power of two, zero bounds or ticks) or ENOMEM. */
struct baas *baas_create(const struct baas_cfg *cfg, uint64_t now);
/* Frees every held PDU too. */
void baas_free(struct baas *b);
/* A UE starts holding PDUs from COUNT base. 0, or -EINVAL. */
int baas_ue_add(struct baas *b, uint32_t ue, uint32_t base);
/* Releases the UE's held PDUs. */
void baas_ue_del(struct baas *b, uint32_t ue);
/* Takes n frames (PDUs to hold, status reports) at time now; every one is consumed. Resends caused
 * by the status reports go to out (at most out_cap; the rest stay held for the timer). Returns how many. */
uint16_t baas_burst(struct baas *b, struct rte_mbuf **in, uint16_t n, uint64_t now, struct rte_mbuf **out,
		    uint16_t out_cap);
/* Advances the wheel to now and returns the PDUs whose timer expired, re-armed (at most out_cap). */
uint16_t baas_timers(struct baas *b, uint64_t now, struct rte_mbuf **out, uint16_t out_cap);
const struct baas_stats *baas_stats(const struct baas *b);
/* PDUs UE ue holds now. */
uint32_t baas_ue_held(const struct baas *b, uint32_t ue);
const char *baas_drop_name(enum baas_drop d);

#endif
