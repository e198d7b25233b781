/* p4src/gnb/gnb.p4 in C (gnb_switch.h). The parse is the P4 parser's (by ethertype, whatever the port),
 * then the ingress decisions in the P4 program's order, then egress's rewrite of frames towards a UE. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <rte_byteorder.h>
#include <rte_hash.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_udp.h>
#include "gnb_switch.h"
#include "gnb_switch_parse.h"
#include "svc.h"

struct gnb_switch {
	uint32_t max_ues;
	struct rte_mempool *copies;
	uint8_t role[GNB_SW_PORTS];
	struct gnb_sw_services services;
	struct rte_hash *dl_ues;    /* teid -> ue | sn18 << 32 */
	struct rte_hash *ul_ues;    /* struct ul_key -> ue | lcid << 32 */
	struct gnb_sw_air *air;     /* by UE; air_valid says which are set */
	uint8_t *air_valid;
	struct gnb_sw_ul_tunnel *ul;
	uint8_t *ul_valid;
	uint32_t *tx_next;
	struct gnb_sw_ue_counters *ue;
	uint8_t clone_valid;
	uint32_t clone_id;
	uint16_t clone_port;
	uint64_t drops[GNB_DROPS_SIZE];
	uint64_t copy_failed;
};

struct ul_key {
	uint16_t port;
	uint8_t mac[RTE_ETHER_ADDR_LEN];
} __rte_packed;

static const char *const drop_names[GNB_DROPS_SIZE] = {
	[0] = "none", [GNB_DROP_UNKNOWN_PORT] = "unknown_port", [GNB_DROP_PARSER_ERROR] = "parser_error",
	[GNB_DROP_NOT_GPDU] = "not_gpdu", [GNB_DROP_UNKNOWN_TEID] = "unknown_teid",
	[GNB_DROP_UNKNOWN_UE] = "unknown_ue", [GNB_DROP_NOT_AIR] = "not_air",
	[GNB_DROP_PDCP_CONTROL] = "pdcp_control", [GNB_DROP_BAD_SVC_OP] = "bad_svc_op",
	[GNB_DROP_NO_UE_CONTEXT] = "no_ue_context",
};

const char *gnb_switch_drop_name(unsigned reason)
{
	return reason < GNB_DROPS_SIZE ? drop_names[reason] : "?";
}

static struct rte_hash *hash_create(uint32_t entries, uint32_t key_len)
{
	static atomic_uint seq;
	char name[RTE_HASH_NAMESIZE];
	snprintf(name, sizeof(name), "gnbsw%u", atomic_fetch_add(&seq, 1));
	struct rte_hash_parameters p = {
		.name = name, .entries = entries < 8 ? 8 : entries, .key_len = key_len,
		.socket_id = SOCKET_ID_ANY, .extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF,
	};
	return rte_hash_create(&p);
}

struct gnb_switch *gnb_switch_create(uint32_t max_ues, struct rte_mempool *copies)
{
	struct gnb_switch *sw = rte_zmalloc("gnb_switch", sizeof(*sw), 0);
	if (!sw)
		return NULL;
	sw->max_ues = max_ues;
	sw->copies = copies;
	sw->dl_ues = hash_create(max_ues, sizeof(uint32_t));
	sw->ul_ues = hash_create(max_ues, sizeof(struct ul_key));
	sw->air = rte_zmalloc("gnb_sw_air", sizeof(*sw->air) * max_ues, 0);
	sw->air_valid = rte_zmalloc("gnb_sw_air_valid", max_ues, 0);
	sw->ul = rte_zmalloc("gnb_sw_ul", sizeof(*sw->ul) * max_ues, 0);
	sw->ul_valid = rte_zmalloc("gnb_sw_ul_valid", max_ues, 0);
	sw->tx_next = rte_zmalloc("gnb_sw_tx_next", sizeof(*sw->tx_next) * max_ues, 0);
	sw->ue = rte_zmalloc("gnb_sw_ue", sizeof(*sw->ue) * max_ues, 0);
	if (!sw->dl_ues || !sw->ul_ues || !sw->air || !sw->air_valid || !sw->ul || !sw->ul_valid || !sw->tx_next ||
	    !sw->ue) {
		gnb_switch_free(sw);
		return NULL;
	}
	return sw;
}

