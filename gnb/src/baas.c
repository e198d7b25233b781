/* Buffer-as-a-Service (see baas.h). */
#include <errno.h>
#include <string.h>
#include <rte_malloc.h>
#include "baas.h"
#include "pdcp.h"
#include "svc.h"

#define NIL UINT32_MAX

/* A held PDU; its index is ue * window + (COUNT mod window). In its deadline's bucket while held. */
struct slot {
	struct rte_mbuf *m;      /* NULL: empty */
	uint64_t deadline;       /* tick */
	uint32_t count, prev, next;
	uint8_t retx;
};

struct ue {
	uint32_t base;           /* the first COUNT not acknowledged */
	uint32_t held;
	uint64_t bytes;
	uint8_t active;
};

struct baas {
	struct baas_cfg cfg;
	uint32_t wmask, bmask;
	uint64_t cur_tick;       /* the last tick the wheel processed */
	struct baas_stats st;
	struct ue *ues;
	struct slot *slots;
	uint32_t *bucket;        /* list heads, bmask + 1 of them */
};

static const char *const drop_names[BAAS_DROP_REASONS] = {
	[BAAS_DROP_MALFORMED] = "malformed", [BAAS_DROP_BAD_OP] = "bad_op", [BAAS_DROP_NO_UE] = "no_ue",
	[BAAS_DROP_STALE] = "stale", [BAAS_DROP_DUPLICATE] = "duplicate", [BAAS_DROP_WINDOW] = "window",
	[BAAS_DROP_UE_BYTES] = "ue_bytes", [BAAS_DROP_TOTAL] = "total", [BAAS_DROP_BAD_STATUS] = "bad_status",
	[BAAS_DROP_RETX_EXHAUSTED] = "retx_exhausted",
};

const char *baas_drop_name(enum baas_drop d)
{
	return d < BAAS_DROP_REASONS ? drop_names[d] : "?";
}

static void *zalloc_resident(size_t size)
{
	/* Written now so that the fast path never faults pages in. */
	void *p = rte_malloc("gnb_baas", size, RTE_CACHE_LINE_SIZE);
	if (p)
		memset(p, 0, size);
	return p;
}

struct baas *baas_create(const struct baas_cfg *cfg, uint64_t now)
{
	if (!cfg->max_ues || !rte_is_power_of_2(cfg->window) || !cfg->tick_cycles || !cfg->timeout_ticks ||
	    !cfg->total_pdus || !cfg->ue_bytes || !cfg->total_bytes || cfg->timeout_ticks >= (1u << 30)) {
		errno = EINVAL;
		return NULL;
	}
	struct baas *b = zalloc_resident(sizeof(*b));
	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	b->cfg = *cfg;
	b->wmask = cfg->window - 1;
	/* More buckets than the timeout: a re-armed PDU never lands in the bucket being walked. */
	b->bmask = rte_align32pow2(cfg->timeout_ticks + 1) - 1;
	b->cur_tick = now / cfg->tick_cycles;
	b->ues = zalloc_resident((size_t)cfg->max_ues * sizeof(*b->ues));
	b->slots = zalloc_resident((size_t)cfg->max_ues * cfg->window * sizeof(*b->slots));
	b->bucket = zalloc_resident(((size_t)b->bmask + 1) * sizeof(*b->bucket));
	if (!b->ues || !b->slots || !b->bucket) {
		baas_free(b);
		errno = ENOMEM;
		return NULL;
	}
	memset(b->bucket, 0xff, ((size_t)b->bmask + 1) * sizeof(*b->bucket));
	return b;
}

static void wheel_insert(struct baas *b, uint32_t id, uint64_t deadline)
{
	struct slot *s = &b->slots[id];
	uint32_t *head = &b->bucket[deadline & b->bmask];
	s->deadline = deadline;
	s->prev = NIL;
	s->next = *head;
	if (*head != NIL)
		b->slots[*head].prev = id;
	*head = id;
}

static void wheel_remove(struct baas *b, uint32_t id)
{
	struct slot *s = &b->slots[id];
	if (s->prev != NIL)
		b->slots[s->prev].next = s->next;
	else
		b->bucket[s->deadline & b->bmask] = s->next;
	if (s->next != NIL)
		b->slots[s->next].prev = s->prev;
}

