/* VXLAN tenants in the pipeline (tenant.p4): a tenant frame out of its VXLAN, its slice, its downlink back
 * into a tunnel peer's overlay, and (hw) a backend's VXLAN frame routed by its outer headers. */
#include <string.h>
#include "pipeline_int.h"

int vxlan_tenant(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
		struct dp_verdict *v, uint64_t now, int transit)
{
	uint32_t vni = s->pi.vni, vtep = s->pi.ip_dst, off = s->pi.vxlan, tlen = s->pi.vxlan_len;
	rte_pktmbuf_adj(m, (uint16_t)off);
	rte_pktmbuf_trim(m, (uint16_t)(rte_pktmbuf_pkt_len(m) - tlen));
	s->frame = rte_pktmbuf_mtod(m, uint8_t *);
	s->flen = tlen;
	s->perr = pkt_parse(s->frame, tlen, &s->pi);
	if (s->pi.vxlan || s->perr == PARSE_BAD_VXLAN) {
		s->pi.vxlan = 0;
		s->perr = PARSE_OK;
	}
	if (s->perr == PARSE_BAD_GTPU || s->perr == PARSE_BAD_INNER) {
		finish_drop(p, slot, s, v, DROP_MALFORMED_GTPU);
		return 0;
	}
	if (s->perr == PARSE_TRUNCATED || s->perr == PARSE_BAD_IPV4) {
		finish_drop(p, slot, s, v, DROP_MALFORMED_VXLAN);
		return 0;
	}
	if (transit) {
		s->vx_off = (uint8_t)off;
		return 1;
	}
	const struct dp_tenant *t = dp_tenant_lookup(p, vni, vtep);
	if (!t) {
		finish_drop(p, slot, s, v, DROP_UNKNOWN_VNI);
		return 0;
	}
	if (t->tenant_id < p->sz.tenant_cells) {
		p->tctr[slot][t->tenant_id].pkts++;
		p->tctr[slot][t->tenant_id].bytes += s->len;
	}
	if (meter_red(p, METER_TENANT, t->tenant_id, p->sz.tenant_cells, s->len, now)) {
		finish_drop(p, slot, s, v, DROP_METER_RED);
		return 0;
	}
	s->tenant = TENANT_VXLAN;
	s->tenant_id = t->tenant_id;
	s->dscp = t->dscp;
	s->tenant_tc = t->tc;
	return 1;
}


int tenant_slice(struct pipeline *p, unsigned slot, struct pstate *s, struct dp_verdict *v, uint64_t now,
		int term)
{
	uint8_t qfi;
	if (term && s->dir == DIR_DL)
		qfi = s->term.qfi;
	else if (s->pi.has_psc)
		qfi = s->pi.qfi;
	else
		return 1;
	uint32_t cell = slice_cell(s->tenant_id, qfi);
	uint16_t e = cell < p->sz.slice_cells ? __atomic_load_n(&p->slices[cell], __ATOMIC_RELAXED) : 0;
	if (!e)
		return 1;
	p->sctr[slot][cell].pkts++;
	p->sctr[slot][cell].bytes += s->len;
	if (meter_red(p, METER_SLICE, cell, p->sz.slice_cells, s->len, now)) {
		finish_drop(p, slot, s, v, DROP_METER_RED);
		return 0;
	}
	s->tenant_tc = (uint8_t)(e >> 6 & 3);
	s->dscp = (uint8_t)(e & 0x3f);
	return 1;
}


int vxlan_reencap(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
		struct dp_verdict *v, const struct dp_vx_peer *vx)
{
	pkt_set_macs(s->frame, vx->inner_src_mac, vx->inner_dst_mac);
	struct vxlan_params vp = { vx->vni, vx->vtep_src, vx->vtep_dst, (uint16_t)(0xc000 | (s->term.teid & 0x3fff)),
				   (uint8_t)(s->frame[s->pi.l3 + 1] >> 2) };
	uint32_t inner_len = rte_pktmbuf_pkt_len(m);
	uint8_t *start = (uint8_t *)rte_pktmbuf_prepend(m, VXLAN_ENCAP_LEN);
	if (!start) {
		finish_drop(p, slot, s, v, DROP_NONE);   /* egress: the P4 counts no reason */
		return 0;
	}
	pkt_vxlan_encap(start, inner_len, &vp);
	s->frame = start;
	return 1;
}


void vxlan_transit(struct pipeline *p, unsigned slot, struct rte_mbuf *m, struct pstate *s,
		struct dp_verdict *v)
{
	uint8_t *outer = (uint8_t *)rte_pktmbuf_prepend(m, s->vx_off);
	uint8_t *ip = outer + (outer[12] == 0x81 && outer[13] == 0x00 ? ETH_LEN + 4 : ETH_LEN);
	uint32_t nh, dst = (uint32_t)ip[16] << 24 | (uint32_t)ip[17] << 16 | (uint32_t)ip[18] << 8 | ip[19];
	if (!lpm_lookup(p->routes, dst, &nh)) {
		finish_drop(p, slot, s, v, DROP_ROUTING_MISS);
		return;
	}
	if (!pkt_ipv4_ttl_dec(ip)) {
		finish_drop(p, slot, s, v, DROP_TTL_EXPIRED);
		return;
	}
	if (s->tenant) {
		mark_dscp(s->frame + s->pi.l3, s->dscp);
		mark_dscp(ip, s->dscp);
		memset(ip + (ip[0] & 0xf) * 4u + 6, 0, 2);
	}
	s->frame = outer;
	const struct route *r = (const struct route *)(p->route_pool.mem + (size_t)nh * p->route_pool.elem);
	pkt_set_macs(outer, r->src_mac, r->dst_mac);
	v->fwd = 1;
	v->out_port = r->port;
	v->prio = queue_of(p, s, 0);
}