void gnb_switch_free(struct gnb_switch *sw)
{
	if (!sw)
		return;
	rte_hash_free(sw->dl_ues);
	rte_hash_free(sw->ul_ues);
	rte_free(sw->air);
	rte_free(sw->air_valid);
	rte_free(sw->ul);
	rte_free(sw->ul_valid);
	rte_free(sw->tx_next);
	rte_free(sw->ue);
	rte_free(sw);
}

int gnb_switch_port_role(struct gnb_switch *sw, uint16_t port, uint8_t role)
{
	if (port >= GNB_SW_PORTS || role < PORT_ROLE_N3 || role > PORT_ROLE_BAAS)
		return -EINVAL;
	sw->role[port] = role;
	return 0;
}

void gnb_switch_services(struct gnb_switch *sw, const struct gnb_sw_services *s)
{
	sw->services = *s;
}

int gnb_switch_dl_ue(struct gnb_switch *sw, uint32_t teid, uint32_t ue, uint8_t sn18)
{
	if (ue >= sw->max_ues || sn18 > 1)
		return -EINVAL;
	int rc = rte_hash_add_key_data(sw->dl_ues, &teid, (void *)(uintptr_t)(ue | (uint64_t)sn18 << 32));
	return rc ? -ENOSPC : 0;
}

int gnb_switch_air(struct gnb_switch *sw, uint32_t ue, const struct gnb_sw_air *a)
{
	if (ue >= sw->max_ues || a->port >= GNB_SW_PORTS || a->lcid > 63)
		return -EINVAL;
	sw->air[ue] = *a;
	sw->air_valid[ue] = 1;
	return 0;
}

int gnb_switch_ul_ue(struct gnb_switch *sw, uint16_t port, const struct rte_ether_addr *ue_mac, uint32_t ue,
		     uint8_t lcid)
{
	if (port >= GNB_SW_PORTS || ue >= sw->max_ues || lcid > 63)
		return -EINVAL;
	struct ul_key k = { .port = port };
	memcpy(k.mac, ue_mac->addr_bytes, sizeof(k.mac));
	int rc = rte_hash_add_key_data(sw->ul_ues, &k, (void *)(uintptr_t)(ue | (uint64_t)lcid << 32));
	return rc ? -ENOSPC : 0;
}

int gnb_switch_ul_tunnel(struct gnb_switch *sw, uint32_t ue, const struct gnb_sw_ul_tunnel *t)
{
	if (ue >= sw->max_ues || t->qfi > 63 || t->sn18 > 1)
		return -EINVAL;
	sw->ul[ue] = *t;
	sw->ul_valid[ue] = 1;
	return 0;
}

int gnb_switch_clone_session(struct gnb_switch *sw, uint32_t id, uint16_t port)
{
	if (port >= GNB_SW_PORTS)
		return -EINVAL;
	sw->clone_valid = 1;
	sw->clone_id = id;
	sw->clone_port = port;
	return 0;
}

