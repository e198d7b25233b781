#include <string.h>
#include "pkt.h"

static inline uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void wr16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }
static inline void wr32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v & 0xff;
}

/* Validates an IPv4 header at off; returns its header length or 0. */
static uint32_t ipv4_check(const uint8_t *p, uint32_t len, uint32_t off)
{
	if (len < off + IP4_LEN || (p[off] >> 4) != 4)
		return 0;
	uint32_t ihl = (p[off] & 0xf) * 4u;
	uint32_t tot = rd16(p + off + 2);
	if (ihl < IP4_LEN || tot < ihl || len < off + tot)
		return 0;
	return ihl;
}

/* L4 ports only for the first fragment: later fragments carry no L4 header. */
static uint32_t l4_ports(const uint8_t *p, uint32_t end, uint32_t ip, uint32_t ihl,
			 uint16_t *sport, uint16_t *dport)
{
	uint8_t proto = p[ip + 9];
	*sport = *dport = 0;
	if (rd16(p + ip + 6) & 0x1fff)
		return 0;
	if ((proto == 6 || proto == 17) && end >= ip + ihl + 4) {
		*sport = rd16(p + ip + ihl);
		*dport = rd16(p + ip + ihl + 2);
	}
	return ip + ihl;
}

/* Mirrors the P4 parser: version 1 and PT 1, a length that matches the UDP length
 * exactly, and no extension but one PDU Session Container of length 1. */
static enum parse_err parse_gtpu(const uint8_t *p, uint32_t udp_end, uint32_t g, struct pkt_info *pi)
{
	uint8_t flags = p[g];
	pi->gtpu = (uint16_t)g;
	pi->gtpu_type = p[g + 1];
	pi->teid = rd32(p + g + 4);
	if ((flags >> 5) != 1 || !(flags & 0x10))
		return PARSE_BAD_GTPU;
	if (g + GTPU_LEN + rd16(p + g + 2) != udp_end)
		return PARSE_BAD_GTPU;
	uint32_t off = g + GTPU_LEN;
	if (flags & 0x07) {
		if (udp_end < off + GTPU_OPT_LEN)
			return PARSE_BAD_GTPU;
		uint8_t next = (flags & 0x04) ? p[off + 3] : 0;
		off += GTPU_OPT_LEN;
		if (next == GTPU_EXT_PSC) {
			if (udp_end < off + PSC_LEN || p[off] != 1 || p[off + 3] != 0)
				return PARSE_BAD_GTPU;
			pi->has_psc = 1;
			pi->qfi = p[off + 2] & 0x3f;
			off += PSC_LEN;
		} else if (next) {
			return PARSE_BAD_GTPU;
		}
	}
	pi->gtpu_payload = (uint16_t)off;
	if (pi->gtpu_type != GTPU_MSG_GPDU || off >= udp_end || (p[off] >> 4) != 4)
		return PARSE_OK;
	uint32_t ihl = ipv4_check(p, udp_end, off);
	if (!ihl || off + rd16(p + off + 2) != udp_end)
		return PARSE_BAD_INNER;
	pi->inner = (uint16_t)off;
	pi->inner_proto = p[off + 9];
	pi->inner_src = rd32(p + off + 12);
	pi->inner_dst = rd32(p + off + 16);
	pi->inner_l4 = (uint16_t)l4_ports(p, udp_end, off, ihl, &pi->inner_sport, &pi->inner_dport);
	return PARSE_OK;
}

