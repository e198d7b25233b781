/* hw, RPS on (rps.p4): each packet's sampled flow and digest, then its observations at the IN and OUT
 * points, whose receipts leave as packet-ins. */
#include <string.h>
#include "pipeline_int.h"

void stage_rps_flows(struct pipeline *p, struct rte_mbuf **m, struct pstate *st, uint16_t n)
{
	const struct rps_flow_set *flows = __atomic_load_n(&p->rps_flows, __ATOMIC_ACQUIRE);
	for (uint16_t i = 0; i < n; i++) {
		struct pstate *s = &st[i];
		s->rps = 0;
		uint8_t where = RPS_AT_IN | RPS_AT_OUT, downlink;
		uint32_t ue;
		if (s->dir != DIR_NONE) {
			downlink = s->dir == DIR_DL;
			ue = s->ue;
		} else if (!s->done && s->perr == PARSE_OK && (!s->pi.gtpu || s->pi.inner) &&
			   from_backend(p, m[i]->port)) {
			where = RPS_AT_OUT;
			downlink = s->pi.inner != 0;
			ue = downlink ? s->pi.inner_dst : s->pi.ip_src;
		} else {
			continue;
		}
		const struct rps_flow *f = rps_flow_lookup(flows, downlink, ue);
		if (!f)
			continue;
		uint32_t ip = s->pi.inner ? s->pi.inner : s->pi.l3;   /* the user packet */
		s->rps = where;
		s->rps_flow = f->id;
		s->rps_disc_threshold = f->disc_threshold;
		s->rps_digest = dp_rps_digest(s->frame + ip, s->flen - ip);
	}
}


/* The IN point's receipt goes in the packet's one CPU copy: on its HH report (flagged, the receipt
 * after the report's header), else in place of an ACL copy. */
static void rps_copy_in(struct dp_verdict *v, const struct dp_rps_receipt *r)
{
	struct rte_mbuf *hh = v->cpu_copy && v->copy_reason == PKTIN_HH_REPORT ? v->cpu_copy : NULL;
	if (hh) {
		uint32_t tail = rte_pktmbuf_pkt_len(hh) - HH_REPORT_HDR_LEN;
		uint8_t *b = rte_pktmbuf_mtod(hh, uint8_t *);
		if (!rte_pktmbuf_append(hh, DP_RPS_RECEIPT_LEN))
			return;
		memmove(b + HH_REPORT_HDR_LEN + DP_RPS_RECEIPT_LEN, b + HH_REPORT_HDR_LEN, tail);
		dp_rps_receipt_encode(b + HH_REPORT_HDR_LEN, r);
		b[10] |= HH_FLAG_RPS;   /* hh_report_t.flags */
		return;
	}
	struct rte_mbuf *rm = rps_receipt_mbuf(r);
	if (rm) {
		rte_pktmbuf_free(v->cpu_copy);
		v->cpu_copy = rm;
		v->copy_reason = PKTIN_RPS;
	}
}


void stage_rps_observe(struct pipeline *p, unsigned slot, const struct pstate *st, struct dp_verdict *v,
		uint16_t n, const struct dp_rps_params *c, uint32_t ts)
{
	struct dp_rps_state *rs = p->rps[slot];
	for (uint16_t i = 0; i < n; i++) {
		const struct pstate *s = &st[i];
		struct dp_rps_receipt r;
		if (s->rps & RPS_AT_IN && v[i].to_cpu != PKTIN_DOWNLINK_BUFFER &&
		    dp_rps_step(rs, RPS_POINT_IN, s->rps_flow, s->rps_digest, ts, s->rps_disc_threshold, c, &r))
			rps_copy_in(&v[i], &r);
		if (s->rps & RPS_AT_OUT && v[i].fwd &&
		    dp_rps_step(rs, RPS_POINT_OUT, s->rps_flow, s->rps_digest, ts, s->rps_disc_threshold, c, &r))
			v[i].rps_copy = rps_receipt_mbuf(&r);
	}
}

