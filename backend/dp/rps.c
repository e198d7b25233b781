/* hw profile: Retroactive Packet Sampling (seed 003: Algorithm 3, FIFO RPS with disclosure numbers),
 * the arithmetic of p4src/include/rps.p4 on per-lcore state. */
#include <string.h>
#include <rte_malloc.h>
#include "dp_int.h"
#include "mem.h"

#define IPV4_HDR_LEN 20   /* without options */

struct dp_rps_state *dp_rps_state_new(uint32_t size, uint32_t flows, uint32_t track_depth)
{
	if (!size || !flows || !track_depth || track_depth >= 1u << 16 || (track_depth & (track_depth - 1)))
		return NULL;
	struct dp_rps_state *s = rte_zmalloc(NULL, sizeof(*s), 64);
	if (!s)
		return NULL;
	*s = (struct dp_rps_state){ .size = size, .flows = flows, .track_depth = track_depth };
	uint64_t pf = (uint64_t)RPS_POINTS * flows;
	s->buf = dp_zalloc_resident(sizeof(*s->buf) * RPS_POINTS * (uint64_t)size, 64);
	s->track = dp_zalloc_resident(sizeof(*s->track) * pf * track_depth, 64);
	s->next_dnum = dp_zalloc_resident(sizeof(*s->next_dnum) * pf, 64);
	s->late_warned = dp_zalloc_resident(sizeof(*s->late_warned) * pf, 64);
	if (!s->buf || !s->track || !s->next_dnum || !s->late_warned) {
		dp_rps_state_free(s);
		return NULL;
	}
	return s;
}

void dp_rps_state_free(struct dp_rps_state *s)
{
	if (!s)
		return;
	rte_free(s->buf);
	rte_free(s->track);
	rte_free(s->next_dnum);
	rte_free(s->late_warned);
	rte_free(s);
}

static inline void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24); b[1] = (uint8_t)(v >> 16); b[2] = (uint8_t)(v >> 8); b[3] = (uint8_t)v;
}

uint32_t dp_rps_select_hash(uint32_t receipt_digest, uint32_t disclosure_digest)
{
	uint8_t b[8];
	put32(b, receipt_digest);
	put32(b + 4, disclosure_digest);
	return dp_crc32_sliced(b, sizeof(b));
}

uint32_t dp_rps_digest(const uint8_t *ip, uint32_t avail)
{
	uint8_t b[21] = { 0 };
	memcpy(b, ip + 12, 8);        /* source, destination */
	memcpy(b + 8, ip + 4, 2);     /* identification */
	memcpy(b + 10, ip + 2, 2);    /* total length */
	b[12] = ip[9];                /* protocol */
	/* L4 as the P4 parser takes it: only after a header without options, whatever the fragment offset. */
	uint32_t l4 = (ip[0] & 0xf) != 5 ? 0 : ip[9] == 17 || ip[9] == 6 ? 8 : ip[9] == 1 ? 4 : 0;
	uint32_t have = avail > IPV4_HDR_LEN ? avail - IPV4_HDR_LEN : 0;
	memcpy(b + 13, ip + IPV4_HDR_LEN, l4 < have ? l4 : have);
	return dp_crc32_sliced(b, sizeof(b));
}

/* The tracker's slot of disclosure dnum of (point, flow) cell pf: as rps.p4, dnum & (depth - 1). */
static inline size_t track_slot(const struct dp_rps_state *s, uint32_t pf, uint16_t dnum)
{
	return (size_t)pf * s->track_depth + (dnum & (s->track_depth - 1));
}

