/* libFuzzer target: the parser and every rewrite the pipeline applies to what it
 * parsed, on arbitrary bytes. ASan/UBSan turn any out-of-bounds access into a crash. */
#include <stdint.h>
#include <string.h>
#include "pkt.h"

#define CAP 2048
#define HEADROOM 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[HEADROOM + CAP];
	if (size > CAP - 2)
		return 0;
	uint8_t *frame = buf + HEADROOM;
	memcpy(frame, data, size);
	struct pkt_info pi;
	enum parse_err e = pkt_parse(frame, (uint32_t)size, &pi);
	if (e == PARSE_OK && pi.vxlan) {
		/* As pipeline.c: the tenant frame replaces the VXLAN frame and is parsed again. */
		if ((size_t)pi.vxlan + pi.vxlan_len > size)
			__builtin_trap();
		frame += pi.vxlan;
		size = pi.vxlan_len;
		e = pkt_parse(frame, (uint32_t)size, &pi);
	}
	if (e != PARSE_OK || !pi.l3)
		return 0;
	/* The rewrites, under the same conditions as pipeline.c applies them. */
	if (pi.gtpu && pi.gtpu_type == GTPU_MSG_ECHO_REQ) {
		pkt_gtpu_echo_reply(frame, (uint32_t)size, CAP, &pi);
		return 0;
	}
	if (pi.inner) {
		pkt_ipv4_ttl_dec(frame + pi.inner);
		uint8_t *start;
		pkt_gtpu_decap(frame, (uint32_t)size, &pi, &start);
		return 0;
	}
	pkt_ipv4_ttl_dec(frame + pi.l3);
	uint32_t ip_len = (uint32_t)(frame[pi.l3 + 2] << 8 | frame[pi.l3 + 3]);
	struct encap_params ep = { 1, 2, 2152, 7, 9, (uint8_t)(size & 1) };
	uint32_t hl = pkt_encap_len(ep.with_psc);
	if (hl <= HEADROOM)
		pkt_gtpu_encap(frame - hl, pi.l3, ip_len, &ep);
	return 0;
}