enum parse_err pkt_parse(const uint8_t *p, uint32_t len, struct pkt_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	if (len < ETH_LEN)
		return PARSE_TRUNCATED;
	uint32_t l3 = ETH_LEN;
	pi->eth_type = rd16(p + 12);
	if (pi->eth_type == 0x8100) {
		if (len < ETH_LEN + 4)
			return PARSE_TRUNCATED;
		pi->eth_type = rd16(p + 16);
		l3 += 4;
	}
	if (pi->eth_type != 0x0800)
		return PARSE_NOT_IPV4;
	uint32_t ihl = ipv4_check(p, len, l3);
	if (!ihl)
		return PARSE_BAD_IPV4;
	uint32_t end = l3 + rd16(p + l3 + 2);
	pi->l3 = (uint16_t)l3;
	pi->ip_proto = p[l3 + 9];
	pi->ip_src = rd32(p + l3 + 12);
	pi->ip_dst = rd32(p + l3 + 16);
	pi->l4 = (uint16_t)l4_ports(p, end, l3, ihl, &pi->sport, &pi->dport);
	if (pi->ip_proto != 17 || !pi->l4)
		return PARSE_OK;
	if (end < (uint32_t)pi->l4 + UDP_LEN) {
		pi->l4 = 0;
		return PARSE_TRUNCATED;
	}
	if (pi->dport != GTPU_PORT) {
		if (pi->dport == VXLAN_PORT) {
			/* RFC 7348: the 8-octet header, then at least the tenant's Ethernet header. */
			uint32_t v = pi->l4 + UDP_LEN;
			if (end < v + VXLAN_LEN + ETH_LEN || !(p[v] & VXLAN_FLAG_I))
				return PARSE_BAD_VXLAN;
			pi->vni = rd32(p + v + 4) >> 8;
			pi->vxlan = (uint16_t)(v + VXLAN_LEN);
			pi->vxlan_len = (uint16_t)(end - pi->vxlan);
			return PARSE_OK;
		}
		return PARSE_OK;
	}
	uint32_t ulen = rd16(p + pi->l4 + 4);
	if (ulen < UDP_LEN + GTPU_LEN || pi->l4 + ulen > end) {
		pi->gtpu = pi->l4 + UDP_LEN;
		return PARSE_BAD_GTPU;
	}
	return parse_gtpu(p, pi->l4 + ulen, pi->l4 + UDP_LEN, pi);
}

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pkt_cksum swaps a little-endian sum into network order"
#endif

uint16_t pkt_cksum(const void *buf, uint32_t len, uint32_t sum)
{
	/* RFC 1071: the one's complement sum is byte-order independent and can be
	 * accumulated in wider words, so native 32-bit words are summed into 64 bits,
	 * folded, and the result swapped once. */
	const uint8_t *b = buf;
	uint64_t acc = 0;
	if (len == IP4_LEN) {  /* the common case, straight-line (no loop set-up) */
		uint32_t w[5];
		memcpy(w, b, sizeof(w));
		acc = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];
		len = 0;
	}
	for (; len >= 4; len -= 4, b += 4) {
		uint32_t w;
		memcpy(&w, b, 4);
		acc += w;
	}
	if (len >= 2) {
		uint16_t w;
		memcpy(&w, b, 2);
		acc += w;
		b += 2;
		len -= 2;
	}
	if (len)
		acc += *b;  /* the high octet of a last, padded word: low in native order */
	acc = (acc & 0xffffffff) + (acc >> 32);
	acc = (acc & 0xffffffff) + (acc >> 32);
	acc = (acc & 0xffff) + (acc >> 16);
	acc = (acc & 0xffff) + (acc >> 16);
	sum += (uint16_t)(acc << 8 | acc >> 8);  /* to network order, as rd16() reads */
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void pkt_ipv4_fix_cksum(uint8_t *ip)
{
	wr16(ip + 10, 0);
	wr16(ip + 10, pkt_cksum(ip, (ip[0] & 0xf) * 4u, 0));
}

uint32_t pkt_gtpu_decap(uint8_t *frame, uint32_t len, const struct pkt_info *pi, uint8_t **new_start)
{
	uint32_t cut = pi->inner - pi->l3;
	uint32_t inner_len = rd16(frame + pi->inner + 2);
	/* The L2 header moves forward onto the bytes being removed. */
	memmove(frame + cut, frame, pi->l3);
	*new_start = frame + cut;
	(void)len;
	return pi->l3 + inner_len;
}

/* An outer IPv4 (TTL 64, id 0, checksum) and UDP header (checksum 0, allowed for IPv4 by RFC 768,
 * as in the P4) of a VXLAN tunnel: udp_len octets of UDP. Returns where the UDP payload starts. */
static uint8_t *tunnel_ip_udp(uint8_t *ip, uint8_t dscp, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
			      uint32_t udp_len)
{
	ip[0] = 0x45; ip[1] = (uint8_t)(dscp << 2);
	wr16(ip + 2, (uint16_t)(IP4_LEN + udp_len));
	wr16(ip + 4, 0); wr16(ip + 6, 0);
	ip[8] = 64; ip[9] = 17;
	wr32(ip + 12, src); wr32(ip + 16, dst);
	pkt_ipv4_fix_cksum(ip);
	uint8_t *udp = ip + IP4_LEN;
	wr16(udp, sport); wr16(udp + 2, dport);
	wr16(udp + 4, (uint16_t)udp_len);
	wr16(udp + 6, 0);
	return udp + UDP_LEN;
}

