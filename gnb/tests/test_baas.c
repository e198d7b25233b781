/* The gNB unit tests of Buffer-as-a-Service and the lcore stages, and the tests' main (EAL without
 * hugepages, cmocka). */
#include <stdlib.h>
#include <rte_eal.h>
#include <rte_ring.h>
#include "helpers.h"
#include "baas.h"
#include "crypto_svc.h"
#include "pdcp.h"
#include "stage.h"

struct rte_mempool *g_pool;

/* ---- BaaS ---- */

#define TICK 1000 /* clock cycles per tick in these tests */
#define BURST_T 32

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
	if (len)
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

/* Random frames (fixed seed) through both services: none crashes either (also under ASan/UBSan), each
 * is accounted for: processed, held, a status report, or a counted drop. */
static void test_random_frames_all_accounted(void **state)
{
	(void)state;
	struct crypto_svc *c = crypto_with_ue(1, 12, 1);
	struct baas_cfg cfg = baas_cfg();
	struct baas *b = baas_create(&cfg, 0);
	assert_int_equal(baas_ue_add(b, 1, 0), 0);
	srand(37);
	uint64_t kept = 0, frames = 0;
	for (int round = 0; round < 200; round++) {
		struct rte_mbuf *m[BURST_T];
		for (int i = 0; i < BURST_T; i++) {
			uint8_t pdu[40];
			for (size_t k = 0; k < sizeof(pdu); k++)
				pdu[k] = (uint8_t)rand();
			m[i] = frame((uint32_t)(rand() % 3), (uint32_t)(rand() % 40), (uint8_t)(rand() % 6), pdu,
				     (size_t)(rand() % (int)sizeof(pdu)));
			if (rand() % 8 == 0) /* cut into the service header */
				rte_pktmbuf_trim(m[i], (uint16_t)(GNB_SVC_PDU_OFF - rand() % 4));
		}
		frames += BURST_T;
		struct rte_mbuf *out[BURST_T];
		if (round % 2) {
			uint16_t k = crypto_svc_burst(c, m, BURST_T);
			kept += k;
			rte_pktmbuf_free_bulk(m, k);
		} else {
			uint16_t k = baas_burst(b, m, BURST_T, (uint64_t)round * TICK, out, BURST_T);
			rte_pktmbuf_free_bulk(out, k);
			k = baas_timers(b, (uint64_t)round * TICK, out, BURST_T);
			rte_pktmbuf_free_bulk(out, k);
		}
	}
	const struct crypto_stats *cs = crypto_svc_stats(c);
	const struct baas_stats *bs = baas_stats(b);
	uint64_t accounted = kept + bs->held + bs->status_reports;
	for (int d = 0; d < CRYPTO_DROP_REASONS; d++)
		accounted += cs->drops[d];
	for (int d = 0; d < BAAS_DROP_REASONS; d++)
		accounted += d == BAAS_DROP_RETX_EXHAUSTED ? 0 : bs->drops[d]; /* those were held first */
	assert_int_equal(accounted, frames);
	assert_int_equal(kept, cs->protected_pdus + cs->unprotected_pdus);
	baas_free(b);
	crypto_svc_free(c);
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
	size_t nc;
	const struct CMUnitTest *ct = crypto_tests(&nc);
	const struct CMUnitTest baas_tests[] = {
		cmocka_unit_test(test_baas_status_acks_and_resends), cmocka_unit_test(test_baas_timeout_resends_then_gives_up),
		cmocka_unit_test(test_baas_bounds_and_bad_input_counted), cmocka_unit_test(test_stages_over_rings),
		cmocka_unit_test(test_random_frames_all_accounted),
	};
	size_t ns;
	const struct CMUnitTest *st = switch_tests(&ns);
	int f = _cmocka_run_group_tests("ciphering and integrity", ct, nc, NULL, NULL);
	f += cmocka_run_group_tests_name("buffer and stages", baas_tests, NULL, NULL);
	f += _cmocka_run_group_tests("switch stand-in", st, ns, NULL, NULL);
	int total = (int)(nc + ns + sizeof(baas_tests) / sizeof(baas_tests[0]));
	printf("gnb C unit tests: %d passed, %d failed\n", total - f, f);
	return f ? 1 : 0;
}
