/* The gNB unit tests of ciphering and integrity: TS 33.401 Annex C, PDCP, the crypto service. */
#include <errno.h>
#include "helpers.h"
#include "crypto_svc.h"
#include "nr_sec.h"
#include "pdcp.h"
#include "vectors.h"

/* ---- NEA2 / NIA2: TS 33.401 Annex C ---- */

static void test_nea2_annex_c1(void **state)
{
	(void)state;
	for (size_t t = 0; t < sizeof(eea2_sets) / sizeof(eea2_sets[0]); t++) {
		const struct eea2_set *v = &eea2_sets[t];
		uint8_t key[16], plain[512], want[512], got[512], back[512];
		unhex(v->key, key);
		/* The spec writes the data in whole 32-bit words: the set is its first bits. */
		size_t n = (v->bits + 7) / 8;
		assert_true(unhex(v->plain, plain) >= n);
		assert_true(unhex(v->cipher, want) >= n);
		struct nr_nea2 *c = nr_nea2_new(key);
		assert_non_null(c);
		/* Twice on one context: the key is set once, each call only sets the counter block. */
		for (int round = 0; round < 2; round++) {
			assert_int_equal(nr_nea2(c, v->count, v->bearer, v->dir, plain, got, n), 0);
			/* Whole bytes: the last byte's bits beyond the set's length are not the spec's. */
			uint8_t mask = v->bits % 8 ? (uint8_t)(0xff << (8 - v->bits % 8)) : 0xff;
			assert_memory_equal(got, want, n - 1);
			assert_int_equal(got[n - 1] & mask, want[n - 1] & mask);
			assert_int_equal(nr_nea2(c, v->count, v->bearer, v->dir, got, back, n), 0);
			assert_memory_equal(back, plain, n);
		}
		nr_nea2_free(c);
	}
}

static void test_nia2_annex_c2(void **state)
{
	(void)state;
	static uint8_t msg[4096];
	for (size_t t = 0; t < sizeof(eia2_sets) / sizeof(eia2_sets[0]); t++) {
		const struct eia2_set *v = &eia2_sets[t];
		uint8_t key[16], want[4], got[4];
		unhex(v->key, key);
		size_t n = unhex(v->msg, msg);
		assert_int_equal(n * 8, v->bits);
		unhex(v->mac, want);
		struct nr_nia2 *c = nr_nia2_new(key);
		assert_non_null(c);
		for (int round = 0; round < 2; round++) {
			assert_int_equal(nr_nia2(c, v->count, v->bearer, v->dir, msg, n, got), 0);
			assert_memory_equal(got, want, 4);
		}
		/* Another COUNT gives another MAC, and the context still gives the set's after it. */
		assert_int_equal(nr_nia2(c, v->count + 1, v->bearer, v->dir, msg, n, got), 0);
		assert_memory_not_equal(got, want, 4);
		assert_int_equal(nr_nia2(c, v->count, v->bearer, v->dir, msg, n, got), 0);
		assert_memory_equal(got, want, 4);
		nr_nia2_free(c);
	}
}

/* ---- PDCP ---- */

static void test_pdcp_data_headers(void **state)
{
	(void)state;
	uint8_t b[8];
	struct pdcp_pdu p;
	assert_int_equal(pdcp_write_data_hdr(b, 12, 0xabc), 2);
	assert_int_equal(b[0], 0x8a);
	assert_int_equal(b[1], 0xbc);
	assert_int_equal(pdcp_parse(b, 2, 12, &p), PDCP_OK);
	assert_int_equal(p.kind, PDCP_DATA);
	assert_int_equal(p.sn, 0xabc);
	assert_int_equal(p.hdr_len, 2);
	assert_int_equal(pdcp_write_data_hdr(b, 18, 0x3abcd), 3);
	assert_int_equal(b[0], 0x83);
	assert_int_equal(pdcp_parse(b, 3, 18, &p), PDCP_OK);
	assert_int_equal(p.sn, 0x3abcd);
	assert_int_equal(p.hdr_len, 3);
	assert_int_equal(pdcp_write_data_hdr(b, 15, 1), 0);
	assert_int_equal(pdcp_parse(b, 3, 15, &p), PDCP_ERR_SN_LEN);
	/* Every truncation is an error, never a read past the end. */
	assert_int_equal(pdcp_parse(b, 0, 18, &p), PDCP_ERR_TRUNCATED);
	assert_int_equal(pdcp_parse(b, 2, 18, &p), PDCP_ERR_TRUNCATED);
	assert_int_equal(pdcp_parse(b, 1, 12, &p), PDCP_ERR_TRUNCATED);
}

