/* The gNB services' unit tests: EAL without hugepages, cmocka. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include "baas.h"
#include "crypto_svc.h"
#include "nr_sec.h"
#include "pdcp.h"
#include "stage.h"
#include "svc.h"
#include "vectors.h"

static struct rte_mempool *g_pool;

static size_t unhex(const char *h, uint8_t *out)
{
	size_t n = strlen(h) / 2;
	for (size_t i = 0; i < n; i++)
		sscanf(h + 2 * i, "%2hhx", &out[i]);
	return n;
}

/* A service frame: Ethernet, service header, pdu. */
static struct rte_mbuf *frame(uint32_t ue, uint32_t count, uint8_t op, const uint8_t *pdu, size_t len)
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

static const uint8_t *pdu_of(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, const uint8_t *, GNB_SVC_PDU_OFF);
}

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

static struct crypto_svc *crypto_with_ue(uint32_t ue, unsigned sn_bits, int integrity)
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

/* ---- BaaS ---- */

#define TICK 1000 /* clock cycles per tick in these tests */

static struct baas_cfg baas_cfg(void)
{
	return (struct baas_cfg){ .max_ues = 4, .window = 16, .ue_bytes = 1 << 20, .total_pdus = 64,
				  .total_bytes = 1 << 20, .tick_cycles = TICK, .timeout_ticks = 10, .max_retx = 2 };
}

static struct rte_mbuf *data_pdu(uint32_t ue, uint32_t count)
{
	uint8_t pdu[60] = { 0 };
	pdcp_write_data_hdr(pdu, 18, count);
	return frame(ue, count, GNB_OP_BUFFER, pdu, sizeof(pdu));
}

static struct rte_mbuf *status_pdu(uint32_t ue, uint32_t fmc, const uint8_t *bitmap, size_t len)
{
	uint8_t pdu[64];
	pdcp_write_status_hdr(pdu, fmc);
	memcpy(pdu + 5, bitmap, len);
	return frame(ue, 0, GNB_OP_STATUS, pdu, 5 + len);
}

static void hold_counts(struct baas *b, uint32_t ue, uint32_t from, uint32_t to)
{
	struct rte_mbuf *out[4];
	for (uint32_t c = from; c < to; c++) {
		struct rte_mbuf *m = data_pdu(ue, c);
		assert_int_equal(baas_burst(b, &m, 1, 0, out, 4), 0);
	}
}

static uint32_t count_of(struct rte_mbuf *m)
{
	return rte_be_to_cpu_32(gnb_svc_hdr(m)->count);
}

static void test_baas_status_acks_and_resends(void **state)
{
	(void)state;
	struct baas_cfg cfg = baas_cfg();
	struct baas *b = baas_create(&cfg, 0);
	assert_non_null(b);
	assert_int_equal(baas_ue_add(b, 1, 0), 0);
	unsigned before = rte_mempool_in_use_count(g_pool);
	hold_counts(b, 1, 0, 8);
	assert_int_equal(baas_ue_held(b, 1), 8);
	/* FMC 3: 0-2 acknowledged; bitmap 1011 0000 from COUNT 4: 4, 6, 7 received, 5 missing (8-11 not held). */
	uint8_t bm = 0xb0;
	struct rte_mbuf *st = status_pdu(1, 3, &bm, 1), *out[8];
	uint16_t k = baas_burst(b, &st, 1, 0, out, 8);
	assert_int_equal(k, 2);
	assert_int_equal(count_of(out[0]), 3);
	assert_int_equal(count_of(out[1]), 5);
	assert_int_equal(gnb_svc_hdr(out[0])->op, GNB_OP_RETX);
	/* The resent frame is the held one, one more reference: the output frees its own. */
	assert_int_equal(rte_mbuf_refcnt_read(out[0]), 2);
	rte_pktmbuf_free_bulk(out, k);
	assert_int_equal(baas_ue_held(b, 1), 2);
	const struct baas_stats *s = baas_stats(b);
	assert_int_equal(s->acked, 6);
	assert_int_equal(s->retx_status, 2);
	assert_int_equal(s->held_pdus, 2);
	/* FMC 6 acknowledges 3 and 5: nothing held, every buffer back. */
	st = status_pdu(1, 6, NULL, 0);
	assert_int_equal(baas_burst(b, &st, 1, 0, out, 8), 0);
	assert_int_equal(baas_ue_held(b, 1), 0);
	assert_int_equal(s->held_bytes, 0);
	assert_int_equal(rte_mempool_in_use_count(g_pool), before);
	/* Below the new base: already acknowledged. */
	struct rte_mbuf *m = data_pdu(1, 5);
	assert_int_equal(baas_burst(b, &m, 1, 0, out, 8), 0);
	assert_int_equal(s->drops[BAAS_DROP_STALE], 1);
	baas_free(b);
}

