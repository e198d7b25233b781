/* The switch stand-in (gnb_switch.c) on frames a fuzzer would send: valid frames of every path mutated, cut
 * short and sent into every port; every frame leaves or is counted dropped by one reason, the BaaS copies are
 * the only extra frames, and no mbuf is left behind. Entry text errors name the field. The vectors, byte for
 * byte, are tests/gnb/test_gnb_switch.py's. */
#include <stdlib.h>
#include "helpers.h"
#include "gnb_switch_entries.h"
#include "switch_entries.h"

static struct gnb_switch *switch_with_entries(void)
{
	struct gnb_switch *sw = gnb_switch_create(4, g_pool);
	assert_non_null(sw);
	char err[160];
	for (size_t i = 0; i < SWITCH_ENTRIES; i++)
		assert_int_equal(gnb_switch_entry(sw, switch_entries[i], err, sizeof(err)), 0);
	return sw;
}

/* A valid frame of one of the paths (kind 0..5), its length. */
static size_t valid_frame(int kind, uint8_t *f)
{
	static const uint8_t n3[] = { 2, 0, 0, 0, 3, 1, 2, 0, 0, 0, 3, 2, 0x08, 0x00, 0x45, 0, 0, 88, 0, 0, 0, 0, 64,
				      17, 0, 0, 10, 0, 3, 2, 10, 0, 3, 1, 0x08, 0x68, 0x08, 0x68, 0, 68, 0, 0, 0x34,
				      0xff, 0, 52, 0, 0, 1, 0, 0, 0, 0, 0x85, 1, 0, 9, 0 };
	static const uint8_t air[] = { 2, 0, 0, 0, 1, 1, 2, 0, 0, 0, 1, 0x10, 0x88, 0xb6, 0x44, 0, 62 };
	static const uint8_t svc[] = { 2, 0, 0, 0, 2, 1, 2, 0, 0, 0, 2, 2, 0x88, 0xb5, 0, 0, 0, 0, 0, 0, 0, 3 };
	memset(f, 0x45, 128);
	switch (kind) {
	case 0:
		memcpy(f, n3, sizeof(n3));
		return sizeof(n3) + 44;   /* the lengths above: a 44-byte user packet */
	case 1: /* air data; 2: air status report */
	case 2:
		memcpy(f, air, sizeof(air));
		f[sizeof(air)] = kind == 1 ? 0x80 : 0x00;
		return sizeof(air) + 62;
	default: /* service frames: op 1 protected, 2 deciphered, 5 resent */
		memcpy(f, svc, sizeof(svc));
		f[14 + 8] = kind == 3 ? 1 : kind == 4 ? 2 : 5;
		f[14 + 3] = (uint8_t)(rand() % 2);   /* UE 0 or 1 */
		f[26] = 0x80;
		return 26 + 60;
	}
}

static void test_switch_every_frame_accounted(void **state)
{
	(void)state;
	struct gnb_switch *sw = switch_with_entries();
	unsigned before = rte_mempool_in_use_count(g_pool);
	srand(37);
	uint64_t frames = 0, out_frames = 0, copies = 0;
	for (int i = 0; i < 20000; i++) {
		uint8_t f[128];
		size_t len = valid_frame(rand() % 6, f);
		if (rand() % 2)   /* flip a byte in the headers */
			f[rand() % 40] ^= (uint8_t)(1 + rand() % 255);
		if (rand() % 4 == 0)
			len = (size_t)(rand() % (int)len);
		struct rte_mbuf *m = rte_pktmbuf_alloc(g_pool);
		assert_non_null(m);
		uint8_t *p = len ? (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len) : NULL;
		if (len)
			memcpy(p, f, len);
		struct gnb_sw_out out[2];
		unsigned k = gnb_switch_packet(sw, (uint16_t)(rand() % 5), m, out);
		assert_true(k <= 2);
		frames++;
		out_frames += k ? 1 : 0;
		copies += k == 2;
		for (unsigned j = 0; j < k; j++) {
			assert_true(out[j].port < 4);
			rte_pktmbuf_free(out[j].m);
		}
	}
	const uint64_t *d = gnb_switch_drops(sw);
	uint64_t dropped = 0;
	for (unsigned r = 0; r < GNB_DROPS_SIZE; r++)
		dropped += d[r];
	assert_int_equal(out_frames + dropped, frames);
	assert_true(copies > 0 && out_frames > 1000 && d[GNB_DROP_PARSER_ERROR] > 0 && d[GNB_DROP_UNKNOWN_PORT] > 0);
	assert_int_equal(gnb_switch_copy_failed(sw), 0);
	assert_int_equal(rte_mempool_in_use_count(g_pool), before);
	gnb_switch_free(sw);
}

static void test_switch_entry_errors(void **state)
{
	(void)state;
	struct gnb_switch *sw = gnb_switch_create(4, g_pool);
	char err[160];
	static const struct {
		const char *line, *reason;
	} bad[] = {
		{ "dl_ues set_dl_ue teid=1 ue=0", "missing field sn18" },
		{ "ul_ues set_ul_ue port=512 ue_mac=02:00:00:00:00:01 ue=0 lcid=4", "port is not a number of its width" },
		{ "air set_air ue=9 port=1 ue_mac=02:00:00:00:00:01 gnb_mac=02:00:00:00:00:02 lcid=4", "out of range" },
		{ "ports set_port_role port=1 role=9", "out of range" },
		{ "services set_services crypto=1", "missing field baas" },
		{ "ports", "no action" },
		{ "nosuch set_x a=1", "no action set_x" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(gnb_switch_entry(sw, bad[i].line, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].reason))
			fail_msg("%s: %s", bad[i].line, err);
	}
	assert_int_equal(gnb_switch_entry(sw, "# a comment", err, sizeof(err)), 0);
	gnb_switch_free(sw);
}

const struct CMUnitTest *switch_tests(size_t *n)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_every_frame_accounted), cmocka_unit_test(test_switch_entry_errors),
	};
	*n = sizeof(tests) / sizeof(tests[0]);
	return tests;
}