int dp_rps_step(struct dp_rps_state *s, unsigned point, uint16_t flow, uint32_t digest, uint32_t ts,
		uint32_t disc_threshold, const struct dp_rps_params *prm, struct dp_rps_receipt *out)
{
	uint64_t *ev = &s->events[point * RPS_EVENTS];
	ev[RPS_EV_OBSERVED]++;
	if (prm->mode == RPS_MODE_HYBRID) {   /* the controller runs Algorithm 2 over every receipt */
		ev[RPS_EV_EXPORTED]++;
		*out = (struct dp_rps_receipt){ (uint8_t)point, RPS_KIND_RECEIPT, flow, digest, ts, 0 };
		return 1;
	}
	uint32_t pf = point * s->flows + flow;
	uint16_t next = s->next_dnum[pf];
	if (digest < disc_threshold) {      /* a direct disclosure: tracked, the buffer untouched */
		s->track[track_slot(s, pf, next)] = (struct dp_rps_track){ digest, ts, next, 1 };
		s->next_dnum[pf] = (uint16_t)(next + 1);
		ev[RPS_EV_DIRECT]++;
		*out = (struct dp_rps_receipt){ (uint8_t)point, RPS_KIND_DIRECT, flow, digest, ts, next };
		return 1;
	}
	/* Otherwise the receipt, tagged with the disclosure that will judge it, takes the oldest's slot, and
	 * the oldest is judged by its disclosure as it leaves. A buffer_len shrunk under the head starts over. */
	uint32_t head = s->head[point] < prm->buffer_len ? s->head[point] : 0;
	struct dp_rps_slot *slot = &s->buf[point * s->size + head];
	struct dp_rps_slot r = *slot;
	*slot = (struct dp_rps_slot){ digest, ts, flow, next, 1 };
	s->head[point] = head + 1 == prm->buffer_len ? 0 : head + 1;
	if (!r.valid)
		return 0;
	uint32_t rf = point * s->flows + r.flow;
	const struct dp_rps_track *t = &s->track[track_slot(s, rf, r.dnum)];
	if (t->valid && t->dnum == r.dnum) {
		if ((uint32_t)(t->ts - r.ts) <= prm->quiet_us ||
		    dp_rps_select_hash(r.digest, t->digest) >= prm->select_threshold)
			return 0;
		ev[RPS_EV_DELAYED]++;
		*out = (struct dp_rps_receipt){ (uint8_t)point, RPS_KIND_DELAYED, r.flow, r.digest, r.ts, r.dnum };
		return 1;
	}
	if (r.dnum != s->next_dnum[rf]) {   /* disclosed longer ago than the tracker remembers */
		ev[RPS_EV_TRACK_OVERRUN]++;
		return 0;
	}
	/* Evicted before its disclosure came: a late disclosure, warned of once per (point, flow, dnum). */
	if (s->late_warned[rf] == (RPS_LATE_WARNED_FLAG | r.dnum)) {
		ev[RPS_EV_LATE_REPEATED]++;
		return 0;
	}
	s->late_warned[rf] = RPS_LATE_WARNED_FLAG | r.dnum;
	ev[RPS_EV_LATE]++;
	*out = (struct dp_rps_receipt){ (uint8_t)point, RPS_KIND_LATE, r.flow, r.digest, r.ts, r.dnum };
	return 1;
}

void dp_rps_receipt_encode(uint8_t out[DP_RPS_RECEIPT_LEN], const struct dp_rps_receipt *r)
{
	out[0] = r->point;
	out[1] = r->kind;
	out[2] = (uint8_t)(r->flow_id >> 8);
	out[3] = (uint8_t)r->flow_id;
	put32(out + 4, r->digest);
	put32(out + 8, r->ts);
	out[12] = (uint8_t)(r->dnum >> 8);
	out[13] = (uint8_t)r->dnum;
	out[14] = out[15] = 0;
}

struct rte_mbuf *rps_receipt_mbuf(const struct dp_rps_receipt *r)
{
	struct rte_mbuf *m = g_dp.cpu_pool ? rte_pktmbuf_alloc(g_dp.cpu_pool) : NULL;
	uint8_t *b = m ? (uint8_t *)rte_pktmbuf_append(m, DP_RPS_RECEIPT_LEN) : NULL;
	if (!b) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	dp_rps_receipt_encode(b, r);
	return m;
}

const struct rps_flow *rps_flow_lookup(const struct rps_flow_set *s, uint8_t direction, uint32_t ue)
{
	for (uint32_t g = 0; s && g < s->ngroups; g++) {
		const struct rps_flow_group *gr = &s->group[g];
		if (gr->direction != direction)
			continue;
		uint32_t key = ue & dp_prefix_mask(gr->plen), lo = gr->lo, hi = gr->hi;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (s->e[mid].prefix < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < gr->hi && s->e[lo].prefix == key)
			return &s->e[lo];
	}
	return NULL;
}
