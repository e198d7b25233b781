/* What the gNB unit tests share: the mbuf pool, service frames, hex. */
#ifndef GNB_TEST_HELPERS_H
#define GNB_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <rte_mbuf.h>
#include "svc.h"

extern struct rte_mempool *g_pool;

static inline size_t unhex(const char *h, uint8_t *out)
{
	size_t n = strlen(h) / 2;
	for (size_t i = 0; i < n; i++)
		sscanf(h + 2 * i, "%2hhx", &out[i]);
	return n;
}

/* A service frame: Ethernet, service header, pdu. */
static inline struct rte_mbuf *frame(uint32_t ue, uint32_t count, uint8_t op, const uint8_t *pdu, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_pool);
	assert_non_null(m);
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(GNB_SVC_PDU_OFF + len));
	assert_non_null(p);
	memset(p, 0, sizeof(struct rte_ether_hdr));
	((struct rte_ether_hdr *)p)->ether_type = rte_cpu_to_be_16(GNB_SVC_ETHERTYPE);
	struct gnb_svc_hdr *h = (struct gnb_svc_hdr *)(p + sizeof(struct rte_ether_hdr));
	*h = (struct gnb_svc_hdr){ .ue = rte_cpu_to_be_32(ue), .count = rte_cpu_to_be_32(count), .op = op };
	memcpy(p + GNB_SVC_PDU_OFF, pdu, len);
	return m;
}

static inline const uint8_t *pdu_of(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, const uint8_t *, GNB_SVC_PDU_OFF);
}

/* The crypto tests (test_crypto.c): NEA2 / NIA2 vectors, PDCP, the crypto service. */
const struct CMUnitTest *crypto_tests(size_t *n);
const struct CMUnitTest *switch_tests(size_t *n);
/* A crypto service with one UE (keys k_enc, k_int, BEARER 3), for both files. */
struct crypto_svc *crypto_with_ue(uint32_t ue, unsigned sn_bits, int integrity);

#endif
