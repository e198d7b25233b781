/* GnbParser (p4src/gnb/parser.p4) in C: by ethertype, whatever the port; a header the frame is too short
 * for, or that fails the parser's checks, is a parser error (ingress drops it). */
#include <netinet/in.h>
#include <string.h>
#include "gnb_switch_parse.h"

/* The P4 parser on len bytes at p (GnbParser, p4src/gnb/parser.p4). */
void gnb_switch_parse(const uint8_t *p, uint32_t len, struct gnb_parsed *r)
{
	memset(r, 0, sizeof(*r));
	if (len < RTE_ETHER_HDR_LEN) {
		r->error = 1;
		return;
	}
	r->ether_type = (uint16_t)(p[12] << 8 | p[13]);
	uint32_t off = RTE_ETHER_HDR_LEN;
	if (r->ether_type == ETHERTYPE_GNB_SVC) {
		uint32_t need = SVC_FRAME_HDR_LEN + (len >= SVC_FRAME_HDR_LEN && p[off + 8] == SVC_OP_UL_UNPROTECT ? 3 : 0);
		r->error = len < need;
		r->svc = !r->error;
		return;
	}
	if (r->ether_type == ETHERTYPE_GNB_AIR) {
		/* The MAC subheader, then a lookahead of one bit: both need their bytes. */
		if (len < AIR_HDR_LEN + 1) {
			r->error = 1;
			return;
		}
		r->mac = 1;
		r->lcid = p[off] & 0x3f;
		r->pdcp_control = !(p[AIR_HDR_LEN] & 0x80);
		r->pdu_type = (p[AIR_HDR_LEN] >> 4) & 0x7;
		return;
	}
	if (r->ether_type != RTE_ETHER_TYPE_IPV4)
		return;
	if (len < off + IPV4_LEN) {
		r->error = 1;
		return;
	}
	if ((p[off] & 0x0f) != 5 || p[off + 9] != IPPROTO_UDP)
		return;
	off += IPV4_LEN;
	if (len < off + UDP_LEN) {
		r->error = 1;
		return;
	}
	uint16_t dport = (uint16_t)(p[off + 2] << 8 | p[off + 3]), udp_len = (uint16_t)(p[off + 4] << 8 | p[off + 5]);
	if (dport != GTPU_PORT)
		return;
	off += UDP_LEN;
	if (len < off + GTPU_LEN) {
		r->error = 1;
		return;
	}
	const uint8_t *g = p + off;
	uint16_t msglen = (uint16_t)(g[2] << 8 | g[3]);
	r->gtpu = 1;
	r->gtpu_gpdu = g[1] == GTPU_GPDU;
	r->teid = (uint32_t)g[4] << 24 | (uint32_t)g[5] << 16 | (uint32_t)g[6] << 8 | g[7];
	if ((g[0] >> 5) != 1 || !(g[0] & 0x10) || msglen != (uint16_t)(udp_len - (UDP_LEN + GTPU_LEN))) {
		r->error = 1;
		return;
	}
	off += GTPU_LEN;
	if (g[0] & 0x07) {   /* E, S or PN: the options */
		if (len < off + GTPU_OPT_LEN) {
			r->error = 1;
			return;
		}
		uint8_t next = p[off + 3];
		off += GTPU_OPT_LEN;
		if ((g[0] & 0x04) && next == GTPU_NEXT_EXT_PSC) {
			if (len < off + GTPU_PSC_LEN || p[off] != 1 || p[off + 3] != GTPU_NEXT_EXT_NONE) {
				r->error = 1;
				return;
			}
			off += GTPU_PSC_LEN;
		} else if ((g[0] & 0x04) && next != GTPU_NEXT_EXT_NONE) {
			r->error = 1;
			return;
		}
	}
	r->gtpu_end = (uint16_t)off;
}