static void test_pdcp_status_report(void **state)
{
	(void)state;
	uint8_t b[7];
	struct pdcp_pdu p;
	pdcp_write_status_hdr(b, 0x01020304);
	b[5] = 0xa0;
	b[6] = 0x01;
	assert_int_equal(b[0], 0x00);
	for (unsigned sn_bits = 12; sn_bits <= 18; sn_bits += 6) {
		assert_int_equal(pdcp_parse(b, sizeof(b), sn_bits, &p), PDCP_OK);
		assert_int_equal(p.kind, PDCP_STATUS_REPORT);
		assert_int_equal(p.fmc, 0x01020304);
		assert_int_equal(p.bitmap_len, 2);
		assert_ptr_equal(p.bitmap, b + 5);
	}
	assert_int_equal(pdcp_parse(b, 5, 12, &p), PDCP_OK);
	assert_int_equal(p.bitmap_len, 0);
	for (size_t len = 1; len < 5; len++)
		assert_int_equal(pdcp_parse_control(b, len, &p), PDCP_ERR_TRUNCATED);
	b[0] = 0x10; /* interspersed ROHC feedback */
	assert_int_equal(pdcp_parse(b, sizeof(b), 12, &p), PDCP_ERR_CONTROL_TYPE);
	b[0] = 0x80; /* data is no control PDU */
	assert_int_equal(pdcp_parse_control(b, sizeof(b), &p), PDCP_ERR_CONTROL_TYPE);
}

static void test_pdcp_rx_count(void **state)
{
	(void)state;
	/* 12-bit SN, window 2048. */
	assert_int_equal(pdcp_rx_count(5, 7, 12), 7);
	assert_int_equal(pdcp_rx_count((3u << 12) | 4000, 10, 12), (4u << 12) | 10);   /* wrapped forward */
	assert_int_equal(pdcp_rx_count((3u << 12) | 10, 4000, 12), (2u << 12) | 4000); /* from before the wrap */
	assert_int_equal(pdcp_rx_count((3u << 12) | 2047, 4094, 12), (3u << 12) | 4094);
	/* 18-bit SN. */
	assert_int_equal(pdcp_rx_count((1u << 18) | 262000, 5, 18), (2u << 18) | 5);
	assert_int_equal(pdcp_rx_count(0, 5, 18), 5);
}

/* ---- the crypto service ---- */