static inline uint32_t slot_id(const struct baas *b, uint32_t ue, uint32_t count)
{
	return ue * b->cfg.window + (count & b->wmask);
}

static inline int held(const struct baas *b, uint32_t id, uint32_t count)
{
	return b->slots[id].m && b->slots[id].count == count;
}

static void release(struct baas *b, uint32_t ue, uint32_t id)
{
	struct slot *s = &b->slots[id];
	uint32_t len = s->m->pkt_len;
	wheel_remove(b, id);
	rte_pktmbuf_free(s->m);
	s->m = NULL;
	b->ues[ue].held--;
	b->ues[ue].bytes -= len;
	b->st.held_pdus--;
	b->st.held_bytes -= len;
}

void baas_ue_del(struct baas *b, uint32_t ue)
{
	if (ue >= b->cfg.max_ues || !b->ues[ue].active)
		return;
	for (uint32_t i = 0; i < b->cfg.window; i++)
		if (b->slots[ue * b->cfg.window + i].m)
			release(b, ue, ue * b->cfg.window + i);
	memset(&b->ues[ue], 0, sizeof(b->ues[ue]));
}

void baas_free(struct baas *b)
{
	if (!b)
		return;
	if (b->ues && b->slots && b->bucket)
		for (uint32_t u = 0; u < b->cfg.max_ues; u++)
			baas_ue_del(b, u);
	rte_free(b->ues);
	rte_free(b->slots);
	rte_free(b->bucket);
	rte_free(b);
}

int baas_ue_add(struct baas *b, uint32_t ue, uint32_t base)
{
	if (ue >= b->cfg.max_ues)
		return -EINVAL;
	baas_ue_del(b, ue);
	b->ues[ue].active = 1;
	b->ues[ue].base = base;
	return 0;
}

uint32_t baas_ue_held(const struct baas *b, uint32_t ue)
{
	return ue < b->cfg.max_ues ? b->ues[ue].held : 0;
}

const struct baas_stats *baas_stats(const struct baas *b)
{
	return &b->st;
}

static int hold(struct baas *b, struct ue *u, uint32_t ue, struct rte_mbuf *m, struct gnb_svc_hdr *h, uint64_t tick)
{
	uint32_t count = rte_be_to_cpu_32(h->count), len = m->pkt_len;
	uint32_t ahead = count - u->base;
	if ((int32_t)ahead < 0)
		return BAAS_DROP_STALE;
	if (ahead >= b->cfg.window)
		return BAAS_DROP_WINDOW;
	uint32_t id = slot_id(b, ue, count);
	if (b->slots[id].m)
		return BAAS_DROP_DUPLICATE;
	if (u->bytes + len > b->cfg.ue_bytes)
		return BAAS_DROP_UE_BYTES;
	if (b->st.held_pdus >= b->cfg.total_pdus || b->st.held_bytes + len > b->cfg.total_bytes)
		return BAAS_DROP_TOTAL;
	h->op = GNB_OP_RETX; /* what every copy of it that leaves will be */
	b->slots[id] = (struct slot){ .m = m, .count = count };
	wheel_insert(b, id, tick + b->cfg.timeout_ticks);
	u->held++;
	u->bytes += len;
	b->st.held++;
	b->st.held_pdus++;
	b->st.held_bytes += len;
	return -1;
}

/* Sends a held PDU again (one more reference) and restarts its timer from tick; gives it up after max_retx. */
static void resend(struct baas *b, uint32_t ue, uint32_t id, uint64_t tick, struct rte_mbuf **out, uint16_t cap,
		   uint16_t *k, uint64_t *counter)
{
	struct slot *s = &b->slots[id];
	if (*k >= cap) {
		b->st.retx_deferred++;
		return;
	}
	if (s->retx >= b->cfg.max_retx) {
		release(b, ue, id);
		b->st.drops[BAAS_DROP_RETX_EXHAUSTED]++;
		return;
	}
	s->retx++;
	rte_mbuf_refcnt_update(s->m, 1);
	out[(*k)++] = s->m;
	wheel_remove(b, id);
	wheel_insert(b, id, tick + b->cfg.timeout_ticks);
	(*counter)++;
}

