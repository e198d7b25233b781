/* Packet parsing and header rewriting for the hupf sw profile.
 * Pure functions over byte buffers: no DPDK, so the fuzzer and unit tests
 * exercise exactly the code the data plane runs. */
#ifndef HUPF_PKT_H
#define HUPF_PKT_H

#include <stdint.h>
#include <stddef.h>

#define GTPU_PORT 2152
#define VXLAN_PORT 4789   /* RFC 7348 */
#define VXLAN_LEN 8
#define VXLAN_FLAG_I 0x08
#define GTPU_MSG_ECHO_REQ 1
#define GTPU_MSG_ECHO_RESP 2
#define GTPU_MSG_GPDU 255
#define GTPU_EXT_PSC 0x85
#define GTPU_IE_RECOVERY 14

#define ETH_LEN 14
#define IP4_LEN 20
#define UDP_LEN 8
#define GTPU_LEN 8
#define GTPU_OPT_LEN 4   /* seq, N-PDU, next extension type */
#define PSC_LEN 4        /* one 4-octet PDU Session Container */

enum parse_err {
	PARSE_OK = 0,
	PARSE_NOT_IPV4,       /* not IPv4: nothing in the sw profile matches it */
	PARSE_TRUNCATED,      /* outer headers cut short */
	PARSE_BAD_IPV4,       /* version/IHL/total length inconsistent */
	PARSE_BAD_GTPU,       /* GTP-U header invalid (version, PT, length, extension chain) */
	PARSE_BAD_INNER,      /* G-PDU whose payload is not a valid IPv4 packet */
	PARSE_BAD_VXLAN,      /* UDP 4789 without a whole VXLAN header and tenant Ethernet header, or I flag clear */
};

/* Offsets are from the start of the frame; 0 means absent (never a valid offset). */
struct pkt_info {
	uint16_t l3;          /* outer IPv4 */
	uint16_t l4;          /* outer L4 (0 if none / fragment) */
	uint8_t  ip_proto;
	uint16_t sport, dport;
	uint32_t ip_src, ip_dst;  /* host order */
	uint16_t eth_type;
	/* GTP-U (valid when gtpu != 0) */
	uint16_t gtpu;
	uint8_t  gtpu_type;
	uint32_t teid;
	uint16_t gtpu_payload;  /* offset of T-PDU (inner IPv4) */
	uint8_t  has_psc;
	uint8_t  qfi;
	/* inner IPv4 of a G-PDU (valid when inner != 0) */
	uint16_t inner;
	uint16_t inner_l4;
	uint8_t  inner_proto;
	uint32_t inner_src, inner_dst;
	uint16_t inner_sport, inner_dport;
	/* VXLAN (UDP 4789; valid when vxlan != 0): the tenant frame is [vxlan, vxlan + vxlan_len) */
	uint16_t vxlan;
	uint16_t vxlan_len;
	uint32_t vni;
};

/* Parses an Ethernet frame. Returns PARSE_OK or the reason it is malformed;
 * on error the fields parsed so far stay valid (e.g. GTP-U detected). A VXLAN frame (outer
 * UDP 4789) is parsed up to its VXLAN header: vxlan gives where the tenant frame starts, which
 * the caller parses again (a second VXLAN level in it is plain UDP, as in the P4). */
enum parse_err pkt_parse(const uint8_t *p, uint32_t len, struct pkt_info *pi);

uint16_t pkt_cksum(const void *buf, uint32_t len, uint32_t sum);
void pkt_ipv4_fix_cksum(uint8_t *ip);

/* Strips outer IPv4/UDP/GTP-U: the T-PDU moves up to follow the Ethernet header.
 * Returns the new frame length. Operates in place (memmove of the 14-byte header). */
uint32_t pkt_gtpu_decap(uint8_t *frame, uint32_t len, const struct pkt_info *pi, uint8_t **new_start);

struct encap_params {
	uint32_t src, dst;    /* host order */
	uint16_t sport;
	uint32_t teid;
	uint8_t  qfi;
	uint8_t  with_psc;
};
/* Bytes to prepend for an encapsulation. */
static inline uint32_t pkt_encap_len(int with_psc)
{
	return IP4_LEN + UDP_LEN + GTPU_LEN + (with_psc ? GTPU_OPT_LEN + PSC_LEN : 0);
}
/* frame points pkt_encap_len() bytes before the current L2 header (l2_len bytes,
 * Ethernet with or without VLAN tag; caller made the headroom): moves L2 there
 * and writes the outer headers after it. */
void pkt_gtpu_encap(uint8_t *frame, uint32_t l2_len, uint32_t inner_ip_len, const struct encap_params *e);

/* VXLAN encapsulation (RFC 7348) of a tenant frame of inner_len bytes. */
#define VXLAN_ENCAP_LEN (ETH_LEN + IP4_LEN + UDP_LEN + VXLAN_LEN)
struct vxlan_params {
	uint32_t vni, src, dst;   /* host order */
	uint16_t sport;
	uint8_t dscp;
};
/* frame points VXLAN_ENCAP_LEN bytes before the tenant frame: writes the outer Ethernet (ethertype
 * IPv4; the MACs are routing's), IPv4 (TTL 64, id 0, checksum), UDP (checksum 0) and VXLAN headers. */
void pkt_vxlan_encap(uint8_t *frame, uint32_t inner_len, const struct vxlan_params *v);

/* Rewrites a GTP-U Echo Request in place into an Echo Response (addresses and ports
 * swapped, TTL 64, Recovery IE inserted). Needs cap >= len + 2; returns the new length,
 * or 0 if the request has no sequence number or there is no room. MACs are left to routing. */
uint32_t pkt_gtpu_echo_reply(uint8_t *frame, uint32_t len, uint32_t cap, const struct pkt_info *pi);

/* Decrements the TTL of the IPv4 header at ip and recomputes its checksum.
 * Returns 0 if the TTL expired (ttl <= 1: caller drops). */
int pkt_ipv4_ttl_dec(uint8_t *ip);
void pkt_set_macs(uint8_t *frame, const uint8_t src[6], const uint8_t dst[6]);

#endif