static const uint8_t k_enc[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t k_int[16] = { 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };

struct crypto_svc *crypto_with_ue(uint32_t ue, unsigned sn_bits, int integrity)
{
	struct crypto_svc *c = crypto_svc_create(8);
	assert_non_null(c);
	struct crypto_ue_cfg cfg = { .integrity = (uint8_t)integrity, .bearer = 3, .sn_bits = (uint8_t)sn_bits };
	memcpy(cfg.enc_key, k_enc, 16);
	memcpy(cfg.int_key, k_int, 16);
	assert_int_equal(crypto_svc_ue_set(c, ue, &cfg), 0);
	return c;
}

static void test_crypto_downlink(void **state)
{
	(void)state;
	struct crypto_svc *c = crypto_with_ue(2, 18, 1);
	uint8_t pdu[103], sdu[100];
	for (size_t i = 0; i < sizeof(sdu); i++)
		sdu[i] = (uint8_t)i;
	uint32_t count = 0x12345;
	pdcp_write_data_hdr(pdu, 18, count);
	memcpy(pdu + 3, sdu, sizeof(sdu));
	struct rte_mbuf *m = frame(2, count, GNB_OP_DL_PROTECT, pdu, sizeof(pdu));
	assert_int_equal(crypto_svc_burst(c, &m, 1), 1);
	assert_int_equal(m->data_len, GNB_SVC_PDU_OFF + sizeof(pdu) + 4);
	/* What the spec's order gives with the primitives: MAC-I over header and SDU, then SDU || MAC-I ciphered. */
	uint8_t want[107];
	memcpy(want, pdu, sizeof(pdu));
	struct nr_nia2 *i = nr_nia2_new(k_int);
	struct nr_nea2 *e = nr_nea2_new(k_enc);
	assert_int_equal(nr_nia2(i, count, 3, NR_DIR_DOWNLINK, pdu, sizeof(pdu), want + sizeof(pdu)), 0);
	assert_int_equal(nr_nea2(e, count, 3, NR_DIR_DOWNLINK, want + 3, want + 3, sizeof(want) - 3), 0);
	assert_memory_equal(pdu_of(m), want, sizeof(want));
	assert_int_equal(crypto_svc_stats(c)->protected_pdus, 1);
	rte_pktmbuf_free(m);
	/* An SN that is not COUNT's is refused, counted. */
	m = frame(2, count + 1, GNB_OP_DL_PROTECT, pdu, sizeof(pdu));
	assert_int_equal(crypto_svc_burst(c, &m, 1), 0);
	assert_int_equal(crypto_svc_stats(c)->drops[CRYPTO_DROP_SN_MISMATCH], 1);
	nr_nia2_free(i);
	nr_nea2_free(e);
	crypto_svc_free(c);
}

/* An uplink PDU as a UE sends it: header, SDU || MAC-I ciphered (direction uplink). */
static struct rte_mbuf *ue_pdu(uint32_t count, unsigned sn_bits, const uint8_t *sdu, size_t len, int corrupt)
{
	uint8_t pdu[256];
	unsigned hl = pdcp_write_data_hdr(pdu, sn_bits, count);
	memcpy(pdu + hl, sdu, len);
	struct nr_nia2 *i = nr_nia2_new(k_int);
	struct nr_nea2 *e = nr_nea2_new(k_enc);
	assert_int_equal(nr_nia2(i, count, 3, NR_DIR_UPLINK, pdu, hl + len, pdu + hl + len), 0);
	pdu[hl + len] ^= (uint8_t)corrupt;
	assert_int_equal(nr_nea2(e, count, 3, NR_DIR_UPLINK, pdu + hl, pdu + hl, len + 4), 0);
	nr_nia2_free(i);
	nr_nea2_free(e);
	return frame(1, 0, GNB_OP_UL_UNPROTECT, pdu, hl + len + 4);
}

static void test_crypto_uplink(void **state)
{
	(void)state;
	struct crypto_svc *c = crypto_with_ue(1, 12, 1);
	uint8_t sdu[40];
	memset(sdu, 0x5a, sizeof(sdu));
	/* COUNTs across an SN wrap: 4094, 4095, then 4096 and 4097 (SN 0, 1: the HFN moves). */
	for (uint32_t count = 4094; count < 4098; count++) {
		struct rte_mbuf *m = ue_pdu(count, 12, sdu, sizeof(sdu), 0);
		if (count == 4094) { /* a new bearer's RX_DELIV is 0: start the UE where it is */
			struct crypto_ue_cfg cfg = { .integrity = 1, .bearer = 3, .sn_bits = 12, .rx_deliv = 4094 };
			memcpy(cfg.enc_key, k_enc, 16);
			memcpy(cfg.int_key, k_int, 16);
			assert_int_equal(crypto_svc_ue_set(c, 1, &cfg), 0);
		}
		assert_int_equal(crypto_svc_burst(c, &m, 1), 1);
		assert_int_equal(m->data_len, GNB_SVC_PDU_OFF + 2 + sizeof(sdu));
		assert_memory_equal(pdu_of(m) + 2, sdu, sizeof(sdu));
		assert_int_equal(rte_be_to_cpu_32(gnb_svc_hdr(m)->count), count);
		rte_pktmbuf_free(m);
	}
	/* A bad MAC-I is a counted drop and moves nothing: the next good PDU still decodes. */
	struct rte_mbuf *m = ue_pdu(4098, 12, sdu, sizeof(sdu), 1);
	assert_int_equal(crypto_svc_burst(c, &m, 1), 0);
	assert_int_equal(crypto_svc_stats(c)->drops[CRYPTO_DROP_MAC], 1);
	m = ue_pdu(4098, 12, sdu, sizeof(sdu), 0);
	assert_int_equal(crypto_svc_burst(c, &m, 1), 1);
	rte_pktmbuf_free(m);
	assert_int_equal(crypto_svc_stats(c)->unprotected_pdus, 5);
	crypto_svc_free(c);
}

static void test_crypto_bad_input_counted(void **state)
{
	(void)state;
	struct crypto_svc *c = crypto_with_ue(1, 12, 1);
	uint8_t pdu[16] = { 0x80, 0x01 };
	struct rte_mbuf *m[8];
	uint16_t n = 0;
	m[n++] = frame(5, 1, GNB_OP_DL_PROTECT, pdu, sizeof(pdu));  /* no UE 5 */
	m[n++] = frame(100, 1, GNB_OP_DL_PROTECT, pdu, sizeof(pdu)); /* beyond the table */
	m[n++] = frame(1, 1, GNB_OP_STATUS, pdu, sizeof(pdu));       /* not the crypto service's */
	m[n++] = frame(1, 1, GNB_OP_DL_PROTECT, pdu, 1);             /* truncated PDCP header */
	m[n++] = frame(1, 1, GNB_OP_UL_UNPROTECT, pdu, 5);           /* shorter than header + MAC-I */
	uint8_t status[5] = { 0 };
	m[n++] = frame(1, 1, GNB_OP_UL_UNPROTECT, status, sizeof(status));
	m[n] = frame(1, 1, GNB_OP_DL_PROTECT, pdu, sizeof(pdu));
	((struct rte_ether_hdr *)rte_pktmbuf_mtod(m[n], void *))->ether_type = rte_cpu_to_be_16(0x0800);
	n++;
	assert_int_equal(crypto_svc_burst(c, m, n), 0);
	const struct crypto_stats *s = crypto_svc_stats(c);
	assert_int_equal(s->drops[CRYPTO_DROP_NO_UE], 2);
	assert_int_equal(s->drops[CRYPTO_DROP_BAD_OP], 1);
	assert_int_equal(s->drops[CRYPTO_DROP_PDCP], 1);
	assert_int_equal(s->drops[CRYPTO_DROP_SHORT], 1);
	assert_int_equal(s->drops[CRYPTO_DROP_NOT_DATA], 1);
	assert_int_equal(s->drops[CRYPTO_DROP_MALFORMED], 1);
	/* Every frame cut at every length: counted, never a crash, nothing leaked. */
	unsigned before = rte_mempool_in_use_count(g_pool);
	uint8_t full[64];
	memset(full, 0x80, sizeof(full));
	for (size_t len = 0; len < sizeof(full); len++) {
		struct rte_mbuf *x = frame(1, 0, GNB_OP_UL_UNPROTECT, full, sizeof(full));
		rte_pktmbuf_trim(x, (uint16_t)(sizeof(full) + GNB_SVC_PDU_OFF - len));
		if (crypto_svc_burst(c, &x, 1))
			rte_pktmbuf_free(x);
	}
	assert_int_equal(rte_mempool_in_use_count(g_pool), before);
	assert_int_equal(crypto_svc_ue_set(c, 1, &(struct crypto_ue_cfg){ .sn_bits = 7 }), -EINVAL);
	crypto_svc_free(c);
}

const struct CMUnitTest *crypto_tests(size_t *n)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nea2_annex_c1), cmocka_unit_test(test_nia2_annex_c2),
		cmocka_unit_test(test_pdcp_data_headers), cmocka_unit_test(test_pdcp_status_report),
		cmocka_unit_test(test_pdcp_rx_count), cmocka_unit_test(test_crypto_downlink),
		cmocka_unit_test(test_crypto_uplink), cmocka_unit_test(test_crypto_bad_input_counted),
	};
	*n = sizeof(tests) / sizeof(tests[0]);
	return tests;
}