static int status(struct baas *b, struct ue *u, uint32_t ue, struct rte_mbuf *m, uint64_t tick, struct rte_mbuf **out,
		  uint16_t cap, uint16_t *k)
{
	const uint8_t *p = rte_pktmbuf_mtod_offset(m, const uint8_t *, GNB_SVC_PDU_OFF);
	struct pdcp_pdu r;
	if (pdcp_parse_control(p, m->data_len - GNB_SVC_PDU_OFF, &r) != PDCP_OK)
		return BAAS_DROP_BAD_STATUS;
	b->st.status_reports++;
	uint32_t acked = r.fmc - u->base;
	if ((int32_t)acked > 0) {
		for (uint32_t i = 0; i < acked && i < b->cfg.window; i++) {
			uint32_t id = slot_id(b, ue, u->base + i);
			if (held(b, id, u->base + i)) {
				release(b, ue, id);
				b->st.acked++;
			}
		}
		u->base = r.fmc;
	}
	uint32_t id = slot_id(b, ue, r.fmc);
	if (held(b, id, r.fmc))
		resend(b, ue, id, tick, out, cap, k, &b->st.retx_status);
	for (size_t i = 0; i < r.bitmap_len * 8; i++) {
		uint32_t c = r.fmc + 1 + (uint32_t)i, ahead = c - u->base;
		if ((int32_t)ahead < 0)
			continue;
		if (ahead >= b->cfg.window)
			break;
		id = slot_id(b, ue, c);
		if (!held(b, id, c))
			continue;
		if ((r.bitmap[i >> 3] >> (7 - (i & 7))) & 1) {
			release(b, ue, id);
			b->st.acked++;
		} else {
			resend(b, ue, id, tick, out, cap, k, &b->st.retx_status);
		}
	}
	rte_pktmbuf_free(m);
	return -1;
}

uint16_t baas_burst(struct baas *b, struct rte_mbuf **in, uint16_t n, uint64_t now, struct rte_mbuf **out,
		    uint16_t out_cap)
{
	/* Timers run from now even when the wheel lags behind: a PDU's bucket is its deadline's. */
	uint64_t tick = now / b->cfg.tick_cycles;
	uint16_t k = 0;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = in[i];
		struct gnb_svc_hdr *h = gnb_svc_hdr(m);
		int drop;
		if (!h) {
			drop = BAAS_DROP_MALFORMED;
		} else {
			uint32_t ue = rte_be_to_cpu_32(h->ue);
			struct ue *u = ue < b->cfg.max_ues && b->ues[ue].active ? &b->ues[ue] : NULL;
			if (!u)
				drop = BAAS_DROP_NO_UE;
			else if (h->op == GNB_OP_BUFFER)
				drop = hold(b, u, ue, m, h, tick);
			else if (h->op == GNB_OP_STATUS)
				drop = status(b, u, ue, m, tick, out, out_cap, &k);
			else
				drop = BAAS_DROP_BAD_OP;
		}
		if (drop >= 0) {
			b->st.drops[drop]++;
			rte_pktmbuf_free(m);
		}
	}
	return k;
}

uint16_t baas_timers(struct baas *b, uint64_t now, struct rte_mbuf **out, uint16_t out_cap)
{
	uint64_t now_tick = now / b->cfg.tick_cycles;
	uint16_t k = 0;
	if (now_tick <= b->cur_tick)
		return 0;
	/* Every deadline is within the wheel's span: after a long pause one turn visits them all. */
	if (now_tick - b->cur_tick > (uint64_t)b->bmask + 1)
		b->cur_tick = now_tick - b->bmask - 1;
	while (b->cur_tick < now_tick) {
		uint64_t t = b->cur_tick + 1;
		for (uint32_t id = b->bucket[t & b->bmask], next; id != NIL; id = next) {
			next = b->slots[id].next;
			if (b->slots[id].deadline > t)
				continue;
			if (k >= out_cap)
				return k; /* this tick again next time */
			uint32_t ue = id / b->cfg.window;
			resend(b, ue, id, t, out, out_cap, &k, &b->st.retx_timeout);
		}
		b->cur_tick = t;
	}
	return k;
}