void pkt_gtpu_encap(uint8_t *frame, uint32_t l2_len, uint32_t inner_ip_len, const struct encap_params *e)
{
	uint32_t hl = pkt_encap_len(e->with_psc);
	/* The L2 header moves back to the new start of frame. */
	memmove(frame, frame + hl, l2_len);
	/* The same fields as tunnel_ip_udp(), written here inline: through the helper a downlink packet
	 * costs 21 more instructions per packet of the callgrind benchmark (dp/bench/callgrind.sh). */
	uint8_t *ip = frame + l2_len;
	ip[0] = 0x45; ip[1] = 0;
	wr16(ip + 2, (uint16_t)(hl + inner_ip_len));
	wr16(ip + 4, 0); wr16(ip + 6, 0);
	ip[8] = 64; ip[9] = 17;
	wr32(ip + 12, e->src); wr32(ip + 16, e->dst);
	pkt_ipv4_fix_cksum(ip);
	uint8_t *udp = ip + IP4_LEN;
	wr16(udp, e->sport); wr16(udp + 2, GTPU_PORT);
	wr16(udp + 4, (uint16_t)(hl - IP4_LEN + inner_ip_len));
	wr16(udp + 6, 0);  /* allowed for IPv4 (RFC 768), as in the P4 */
	uint8_t *g = udp + UDP_LEN;
	g[0] = e->with_psc ? 0x34 : 0x30;
	g[1] = GTPU_MSG_GPDU;
	wr16(g + 2, (uint16_t)(hl - IP4_LEN - UDP_LEN - GTPU_LEN + inner_ip_len));
	wr32(g + 4, e->teid);
	if (e->with_psc) {
		uint8_t *o = g + GTPU_LEN;
		wr16(o, 0); o[2] = 0; o[3] = GTPU_EXT_PSC;
		/* PSC (TS 38.415): length 1, PDU type 0 (DL), QFI, no next extension. */
		o[4] = 1; o[5] = 0; o[6] = e->qfi & 0x3f; o[7] = 0;
	}
}

void pkt_vxlan_encap(uint8_t *frame, uint32_t inner_len, const struct vxlan_params *v)
{
	wr16(frame + 12, 0x0800);
	uint8_t *vx = tunnel_ip_udp(frame + ETH_LEN, v->dscp, v->src, v->dst, v->sport, VXLAN_PORT,
				    UDP_LEN + VXLAN_LEN + inner_len);
	wr32(vx, (uint32_t)VXLAN_FLAG_I << 24);
	wr32(vx + 4, v->vni << 8);
}

uint32_t pkt_gtpu_echo_reply(uint8_t *frame, uint32_t len, uint32_t cap, const struct pkt_info *pi)
{
	uint8_t *g = frame + pi->gtpu, *ip = frame + pi->l3, *udp = frame + pi->l4;
	/* TS 29.281 §5.1: an Echo Request carries a sequence number (S=1). */
	if (!(g[0] & 0x02) || len + 2 > cap)
		return 0;
	/* As the P4 action: the header stack is kept, the Recovery IE goes right after
	 * the GTP-U options, anything after them moves back by its two octets. */
	uint32_t ie = pi->gtpu_payload;
	memmove(frame + ie + 2, frame + ie, len - ie);
	frame[ie] = GTPU_IE_RECOVERY;
	frame[ie + 1] = 0;
	uint8_t a[4];
	memcpy(a, ip + 12, 4); memcpy(ip + 12, ip + 16, 4); memcpy(ip + 16, a, 4);
	ip[8] = 64;
	wr16(ip + 2, rd16(ip + 2) + 2);
	pkt_ipv4_fix_cksum(ip);
	uint16_t sport = rd16(udp);
	wr16(udp, rd16(udp + 2)); wr16(udp + 2, sport);
	wr16(udp + 4, rd16(udp + 4) + 2);
	wr16(udp + 6, 0);
	g[1] = GTPU_MSG_ECHO_RESP;
	wr16(g + 2, rd16(g + 2) + 2);
	return len + 2;
}

int pkt_ipv4_ttl_dec(uint8_t *ip)
{
	if (ip[8] <= 1)
		return 0;
	ip[8]--;
	/* Recomputed, not updated: the P4 recomputes it, so a wrong one comes out right. */
	pkt_ipv4_fix_cksum(ip);
	return 1;
}

void pkt_set_macs(uint8_t *frame, const uint8_t src[6], const uint8_t dst[6])
{
	memcpy(frame, dst, 6);
	memcpy(frame + 6, src, 6);
}