static void test_baas_timeout_resends_then_gives_up(void **state)
{
	(void)state;
	struct baas_cfg cfg = baas_cfg();
	struct baas *b = baas_create(&cfg, 0);
	assert_int_equal(baas_ue_add(b, 2, 100), 0);
	unsigned before = rte_mempool_in_use_count(g_pool);
	hold_counts(b, 2, 100, 103);
	struct rte_mbuf *out[8];
	/* Deadline: tick 10. Nothing before it, however often the lcore looks. */
	for (uint64_t now = 0; now < 10 * TICK; now += TICK / 2)
		assert_int_equal(baas_timers(b, now, out, 8), 0);
	assert_int_equal(baas_timers(b, 10 * TICK, out, 8), 3);
	rte_pktmbuf_free_bulk(out, 3);
	assert_int_equal(baas_timers(b, 5 * TICK, out, 8), 0); /* a clock behind the wheel's changes nothing */
	/* Re-armed for tick 20; a status report acknowledges 100 meanwhile. */
	struct rte_mbuf *st = status_pdu(2, 101, NULL, 0);
	assert_int_equal(baas_burst(b, &st, 1, 10 * TICK, out, 8), 1); /* 101 is FMC: missing, resent */
	rte_pktmbuf_free(out[0]);
	/* 101 was re-armed from tick 10 to 20 again, 102 is due at 20 too. */
	assert_int_equal(baas_timers(b, 19 * TICK, out, 8), 0);
	assert_int_equal(baas_timers(b, 20 * TICK, out, 8), 1);
	assert_int_equal(count_of(out[0]), 102);
	rte_pktmbuf_free(out[0]);
	/* Both have been sent twice (max_retx): the next expiry gives them up. A long pause skips nothing. */
	assert_int_equal(baas_timers(b, 1000 * TICK, out, 8), 0);
	const struct baas_stats *s = baas_stats(b);
	assert_int_equal(s->drops[BAAS_DROP_RETX_EXHAUSTED], 2);
	assert_int_equal(s->retx_timeout, 4);
	assert_int_equal(s->retx_status, 1);
	assert_int_equal(baas_ue_held(b, 2), 0);
	assert_int_equal(rte_mempool_in_use_count(g_pool), before);
	baas_free(b);
}

static void test_baas_bounds_and_bad_input_counted(void **state)
{
	(void)state;
	struct baas_cfg cfg = baas_cfg();
	cfg.total_pdus = 20;
	cfg.ue_bytes = 10 * (GNB_SVC_PDU_OFF + 60);
	struct baas *b = baas_create(&cfg, 0);
	assert_int_equal(baas_ue_add(b, 0, 0), 0);
	assert_int_equal(baas_ue_add(b, 1, 0), 0);
	assert_int_equal(baas_ue_add(b, 2, 0), 0);
	hold_counts(b, 0, 0, 12);                       /* 10 fit the UE's bytes */
	const struct baas_stats *s = baas_stats(b);
	assert_int_equal(s->drops[BAAS_DROP_UE_BYTES], 2);
	hold_counts(b, 1, 0, 10);
	hold_counts(b, 2, 0, 1);                        /* the 21st PDU: the global bound */
	assert_int_equal(s->drops[BAAS_DROP_TOTAL], 1);
	assert_int_equal(s->held_pdus, 20);
	baas_ue_del(b, 1);
	hold_counts(b, 2, 16, 17);                      /* window 16 from base 0 */
	assert_int_equal(s->drops[BAAS_DROP_WINDOW], 1);
	hold_counts(b, 2, 0, 2);
	hold_counts(b, 2, 1, 2);
	assert_int_equal(s->drops[BAAS_DROP_DUPLICATE], 1);
	struct rte_mbuf *m[6], *out[4];
	uint8_t bad[4] = { 0x10, 0, 0, 0 };
	m[0] = data_pdu(3, 0);                          /* UE 3 not added */
	m[1] = frame(0, 0, GNB_OP_STATUS, bad, 1);      /* ROHC feedback */
	m[2] = frame(0, 0, GNB_OP_STATUS, bad + 1, 3);  /* truncated status report */
	m[3] = frame(0, 0, GNB_OP_DL_PROTECT, bad, 4);
	m[4] = data_pdu(0, 3);
	rte_pktmbuf_trim(m[4], (uint16_t)(m[4]->data_len - 10));  /* shorter than the service header */
	m[5] = data_pdu(99, 0);
	assert_int_equal(baas_burst(b, m, 6, 0, out, 4), 0);
	assert_int_equal(s->drops[BAAS_DROP_NO_UE], 2);
	assert_int_equal(s->drops[BAAS_DROP_BAD_STATUS], 2);
	assert_int_equal(s->drops[BAAS_DROP_BAD_OP], 1);
	assert_int_equal(s->drops[BAAS_DROP_MALFORMED], 1);
	assert_int_equal(s->held_pdus, 12);
	cfg.window = 12;
	assert_null(baas_create(&cfg, 0));
	baas_free(b);
}