static unsigned drop(struct gnb_switch *sw, struct rte_mbuf *m, unsigned reason)
{
	sw->drops[reason]++;
	rte_pktmbuf_free(m);
	return 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void write_svc(uint8_t *p, uint32_t ue, uint32_t count, uint8_t op)
{
	put_be32(p, ue);
	put_be32(p + 4, count);
	p[8] = op;
	p[9] = p[10] = p[11] = 0;
}

/* Downlink from N3: GTP-U off, service header and PDCP data header (SN = TX_NEXT's low bits) on. */
static unsigned from_n3(struct gnb_switch *sw, struct rte_mbuf *m, const struct gnb_parsed *r, struct gnb_sw_out *out)
{
	if (!r->gtpu || !r->gtpu_gpdu)
		return drop(sw, m, GNB_DROP_NOT_GPDU);
	void *data;
	if (rte_hash_lookup_data(sw->dl_ues, &r->teid, &data) < 0)
		return drop(sw, m, GNB_DROP_UNKNOWN_TEID);
	uint64_t v = (uintptr_t)data;
	uint32_t ue = (uint32_t)v, count = sw->tx_next[ue]++;
	unsigned sn18 = (unsigned)(v >> 32), pdcp_len = sn18 ? PDCP_SN18_HDR_LEN : PDCP_SN12_HDR_LEN;
	sw->ue[ue].dl_pkts++;
	sw->ue[ue].dl_bytes += rte_pktmbuf_pkt_len(m);
	struct rte_ether_hdr eth;
	memcpy(&eth, rte_pktmbuf_mtod(m, const void *), sizeof(eth));
	uint8_t *p = (uint8_t *)rte_pktmbuf_adj(m, (uint16_t)(r->gtpu_end - (SVC_FRAME_HDR_LEN + pdcp_len)));
	eth.ether_type = rte_cpu_to_be_16(ETHERTYPE_GNB_SVC);
	memcpy(p, &eth, sizeof(eth));
	write_svc(p + RTE_ETHER_HDR_LEN, ue, count, SVC_OP_DL_PROTECT);
	uint8_t *h = p + SVC_FRAME_HDR_LEN;
	if (sn18) {
		h[0] = (uint8_t)(0x80 | ((count >> 16) & 0x03));
		h[1] = (uint8_t)(count >> 8);
		h[2] = (uint8_t)count;
	} else {
		h[0] = (uint8_t)(0x80 | ((count >> 8) & 0x0f));
		h[1] = (uint8_t)count;
	}
	out->m = m;
	out->port = sw->services.crypto;
	return 1;
}

/* Uplink from a UE: the MAC subheader replaced by the service header; a status report to BaaS, data to
 * the crypto service. */
static unsigned from_ue(struct gnb_switch *sw, uint16_t in_port, struct rte_mbuf *m, const struct gnb_parsed *r,
			struct gnb_sw_out *out)
{
	if (!r->mac)
		return drop(sw, m, GNB_DROP_NOT_AIR);
	struct rte_ether_hdr eth;
	memcpy(&eth, rte_pktmbuf_mtod(m, const void *), sizeof(eth));
	struct ul_key k = { .port = in_port };
	memcpy(k.mac, eth.src_addr.addr_bytes, sizeof(k.mac));
	void *data;
	if (rte_hash_lookup_data(sw->ul_ues, &k, &data) < 0)
		return drop(sw, m, GNB_DROP_UNKNOWN_UE);
	uint64_t v = (uintptr_t)data;
	uint32_t ue = (uint32_t)v;
	if (r->lcid != (uint8_t)(v >> 32))
		return drop(sw, m, GNB_DROP_NOT_AIR);
	if (r->pdcp_control && r->pdu_type != PDCP_PDU_TYPE_STATUS)
		return drop(sw, m, GNB_DROP_PDCP_CONTROL);
	uint8_t *p = (uint8_t *)rte_pktmbuf_prepend(m, GNB_SVC_HDR_LEN - MAC_SUBHDR_LEN);
	if (!p)   /* mbufs come with RTE_PKTMBUF_HEADROOM: not reached with DPDK's pools */
		return drop(sw, m, GNB_DROP_PARSER_ERROR);
	eth.ether_type = rte_cpu_to_be_16(ETHERTYPE_GNB_SVC);
	memcpy(p, &eth, sizeof(eth));
	if (r->pdcp_control) {
		sw->ue[ue].status_reports++;
		write_svc(p + RTE_ETHER_HDR_LEN, ue, 0, SVC_OP_STATUS);
		out->port = sw->services.baas;
	} else {
		write_svc(p + RTE_ETHER_HDR_LEN, ue, 0, SVC_OP_UL_UNPROTECT);
		out->port = sw->services.crypto;
	}
	out->m = m;
	return 1;
}

/* Egress towards a UE: the service header replaced by the MAC subheader (L = the PDCP PDU's length). */
static void to_ue(const struct gnb_sw_air *a, struct rte_mbuf *m, uint16_t pdu_len)
{
	uint8_t *p = (uint8_t *)rte_pktmbuf_adj(m, GNB_SVC_HDR_LEN - MAC_SUBHDR_LEN);
	/* headers are copied in: moved by an odd number of bytes, the frame starts unaligned */
	struct rte_ether_hdr eth = { .dst_addr = a->ue_mac, .src_addr = a->gnb_mac,
				     .ether_type = rte_cpu_to_be_16(ETHERTYPE_GNB_AIR) };
	memcpy(p, &eth, sizeof(eth));
	p[RTE_ETHER_HDR_LEN] = (uint8_t)(0x40 | a->lcid);   /* R = 0, F = 1 */
	p[RTE_ETHER_HDR_LEN + 1] = (uint8_t)(pdu_len >> 8);
	p[RTE_ETHER_HDR_LEN + 2] = (uint8_t)pdu_len;
}

/* A protected PDU from the crypto service: a copy to BaaS (op 3, the clone session), the PDU to the UE. */
static unsigned protected_pdu(struct gnb_switch *sw, struct rte_mbuf *m, uint32_t ue, struct gnb_sw_out out[2])
{
	unsigned n = 0;
	uint16_t pdu_len = (uint16_t)(rte_pktmbuf_pkt_len(m) - SVC_FRAME_HDR_LEN);
	if (sw->clone_valid && sw->clone_id == BAAS_CLONE_SESSION_ID) {
		struct rte_mbuf *c = rte_pktmbuf_copy(m, sw->copies, 0, UINT32_MAX);
		if (c) {
			gnb_svc_hdr(c)->op = SVC_OP_BUFFER;
			out[n++] = (struct gnb_sw_out){ .m = c, .port = sw->clone_port };
		} else {
			sw->copy_failed++;
		}
	}
	to_ue(&sw->air[ue], m, pdu_len);
	out[n++] = (struct gnb_sw_out){ .m = m, .port = sw->air[ue].port };
	return n;
}

/* A deciphered uplink PDU: PDCP and service headers off, the UE's GTP-U tunnel (with a PDU Session
 * Container, UL, its QFI) on, towards N3. */
static unsigned deciphered_pdu(struct gnb_switch *sw, struct rte_mbuf *m, uint32_t ue, struct gnb_sw_out *out)
{
	const struct gnb_sw_ul_tunnel *t = &sw->ul[ue];
	unsigned pdcp_len = t->sn18 ? PDCP_SN18_HDR_LEN : PDCP_SN12_HDR_LEN;
	uint16_t sdu_len = (uint16_t)(rte_pktmbuf_pkt_len(m) - SVC_FRAME_HDR_LEN - pdcp_len);
	sw->ue[ue].ul_pkts++;
	sw->ue[ue].ul_bytes += rte_pktmbuf_pkt_len(m);
	uint8_t *p = (uint8_t *)rte_pktmbuf_prepend(m, (uint16_t)(N3_HDR_LEN - SVC_FRAME_HDR_LEN - pdcp_len));
	if (!p)
		return drop(sw, m, GNB_DROP_PARSER_ERROR);
	/* headers are built aside and copied in: with an 18-bit SN the frame starts unaligned */
	const struct gnb_sw_services *s = &sw->services;
	struct rte_ether_hdr eth = { .dst_addr = s->upf_mac, .src_addr = s->n3_mac,
				     .ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) };
	struct rte_ipv4_hdr ip = {
		.version_ihl = 0x45, .total_length = rte_cpu_to_be_16((uint16_t)(IPV4_LEN + UDP_LEN + UL_GTPU_LEN + sdu_len)),
		.time_to_live = 64, .next_proto_id = IPPROTO_UDP, .src_addr = rte_cpu_to_be_32(s->n3_addr),
		.dst_addr = rte_cpu_to_be_32(t->upf_addr),
	};
	ip.hdr_checksum = rte_ipv4_cksum(&ip);
	struct rte_udp_hdr udp = { .src_port = rte_cpu_to_be_16(GTPU_PORT), .dst_port = rte_cpu_to_be_16(GTPU_PORT),
				   .dgram_len = rte_cpu_to_be_16((uint16_t)(UDP_LEN + UL_GTPU_LEN + sdu_len)) };
	memcpy(p, &eth, sizeof(eth));
	memcpy(p + RTE_ETHER_HDR_LEN, &ip, sizeof(ip));
	memcpy(p + RTE_ETHER_HDR_LEN + IPV4_LEN, &udp, sizeof(udp));
	uint8_t *g = p + RTE_ETHER_HDR_LEN + IPV4_LEN + UDP_LEN;
	uint16_t msglen = (uint16_t)(UL_GTPU_LEN - GTPU_LEN + sdu_len);
	g[0] = 0x34;   /* version 1, PT 1, E */
	g[1] = GTPU_GPDU;
	g[2] = (uint8_t)(msglen >> 8);
	g[3] = (uint8_t)msglen;
	put_be32(g + 4, t->teid);
	g[8] = g[9] = g[10] = 0;
	g[11] = GTPU_NEXT_EXT_PSC;
	g[12] = 1;                          /* PSC length in 4-octet units */
	g[13] = (uint8_t)(PSC_TYPE_UL << 4);
	g[14] = t->qfi;                     /* PPP = 0, RQI = 0 */
	g[15] = GTPU_NEXT_EXT_NONE;
	out->m = m;
	out->port = s->n3;
	return 1;
}