/* ---- the lcore stages over rings ---- */

static void test_stages_over_rings(void **state)
{
	(void)state;
	struct rte_ring *a = rte_ring_create("a", 64, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
	struct rte_ring *z = rte_ring_create("z", 4, 0, RING_F_SP_ENQ | RING_F_SC_DEQ); /* holds 3 */
	int stop = 0;
	struct crypto_svc *c = crypto_with_ue(1, 12, 0);
	struct gnb_stage cs = { .crypto = c, .in = { .ring = a }, .out = { .ring = z }, .stop = &stop };
	uint8_t pdu[20] = { 0x80, 0x05 };
	for (int i = 0; i < 5; i++) {
		struct rte_mbuf *m = frame(1, 5, GNB_OP_DL_PROTECT, pdu, sizeof(pdu));
		assert_int_equal(rte_ring_enqueue(a, m), 0);
	}
	assert_int_equal(gnb_stage_once(&cs, 0), 3);
	assert_int_equal(cs.tx_full, 2);
	struct rte_mbuf *m[8];
	assert_int_equal(rte_ring_dequeue_burst(z, (void **)m, 8, NULL), 3);
	assert_memory_not_equal(pdu_of(m[0]) + 2, pdu + 2, sizeof(pdu) - 2);
	rte_pktmbuf_free_bulk(m, 3);
	crypto_svc_free(c);

	/* BaaS: held PDUs, a status report's resends on the output; a full output keeps them held. */
	struct baas_cfg cfg = baas_cfg();
	struct baas *b = baas_create(&cfg, 0);
	assert_int_equal(baas_ue_add(b, 0, 0), 0);
	struct gnb_stage bs = { .baas = b, .in = { .ring = a }, .out = { .ring = z }, .stop = &stop };
	for (uint32_t cnt = 0; cnt < 6; cnt++)
		rte_ring_enqueue(a, data_pdu(0, cnt));
	uint8_t none = 0;
	rte_ring_enqueue(a, status_pdu(0, 0, &none, 1)); /* 0..5 missing: resend 6 */
	assert_int_equal(gnb_stage_once(&bs, 0), 3);
	assert_int_equal(bs.tx_full, 3);
	assert_int_equal(baas_ue_held(b, 0), 6);
	assert_int_equal(rte_ring_dequeue_burst(z, (void **)m, 8, NULL), 3);
	rte_pktmbuf_free_bulk(m, 3);
	/* The timer resends them all again (up to what the ring takes). */
	assert_int_equal(gnb_stage_once(&bs, 10 * TICK), 3);
	assert_int_equal(rte_ring_dequeue_burst(z, (void **)m, 8, NULL), 3);
	rte_pktmbuf_free_bulk(m, 3);
	baas_free(b);
	rte_ring_free(a);
	rte_ring_free(z);
}

int main(void)
{
	char *argv[] = { "test_gnb", "--no-huge", "-m", "256", "--no-pci", "--no-shconf", "--log-level=lib.*:error",
			 "-l", "0", NULL };
	if (rte_eal_init(9, argv) < 0)
		return 1;
	g_pool = rte_pktmbuf_pool_create("t", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (!g_pool)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nea2_annex_c1), cmocka_unit_test(test_nia2_annex_c2),
		cmocka_unit_test(test_pdcp_data_headers), cmocka_unit_test(test_pdcp_status_report),
		cmocka_unit_test(test_pdcp_rx_count), cmocka_unit_test(test_crypto_downlink),
		cmocka_unit_test(test_crypto_uplink), cmocka_unit_test(test_crypto_bad_input_counted),
		cmocka_unit_test(test_baas_status_acks_and_resends), cmocka_unit_test(test_baas_timeout_resends_then_gives_up),
		cmocka_unit_test(test_baas_bounds_and_bad_input_counted), cmocka_unit_test(test_stages_over_rings),
	};
	int f = cmocka_run_group_tests_name("gnb services", tests, NULL, NULL);
	int total = (int)(sizeof(tests) / sizeof(tests[0]));
	printf("gnb C unit tests: %d passed, %d failed\n", total - f, f);
	return f ? 1 : 0;
}