unsigned gnb_switch_packet(struct gnb_switch *sw, uint16_t in_port, struct rte_mbuf *m, struct gnb_sw_out out[2])
{
	uint8_t role = in_port < GNB_SW_PORTS ? sw->role[in_port] : 0;
	struct gnb_parsed r;
	if (m->nb_segs == 1)
		gnb_switch_parse(rte_pktmbuf_mtod(m, const uint8_t *), rte_pktmbuf_data_len(m), &r);
	else   /* the stand-in works on one buffer per frame */
		r.error = 1;
	if (!role)
		return drop(sw, m, GNB_DROP_UNKNOWN_PORT);
	if (r.error)
		return drop(sw, m, GNB_DROP_PARSER_ERROR);
	if (role == PORT_ROLE_N3)
		return from_n3(sw, m, &r, out);
	if (role == PORT_ROLE_UE)
		return from_ue(sw, in_port, m, &r, out);
	if (!r.svc)
		return drop(sw, m, GNB_DROP_BAD_SVC_OP);
	const struct gnb_svc_hdr *h = gnb_svc_hdr(m);
	uint32_t ue = rte_be_to_cpu_32(h->ue);
	if (role == PORT_ROLE_CRYPTO && h->op == SVC_OP_DL_PROTECT) {
		if (ue >= sw->max_ues || !sw->air_valid[ue])
			return drop(sw, m, GNB_DROP_NO_UE_CONTEXT);
		return protected_pdu(sw, m, ue, out);
	}
	if (role == PORT_ROLE_BAAS && h->op == SVC_OP_RETX) {
		if (ue >= sw->max_ues || !sw->air_valid[ue])
			return drop(sw, m, GNB_DROP_NO_UE_CONTEXT);
		sw->ue[ue].retransmissions++;
		to_ue(&sw->air[ue], m, (uint16_t)(rte_pktmbuf_pkt_len(m) - SVC_FRAME_HDR_LEN));
		out->m = m;
		out->port = sw->air[ue].port;
		return 1;
	}
	if (role == PORT_ROLE_CRYPTO && h->op == SVC_OP_UL_UNPROTECT) {
		if (ue >= sw->max_ues || !sw->ul_valid[ue])
			return drop(sw, m, GNB_DROP_NO_UE_CONTEXT);
		return deciphered_pdu(sw, m, ue, out);
	}
	return drop(sw, m, GNB_DROP_BAD_SVC_OP);
}

const uint64_t *gnb_switch_drops(const struct gnb_switch *sw)
{
	return sw->drops;
}

const struct gnb_sw_ue_counters *gnb_switch_ue_counters(const struct gnb_switch *sw, uint32_t ue)
{
	return ue < sw->max_ues ? &sw->ue[ue] : NULL;
}

uint32_t gnb_switch_tx_next(const struct gnb_switch *sw, uint32_t ue)
{
	return ue < sw->max_ues ? sw->tx_next[ue] : 0;
}

uint64_t gnb_switch_copy_failed(const struct gnb_switch *sw)
{
	return sw->copy_failed;
}
