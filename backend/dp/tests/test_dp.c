/* Unit tests of the packet operations and the tables/pipeline (cmocka).
 * EAL runs without hugepages, PCI or workers: the test thread is the only reader. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <cmocka.h>
#include <sys/mman.h>
#include <unistd.h>
#include <rte_eal.h>
#include <rte_mbuf.h>
#include "dp_int.h"
#include "egress.h"
#include "io_int.h"
#include "pkt.h"
#include "hw_vectors.h"

static struct rte_mempool *g_pool;
static const uint8_t MAC_A[6] = { 0, 0, 0, 0, 0, 0xa }, MAC_B[6] = { 0, 0, 0, 0, 0, 0xb };
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))
#define N3 IP(10, 0, 0, 1)      /* UPF access address */
#define GNB IP(10, 0, 0, 2)
#define UE IP(172, 16, 0, 5)
#define APP IP(8, 8, 8, 8)

static void w16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }
static void w32(uint8_t *p, uint32_t v) { w16(p, v >> 16); w16(p + 2, v & 0xffff); }
static uint16_t r16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t r32(const uint8_t *p) { return (uint32_t)r16(p) << 16 | r16(p + 2); }

/* IPv4/UDP with `payload` bytes of UDP payload at b; returns bytes written. */
static uint32_t ip_udp(uint8_t *b, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint32_t payload)
{
	memset(b, 0, IP4_LEN + UDP_LEN);
	b[0] = 0x45; w16(b + 2, (uint16_t)(IP4_LEN + UDP_LEN + payload)); b[8] = 64; b[9] = 17;
	w32(b + 12, src); w32(b + 16, dst);
	pkt_ipv4_fix_cksum(b);
	w16(b + 20, sport); w16(b + 22, dport); w16(b + 24, (uint16_t)(UDP_LEN + payload));
	for (uint32_t i = 0; i < payload; i++)
		b[28 + i] = (uint8_t)i;
	return IP4_LEN + UDP_LEN + payload;
}

static uint32_t eth(uint8_t *b)
{
	memcpy(b, MAC_B, 6); memcpy(b + 6, MAC_A, 6); w16(b + 12, 0x0800);
	return ETH_LEN;
}

/* Downlink: plain IPv4 from APP to UE. */
static uint32_t dl_frame(uint8_t *b, uint32_t ue)
{
	uint32_t n = eth(b);
	return n + ip_udp(b + n, APP, ue, 53, 4000, 64);
}

/* Uplink: GTP-U G-PDU (optionally with an UL PSC) from GNB to N3 carrying UE->APP. */
static uint32_t ul_frame(uint8_t *b, uint32_t teid, uint32_t inner_src, int psc)
{
	uint32_t n = eth(b);
	uint32_t gl = GTPU_LEN + (psc ? 8 : 0);
	uint8_t inner[128];
	uint32_t il = ip_udp(inner, inner_src, APP, 4000, 53, 64);
	n += ip_udp(b + n, GNB, N3, 2152, 2152, gl + il) - gl - il;
	uint8_t *g = b + n;
	g[0] = psc ? 0x34 : 0x30; g[1] = 0xff; w16(g + 2, (uint16_t)(gl - GTPU_LEN + il)); w32(g + 4, teid);
	if (psc) {
		memset(g + 8, 0, 8); g[11] = 0x85; g[12] = 1; g[13] = 0x10; g[14] = 9;
	}
	memcpy(g + gl, inner, il);
	return n + gl + il;
}

#define VTEP IP(192, 168, 50, 1)
#define EDGE IP(192, 168, 50, 100)

/* The frame of n bytes at t in VXLAN (VNI vni, flags) from EDGE to dst; returns the length. */
static uint32_t vxlan_frame(uint8_t *b, const uint8_t *t, uint32_t n, uint32_t vni, uint32_t dst, uint8_t flags)
{
	uint32_t o = eth(b);
	o += ip_udp(b + o, EDGE, dst, 49152, VXLAN_PORT, VXLAN_LEN + n) - VXLAN_LEN - n;
	memset(b + o, 0, VXLAN_LEN);
	b[o] = flags;
	w32(b + o + 4, vni << 8);
	memcpy(b + o + VXLAN_LEN, t, n);
	return o + VXLAN_LEN + n;
}

static struct rte_mbuf *mbuf_of(const uint8_t *b, uint32_t len, uint16_t port)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_pool);
	assert_non_null(m);
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), b, len);
	m->port = port;
	return m;
}

static struct dp_verdict run(struct rte_mbuf *m)
{
	struct dp_verdict v;
	dp_process_burst(dp_pipe(), 0, &m, 1, &v);
	return v;
}

/* Runs a copy of b; for tests that only look at the verdict. */
static struct dp_verdict run_bytes(const uint8_t *b, uint32_t n, uint16_t port)
{
	struct rte_mbuf *m = mbuf_of(b, n, port);
	struct dp_verdict v = run(m);
	rte_pktmbuf_free(m);
	return v;
}

static uint64_t drops(uint32_t reason)
{
	uint64_t n;
	assert_int_equal(dp_drop_read(reason, &n), 0);
	return n;
}

/* ---- packet operations ---- */

static void test_parse_uplink_psc(void **st)
{
	(void)st;
	uint8_t b[256];
	struct pkt_info pi;
	uint32_t n = ul_frame(b, 0x1234, UE, 1);
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_OK);
	assert_int_equal(pi.teid, 0x1234);
	assert_int_equal(pi.gtpu_type, GTPU_MSG_GPDU);
	assert_true(pi.has_psc);
	assert_int_equal(pi.qfi, 9);
	assert_int_equal(pi.inner_src, UE);
	assert_int_equal(pi.inner_dst, APP);
	assert_int_equal(pi.inner_dport, 53);
}

static void test_parse_rejects_bad_gtpu(void **st)
{
	(void)st;
	uint8_t b[256];
	struct pkt_info pi;
	uint32_t n = ul_frame(b, 1, UE, 0);
	b[42] = 0x50;  /* version 2 */
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_BAD_GTPU);
	n = ul_frame(b, 1, UE, 0);
	w16(b + 44, r16(b + 44) + 1);  /* GTP-U length disagrees with UDP length */
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_BAD_GTPU);
	n = ul_frame(b, 1, UE, 1);
	b[53] = 0x40;  /* PSC followed by an extension this pipeline does not walk */
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_BAD_GTPU);
	n = ul_frame(b, 1, UE, 0);
	assert_int_equal(pkt_parse(b, n - 1, &pi), PARSE_BAD_IPV4);  /* IPv4 total length beyond frame */
	assert_int_equal(pkt_parse(b, 10, &pi), PARSE_TRUNCATED);
}

static void test_cksum_and_ttl(void **st)
{
	(void)st;
	/* Known answer: a header whose checksum is 0xb861. */
	uint8_t k[20] = { 0x45, 0, 0, 0x73, 0, 0, 0x40, 0, 0x40, 0x11, 0, 0, 0xc0, 0xa8, 0, 1, 0xc0, 0xa8, 0, 0xc7 };
	pkt_ipv4_fix_cksum(k);
	assert_int_equal(r16(k + 10), 0xb861);
	/* Odd length: the last byte is the high half of a word (0x0102 + 0x0300). */
	assert_int_equal(pkt_cksum((const uint8_t[]){ 1, 2, 3 }, 3, 0), 0xfbfd);
	uint8_t b[64];
	ip_udp(b, APP, UE, 1, 2, 0);
	assert_int_equal(pkt_cksum(b, 20, 0), 0);  /* valid header sums to 0xffff */
	assert_int_equal(pkt_ipv4_ttl_dec(b), 1);
	assert_int_equal(b[8], 63);
	assert_int_equal(pkt_cksum(b, 20, 0), 0);
	b[8] = 1;
	assert_int_equal(pkt_ipv4_ttl_dec(b), 0);
}

/* Echo Request from GNB:sport with sequence number 0x77; without S when !seq
 * (the 4 option octets stay, so E/S/PN all 0 makes them payload). */
static uint32_t echo_req(uint8_t *b, uint16_t sport, int seq)
{
	uint32_t n = eth(b);
	n += ip_udp(b + n, GNB, N3, sport, 2152, 12);
	uint8_t *g = b + 42;
	g[0] = seq ? 0x32 : 0x30; g[1] = GTPU_MSG_ECHO_REQ; w16(g + 2, 4); w32(g + 4, 0);
	w16(g + 8, 0x77); g[10] = 0; g[11] = 0;
	return n;
}

static void test_echo_reply(void **st)
{
	(void)st;
	uint8_t b[256];
	uint32_t n = echo_req(b, 40000, 1);
	uint8_t *g = b + 42;
	struct pkt_info pi;
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_OK);
	uint32_t r = pkt_gtpu_echo_reply(b, n, sizeof(b), &pi);
	assert_int_equal(r, n + 2);
	assert_int_equal(b[14 + 8], 64);
	/* The response goes to the request's source port, so it parses as plain UDP. */
	assert_int_equal(pkt_parse(b, r, &pi), PARSE_OK);
	assert_int_equal(pi.ip_src, N3);
	assert_int_equal(pi.ip_dst, GNB);
	assert_int_equal(pi.sport, 2152);
	assert_int_equal(pi.dport, 40000);
	assert_int_equal(r16(b + 38), r - 34);       /* UDP length */
	assert_int_equal(g[1], GTPU_MSG_ECHO_RESP);
	assert_int_equal(r16(g + 2), 6);              /* options + Recovery IE */
	assert_int_equal(r16(g + 8), 0x77);  /* sequence number copied */
	assert_int_equal(g[12], GTPU_IE_RECOVERY);
	assert_int_equal(pkt_cksum(b + 14, 20, 0), 0);
	assert_int_equal(r32(b + 42 + 4), 0);  /* TEID kept (0 in a request) */
	n = echo_req(b, 40000, 0);  /* no sequence number: not answerable */
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_OK);
	assert_int_equal(pkt_gtpu_echo_reply(b, n, sizeof(b), &pi), 0);
}

static void test_encap_decap_roundtrip(void **st)
{
	(void)st;
	uint8_t b[256], orig[128];
	uint32_t hl = pkt_encap_len(1);
	uint32_t n = dl_frame(b + hl, UE);
	memcpy(orig, b + hl, n);
	struct encap_params e = { N3, GNB, 2152, 0xabcd, 5, 1 };
	pkt_gtpu_encap(b, ETH_LEN, n - ETH_LEN, &e);
	struct pkt_info pi;
	assert_int_equal(pkt_parse(b, n + hl, &pi), PARSE_OK);
	assert_int_equal(pi.teid, 0xabcd);
	assert_true(pi.has_psc);
	assert_int_equal(pi.qfi, 5);
	assert_int_equal(pi.inner_dst, UE);
	assert_int_equal(b[14 + 8], 64);
	assert_int_equal(pkt_cksum(b + 14, 20, 0), 0);
	uint8_t *start;
	uint32_t l = pkt_gtpu_decap(b, n + hl, &pi, &start);
	assert_int_equal(l, n);
	assert_memory_equal(start, orig, n);
}

/* ---- tables and pipeline ---- */

static const struct dp_sizes SIZES = {
	.interfaces = 64, .ul_sessions = 1024, .dl_sessions = 1024, .applications = 64, .ul_terms = 1024,
	.dl_terms = 1024, .routes = 64, .acl = 64, .pre_qos_ctr = 1024, .post_qos_ctr = 1024,
	.session_meter = 1024, .app_meter = 1024, .meter_states = 64, .tenants = 4, .tenant_cells = 16,
	.slices = 2, .slice_cells = 16384,
};

static int setup_upf(void **st)
{
	(void)st;
	struct dp_term ult = { TERM_FWD, 1, 0, 10, 0, 0 }, dlt = { TERM_FWD, 1, 9, 11, 0xbeef, 0 };
	if (dp_pipeline_set(&SIZES) || dp_interface(DP_INSERT, N3, 32, 1, IFACE_ACCESS, 1) ||
	    dp_interface(DP_INSERT, IP(172, 16, 0, 0), 16, 0, IFACE_CORE, 1) ||
	    dp_ul_session(DP_INSERT, N3, 0x1234, SESS_FWD, UE, 0) || dp_dl_session(DP_INSERT, UE, SESS_FWD, 7, 0) ||
	    dp_ul_term(DP_INSERT, UE, 0, &ult) || dp_dl_term(DP_INSERT, UE, 0, &dlt) ||
	    dp_ig_peer(DP_INSERT, 7, GNB) || dp_eg_peer(DP_INSERT, 7, N3, GNB, 2152) ||
	    dp_route(DP_INSERT, APP, 24, MAC_A, MAC_B, 2) || dp_route(DP_INSERT, GNB, 32, MAC_A, MAC_B, 1))
		return -1;
	dp_commit();
	return 0;
}

/* The fixed-key table fills to its declared capacity with random and structured
 * keys (cuckoo moves included), finds every entry with its value, refuses one
 * more, and keeps the rest findable across deletes and re-inserts. */
static void test_ftable(void **st)
{
	(void)st;
	enum { CAP = 50000 };
	for (uint8_t vlen = 8; vlen <= 16; vlen += 8) {
		for (int pattern = 0; pattern < 2; pattern++) {
			struct ftable t;
			assert_int_equal(ft_init(&t, CAP, vlen), 0);
			uint64_t x = 88172645463325252ull;
			static uint64_t keys[CAP];
			for (uint32_t i = 0; i < CAP; i++) {
				x ^= x << 13; x ^= x >> 7; x ^= x << 17;
				keys[i] = pattern ? x : term_key(0x10000000u + i, (uint8_t)(i % 3));
				uint8_t v[16];
				memset(v, (int)(i & 0xff), sizeof(v));
				memcpy(v, &i, 4);
				assert_int_equal(ft_insert(&t, keys[i], v), 0);
			}
			uint8_t v[16] = { 0 };
			assert_int_equal(ft_insert(&t, 0xdeadbeefull, v), -ENOSPC);
			for (uint32_t i = 0; i < CAP; i++) {
				uint32_t got = ~0u;
				uint8_t out[16];
				assert_true(ft_lookup(&t, keys[i], ft_b1(&t, keys[i]), ft_b2(&t, keys[i]), out));
				memcpy(&got, out, 4);
				assert_int_equal(got, i);
				assert_int_equal(out[vlen - 1], i & 0xff);
				uint32_t b;
				unsigned sl;
				assert_int_equal(ft_find(&t, keys[i], &b, &sl), 1);
				if (i % 2) {
					ft_delete(&t, b, sl);
				} else {
					uint32_t nv = i + 1;
					memcpy(out, &nv, 4);
					ft_update(&t, b, sl, out);
				}
			}
			for (uint32_t i = 0; i < CAP; i++) {
				uint8_t out[16];
				int hit = ft_lookup(&t, keys[i], ft_b1(&t, keys[i]), ft_b2(&t, keys[i]), out);
				assert_int_equal(hit, !(i % 2));
				uint32_t got;
				memcpy(&got, out, 4);
				if (hit)
					assert_int_equal(got, i + 1);
			}
			for (uint32_t i = 1; i < CAP; i += 2)
				assert_int_equal(ft_insert(&t, keys[i], v), 0);
			assert_int_equal(t.n, CAP);
			ft_fini(&t);
		}
	}
}

/* A reader never misses a present key nor reads a torn value while the writer
 * rewrites values and fills the table to capacity (forcing cuckoo moves) and
 * empties it again, round after round. */
struct ft_reader { struct ftable *t; volatile int stop; uint64_t lookups, bad; };
enum { FT_STABLE = 8000, FT_CAP = 16000 };

static uint64_t stable_key(uint32_t i) { return ft_mix(i + 1); }

static void *ft_read_loop(void *arg)
{
	struct ft_reader *r = arg;
	while (!r->stop)
		for (uint32_t i = 0; i < FT_STABLE; i++, r->lookups++) {
			uint64_t k = stable_key(i), v[2];
			if (!ft_lookup(r->t, k, ft_b1(r->t, k), ft_b2(r->t, k), v) || v[1] != ~v[0] || (v[0] ^ k) >> 8)
				r->bad++;
		}
	return NULL;
}

static void test_ftable_concurrent(void **st)
{
	(void)st;
	struct ftable t;
	assert_int_equal(ft_init(&t, FT_CAP, 16), 0);
	for (uint32_t i = 0; i < FT_STABLE; i++) {
		uint64_t k = stable_key(i), v[2] = { k, ~k };
		assert_int_equal(ft_insert(&t, k, v), 0);
	}
	struct ft_reader r = { .t = &t };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, ft_read_loop, &r), 0);
	for (uint32_t round = 0; round < 40; round++) {
		for (uint32_t i = FT_STABLE; i < FT_CAP; i++) {
			uint64_t k = ft_mix((uint64_t)(round + 1) << 32 | i), v[2] = { 0, 0 };
			assert_int_equal(ft_insert(&t, k, v), 0);
		}
		for (uint32_t i = 0; i < FT_STABLE; i++) {  /* values change: the reader checks they are whole */
			uint64_t k = stable_key(i), v[2] = { k ^ (round & 0xff), ~(k ^ (round & 0xff)) };
			uint32_t b;
			unsigned sl;
			assert_int_equal(ft_find(&t, k, &b, &sl), 1);
			ft_update(&t, b, sl, v);
		}
		for (uint32_t i = FT_STABLE; i < FT_CAP; i++) {
			uint64_t k = ft_mix((uint64_t)(round + 1) << 32 | i);
			uint32_t b;
			unsigned sl;
			assert_int_equal(ft_find(&t, k, &b, &sl), 1);
			ft_delete(&t, b, sl);
		}
	}
	r.stop = 1;
	pthread_join(th, NULL);
	assert_true(r.lookups > 0);
	assert_true(t.moves > 0);  /* cuckoo moves happened while the reader ran */
	assert_int_equal(r.bad, 0);
	ft_fini(&t);
}

static void test_table_ops(void **st)
{
	(void)st;
	assert_int_equal(dp_dl_session(DP_INSERT, UE, SESS_FWD, 7, 0), -EEXIST);
	assert_int_equal(dp_dl_session(DP_MODIFY, UE + 1, SESS_FWD, 7, 0), -ENOENT);
	assert_int_equal(dp_dl_session(DP_DELETE, UE + 1, 0, 0, 0), -ENOENT);
	assert_int_equal(dp_dl_session(DP_INSERT, UE + 1, 9, 0, 0), -EINVAL);
	assert_int_equal(dp_interface(DP_INSERT, N3, 33, 1, IFACE_ACCESS, 0), -EINVAL);
	assert_int_equal(dp_route(DP_INSERT, APP, 24, MAC_A, MAC_B, 2), -EEXIST);
	assert_int_equal(dp_eg_peer(DP_INSERT, 7, 1, 2, 3), -EEXIST);
	assert_int_equal(dp_ig_peer(DP_DELETE, 8, 0), -ENOENT);
	struct dp_term t = { TERM_FWD, 4, 0, 0, 0, 0 };
	assert_int_equal(dp_ul_term(DP_INSERT, UE, 3, &t), -EINVAL);  /* tc is 2 bits */
	struct dp_meter_cfg mc = { 1000, 100, 500, 100 };
	assert_int_equal(dp_meter_set(METER_SESSION, 1, &mc), -EINVAL);  /* pir < cir */
	assert_int_equal(dp_meter_set(METER_SESSION, 5000, NULL), -EINVAL);
	/* Capacity: the ext table keeps every declared entry insertable. */
	for (uint32_t i = 0; i < SIZES.ul_sessions - 1; i++)
		assert_int_equal(dp_ul_session(DP_INSERT, N3, 0x10000 + i, SESS_FWD, UE, 0), 0);
	assert_int_equal(dp_ul_session(DP_INSERT, N3, 0x90000, SESS_FWD, UE, 0), -ENOSPC);
	for (uint32_t i = 0; i < SIZES.ul_sessions - 1; i++)
		assert_int_equal(dp_ul_session(DP_DELETE, N3, 0x10000 + i, 0, 0, 0), 0);
	dp_commit();
	assert_int_equal(dp_ul_session(DP_INSERT, N3, 0x90000, SESS_FWD, UE, 0), 0);
	assert_int_equal(dp_ul_session(DP_DELETE, N3, 0x90000, 0, 0, 0), 0);
	dp_commit();
}

/* Pages of [p, p + len) that are not resident (mincore). */
static size_t pages_not_resident(const void *p, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(pg - 1);
	size_t n = ((uintptr_t)p + len - start + pg - 1) / pg, missing = 0;
	unsigned char vec[4096];
	for (size_t done = 0; done < n; done += sizeof(vec)) {
		size_t k = n - done < sizeof(vec) ? n - done : sizeof(vec);
		assert_int_equal(mincore((void *)(start + done * pg), k * pg, vec), 0);
		for (size_t i = 0; i < k; i++)
			missing += !(vec[i] & 1);
	}
	return missing;
}

/* The arrays that grow with the capacities are resident from the start (no page
 * fault on the fast path, and RSS shows what traffic on every entry needs):
 * counter cells and meter indexes no packet reached, buckets of an empty table. */
static void test_arrays_resident_before_traffic(void **st)
{
	(void)st;
	const struct pipeline *p = dp_pipe();
	size_t cells = (p->sz.pre_qos_ctr > p->sz.post_qos_ctr ? p->sz.pre_qos_ctr : p->sz.post_qos_ctr) + 1;
	assert_int_equal(pages_not_resident(p->ctr[0], sizeof(struct ctr) * cells), 0);
	assert_int_equal(pages_not_resident(p->meter_map[0], 4ull * (p->sz.session_meter + 1)), 0);
	assert_int_equal(pages_not_resident(p->dl_term.b, (size_t)p->dl_term.nb * FT_BUCKET), 0);
	assert_int_equal(pages_not_resident(p->meters.mem, (size_t)p->meters.elem * p->meters.n), 0);
}

/* The agent reads the exact tables back: every entry once, as written. */
static void test_exact_readback(void **st)
{
	(void)st;
	struct dp_exact_entry e, out[64];
	int64_t base = dp_exact_count(EXACT_DL_SESS);
	assert_true(base >= 0);
	enum { N = 100 };
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(dp_dl_session(DP_INSERT, 0x0b000000 + i, i % 2 ? SESS_BUF : SESS_FWD, (uint8_t)i, 1000 + i), 0);
	assert_int_equal(dp_exact_count(EXACT_DL_SESS), base + N);
	uint8_t seen[N] = { 0 };
	uint32_t cursor = 0, total = 0;
	while (cursor != UINT32_MAX) {
		int n = dp_exact_dump(EXACT_DL_SESS, &cursor, out, 64);
		assert_true(n >= 0);
		total += (uint32_t)n;
		for (int j = 0; j < n; j++) {
			uint32_t i = (uint32_t)out[j].key - 0x0b000000;
			if (out[j].key < 0x0b000000 || i >= N)
				continue;
			seen[i]++;
			assert_int_equal(out[j].action, i % 2 ? SESS_BUF : SESS_FWD);
			assert_int_equal(out[j].peer, i);
			assert_int_equal(out[j].meter_idx, 1000 + i);
		}
	}
	assert_int_equal(total, base + N);
	for (uint32_t i = 0; i < N; i++) {
		assert_int_equal(seen[i], 1);
		assert_int_equal(dp_dl_session(DP_DELETE, 0x0b000000 + i, 0, 0, 0), 0);
	}
	assert_int_equal(dp_exact_get(EXACT_DL_SESS, 0x0b000000, &e), 0);
	assert_int_equal(dp_exact_dump(EXACT_DL_SESS, &cursor, out, 2), -EINVAL);  /* less than a bucket */
	assert_int_equal(dp_exact_get(7, UE, &e), -EINVAL);
	/* Uplink: the meter index is held in 31 bits. */
	assert_int_equal(dp_ul_session(DP_INSERT, N3, 0x7777, SESS_FWD, UE + 9, 0xfffffff0u), 0);
	assert_int_equal(dp_exact_get(EXACT_UL_SESS, (uint64_t)N3 << 32 | 0x7777, &e), 1);
	assert_int_equal(e.action, SESS_FWD);
	assert_int_equal(e.ue, UE + 9);
	assert_int_equal(e.meter_idx, 0x7fffffffu);
	assert_int_equal(dp_ul_session(DP_DELETE, N3, 0x7777, 0, 0, 0), 0);
	struct dp_term t = { TERM_FWD, 2, 9, 77, 0x1234, 5 };
	assert_int_equal(dp_dl_term(DP_INSERT, UE + 9, 3, &t), 0);
	assert_int_equal(dp_exact_get(EXACT_DL_TERM, (uint64_t)(UE + 9) << 8 | 3, &e), 1);
	assert_true(e.term.action == TERM_FWD && e.term.tc == 2 && e.term.qfi == 9 && e.term.ctr_idx == 77 &&
		    e.term.teid == 0x1234 && e.term.app_meter_idx == 5);
	assert_int_equal(dp_exact_get(EXACT_UL_TERM, (uint64_t)(UE + 9) << 8 | 3, &e), 0);
	assert_int_equal(dp_dl_term(DP_DELETE, UE + 9, 3, NULL), 0);
	dp_commit();
}

/* m, run through the pipeline, leaves port 2 as UE1's decapsulated packet (TTL 63, DSCP dscp,
 * IPv4 checksum right, routed MACs). */
static void expect_decapped(struct rte_mbuf *m, uint8_t dscp)
{
	struct dp_verdict v = run(m);
	assert_true(v.fwd);
	assert_int_equal(v.out_port, 2);
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
	struct pkt_info pi;
	assert_int_equal(rte_pktmbuf_pkt_len(m), ETH_LEN + 92);
	assert_int_equal(pkt_parse(f, rte_pktmbuf_pkt_len(m), &pi), PARSE_OK);
	assert_int_equal(pi.gtpu, 0);
	assert_int_equal(pi.vxlan, 0);
	assert_int_equal(pi.ip_src, UE);
	assert_int_equal(f[ETH_LEN + 1], dscp << 2);
	assert_int_equal(f[ETH_LEN + 8], 63);
	assert_int_equal(pkt_cksum(f + ETH_LEN, 20, 0), 0);
	assert_memory_equal(f, MAC_B, 6);
}

static void test_uplink(void **st)
{
	(void)st;
	uint8_t b[256];
	uint32_t n = ul_frame(b, 0x1234, UE, 1);
	struct rte_mbuf *m = mbuf_of(b, n, 1);
	expect_decapped(m, 0);
	uint64_t pk, by;
	assert_int_equal(dp_counter_read(CTR_PRE_QOS, 10, &pk, &by), 0);
	assert_int_equal(pk, 1);
	assert_int_equal(by, n);
	assert_int_equal(dp_counter_read(CTR_POST_QOS, 10, &pk, &by), 0);
	assert_int_equal(pk, 1);
	rte_pktmbuf_free(m);
}

/* The changed-cells marks: a block counted in or written is marked once, until harvested; a harvest of no
 * words leaves the marks. */
static void test_counter_marks(void **st)
{
	(void)st;
	uint64_t bits = 0;
	assert_int_equal(dp_counter_harvest(&bits, 1), 0);
	bits = 0;
	assert_int_equal(dp_counter_harvest(&bits, 1), 0);
	assert_true(bits == 0);
	uint8_t b[256];
	uint32_t n = ul_frame(b, 0x1234, UE, 1);
	struct rte_mbuf *m = mbuf_of(b, n, 1);
	expect_decapped(m, 0);  /* counts cell 10 (block 0) */
	rte_pktmbuf_free(m);
	assert_int_equal(dp_counter_write(CTR_POST_QOS, 1000, 0, 0), 0);  /* block 62 */
	assert_int_equal(dp_counter_harvest(&bits, 0), 0);
	assert_true(bits == 0);
	assert_int_equal(dp_counter_harvest(&bits, 1), 0);
	assert_true(bits == (1ull | 1ull << (1000 / DP_CTR_BLOCK)));
	bits = 0;
	assert_int_equal(dp_counter_harvest(&bits, 1), 0);
	assert_true(bits == 0);
	bits = 1ull << 5;  /* ORed into, never cleared */
	assert_int_equal(dp_counter_write(CTR_PRE_QOS, 3, 0, 0), 0);
	assert_int_equal(dp_counter_harvest(&bits, 1), 0);
	assert_true(bits == (1ull << 5 | 1ull));
}

static void test_downlink_encap(void **st)
{
	(void)st;
	uint8_t b[256];
	uint32_t n = dl_frame(b, UE);
	for (int psc = 0; psc < 2; psc++) {
		assert_int_equal(dp_set_encap_psc(psc), 0);
		struct rte_mbuf *m = mbuf_of(b, n, 2);
		struct dp_verdict v = run(m);
		assert_true(v.fwd);
		assert_int_equal(v.out_port, 1);
		uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
		struct pkt_info pi;
		assert_int_equal(rte_pktmbuf_pkt_len(m), n + pkt_encap_len(psc));
		assert_int_equal(pkt_parse(f, rte_pktmbuf_pkt_len(m), &pi), PARSE_OK);
		assert_int_equal(pi.ip_src, N3);
		assert_int_equal(pi.ip_dst, GNB);
		assert_int_equal(pi.teid, 0xbeef);
		assert_int_equal(pi.has_psc, psc);
		assert_int_equal(pi.qfi, psc ? 9 : 0);
		assert_int_equal(pi.inner_dst, UE);
		assert_int_equal(f[pi.inner + 8], 63);
		assert_int_equal(pkt_cksum(f + pi.inner, 20, 0), 0);
		assert_int_equal(pkt_cksum(f + 14, 20, 0), 0);
		rte_pktmbuf_free(m);
	}
	assert_int_equal(dp_set_encap_psc(0), 0);
}

static void expect_drop(const uint8_t *b, uint32_t n, uint16_t port, uint32_t reason)
{
	uint64_t before = drops(reason);
	struct dp_verdict v = run_bytes(b, n, port);
	assert_false(v.fwd);
	assert_int_equal(v.drop_reason, reason);
	assert_int_equal(drops(reason), before + 1);
}

static void test_drop_reasons(void **st)
{
	(void)st;
	uint8_t b[256];
	uint32_t n = ul_frame(b, 0x9999, UE, 0);
	expect_drop(b, n, 1, DROP_UPLINK_SESSION_MISS);
	n = dl_frame(b, UE + 1);
	expect_drop(b, n, 2, DROP_DOWNLINK_SESSION_MISS);
	assert_int_equal(dp_dl_session(DP_INSERT, UE + 1, SESS_FWD, 7, 0), 0);
	expect_drop(b, n, 2, DROP_TERMINATION_MISS);
	assert_int_equal(dp_dl_session(DP_MODIFY, UE + 1, SESS_DROP, 0, 0), 0);
	expect_drop(b, n, 2, DROP_RULE);
	n = ul_frame(b, 0x1234, UE, 0);
	b[42] = 0x10;  /* GTP version 0 */
	expect_drop(b, n, 1, DROP_MALFORMED_GTPU);
	n = ul_frame(b, 0x1234, UE + 9, 0);  /* inner source is not the session's UE */
	expect_drop(b, n, 1, DROP_ANTI_SPOOFING);
	n = ul_frame(b, 0x1234, UE, 0);
	b[43] = 26;  /* Error Indication: not handled in the data plane */
	expect_drop(b, n, 1, DROP_GTPU_UNSUPPORTED);
	struct dp_term t = { TERM_FWD, 0, 0, 12, 0x55, 0 };
	assert_int_equal(dp_dl_session(DP_INSERT, UE + 2, SESS_FWD, 8, 0), 0);  /* peer 8 has no entry */
	assert_int_equal(dp_dl_term(DP_INSERT, UE + 2, 0, &t), 0);
	n = dl_frame(b, UE + 2);
	expect_drop(b, n, 2, DROP_ROUTING_MISS);
	/* Pre- and post-QoS cells of one index are counted and written apart. */
	uint64_t pk, by;
	assert_int_equal(dp_counter_read(CTR_PRE_QOS, 12, &pk, &by), 0);
	assert_true(pk == 1 && by == n);
	assert_int_equal(dp_counter_read(CTR_POST_QOS, 12, &pk, &by), 0);
	assert_true(pk == 0 && by == 0);
	assert_int_equal(dp_counter_write(CTR_POST_QOS, 12, 5, 50), 0);
	assert_int_equal(dp_counter_read(CTR_PRE_QOS, 12, &pk, &by), 0);
	assert_true(pk == 1 && by == n);
	assert_int_equal(dp_counter_read(CTR_POST_QOS, 12, &pk, &by), 0);
	assert_true(pk == 5 && by == 50);
	assert_int_equal(dp_counter_read(CTR_PRE_QOS, SIZES.pre_qos_ctr, &pk, &by), -EINVAL);
	assert_int_equal(dp_counter_read(CTR_SLICE + 1, 12, &pk, &by), -EINVAL);
	/* The range read (the agent's scan for changed cells) gives what cell reads give. */
	uint64_t rp[8], rb[8];
	for (int w = CTR_PRE_QOS; w <= CTR_POST_QOS; w++) {
		assert_int_equal(dp_counter_read_range(w, 8, 8, rp, rb), 0);
		for (uint32_t i = 0; i < 8; i++) {
			assert_int_equal(dp_counter_read(w, 8 + i, &pk, &by), 0);
			assert_true(rp[i] == pk && rb[i] == by);
		}
	}
	assert_true(rp[4] == 5 && rb[4] == 50);
	assert_int_equal(dp_counter_read_range(CTR_PRE_QOS, SIZES.pre_qos_ctr - 1, 2, rp, rb), -EINVAL);
	assert_int_equal(dp_counter_read_range(CTR_SLICE + 1, 12, 1, rp, rb), -EINVAL);
	/* Both counters of scattered cells in one call (a deletion burst's final counts) give what cell reads give. */
	uint32_t cells[3] = { 12, 8, 12 };
	uint64_t both[12];
	assert_int_equal(dp_counter_read_cells(cells, 3, both), 0);
	for (uint32_t i = 0; i < 3; i++)
		for (int w = CTR_PRE_QOS; w <= CTR_POST_QOS; w++) {
			assert_int_equal(dp_counter_read(w, cells[i], &pk, &by), 0);
			assert_true(both[4 * i + 2 * w] == pk && both[4 * i + 2 * w + 1] == by);
		}
	assert_true(both[2] == 5 && both[3] == 50);  /* cell 12's post-QoS counts, as the range read gave */
	cells[1] = SIZES.pre_qos_ctr;
	assert_int_equal(dp_counter_read_cells(cells, 3, both), -EINVAL);
	n = eth(b) + ip_udp(b + 14, APP, IP(99, 0, 0, 1), 1, 2, 10);
	expect_drop(b, n, 2, DROP_ROUTING_MISS);
	n = ul_frame(b, 0x1234, UE, 0);
	b[42 + GTPU_LEN + 8] = 1;  /* inner TTL 1: expires at this hop */
	expect_drop(b, n, 1, DROP_TTL_EXPIRED);
}

static void test_meter_red(void **st)
{
	(void)st;
	uint8_t b[256];
	/* The test clock: no time passes between packets unless the test moves it. */
	dp_clock_set(1000000000ull);
	/* 1 kB/s with 200-byte bursts: the second 106-byte packet in a row is red. */
	struct dp_meter_cfg mc = { 1000, 200, 1000, 200 };
	assert_int_equal(dp_dl_session(DP_MODIFY, UE, SESS_FWD, 7, 3), 0);
	assert_int_equal(dp_meter_set(METER_SESSION, 3, &mc), 0);
	dp_commit();
	uint32_t n = dl_frame(b, UE);
	assert_int_equal(n, 106);
	assert_true(run_bytes(b, n, 2).fwd);
	expect_drop(b, n, 2, DROP_METER_RED);
	/* 10 ms later (a byte per ms) the buckets hold 94 + 10 bytes: still red; 3 ms
	 * more make 107: green once, then red again. */
	dp_clock_set(1010000000ull);
	expect_drop(b, n, 2, DROP_METER_RED);
	dp_clock_set(1013000000ull);
	assert_true(run_bytes(b, n, 2).fwd);
	expect_drop(b, n, 2, DROP_METER_RED);
	/* The uplink session's meter index travels in its packed hash value. */
	uint32_t un = ul_frame(b, 0x1234, UE, 0);
	assert_int_equal(dp_ul_session(DP_MODIFY, N3, 0x1234, SESS_FWD, UE, 3), 0);
	expect_drop(b, un, 1, DROP_METER_RED);
	assert_int_equal(dp_ul_session(DP_MODIFY, N3, 0x1234, SESS_FWD, UE, 0xfffffff3), 0);  /* beyond any size */
	assert_true(run_bytes(b, un, 1).fwd);
	assert_int_equal(dp_ul_session(DP_MODIFY, N3, 0x1234, SESS_FWD, UE, 0), 0);
	n = dl_frame(b, UE);
	/* Peak band only (MBR without GBR): the peak rate alone decides what is red. */
	struct dp_meter_cfg peak_only = { 0, 0, 1000, 200 };
	assert_int_equal(dp_meter_set(METER_SESSION, 3, &peak_only), 0);
	assert_true(run_bytes(b, n, 2).fwd);
	expect_drop(b, n, 2, DROP_METER_RED);
	assert_int_equal(dp_meter_set(METER_SESSION, 3, NULL), 0);
	assert_true(run_bytes(b, n, 2).fwd);
	assert_int_equal(dp_dl_session(DP_MODIFY, UE, SESS_FWD, 7, 0), 0);
	dp_commit();
}

static void test_buffer_and_acl(void **st)
{
	(void)st;
	uint8_t b[256];
	uint32_t n = dl_frame(b, UE);
	assert_int_equal(dp_dl_session(DP_MODIFY, UE, SESS_BUF, 0, 0), 0);
	struct rte_mbuf *m = mbuf_of(b, n, 2);
	struct dp_verdict v = run(m);
	assert_false(v.fwd);
	assert_int_equal(v.to_cpu, PKTIN_DOWNLINK_BUFFER);
	assert_memory_equal(rte_pktmbuf_mtod(m, uint8_t *), b, n);  /* unmodified for the controller */
	rte_pktmbuf_free(m);
	assert_int_equal(dp_dl_session(DP_MODIFY, UE, SESS_FWD, 7, 0), 0);
	/* ACL: drop UDP to port 4000, punt everything from port 2 with sport 53 otherwise. */
	struct dp_acl_rule r[2];
	memset(r, 0, sizeof(r));
	r[0].proto = 17; r[0].proto_mask = 0xff; r[0].dport = 4000; r[0].dport_mask = 0xffff; r[0].action = ACL_DROP;
	r[1].port = 2; r[1].port_mask = 0x1ff; r[1].action = ACL_PUNT;
	assert_int_equal(dp_acl_replace(r, 2), 0);
	dp_commit();
	expect_drop(b, n, 2, DROP_ACL);
	r[0].action = ACL_COPY;
	assert_int_equal(dp_acl_replace(r, 1), 0);
	v = run_bytes(b, n, 2);
	assert_true(v.fwd);
	assert_int_equal(v.to_cpu, PKTIN_ACL_COPY);
	assert_int_equal(dp_acl_replace(r + 1, 1), 0);
	v = run_bytes(b, n, 2);
	assert_false(v.fwd);
	assert_int_equal(v.to_cpu, PKTIN_ACL_PUNT);
	assert_int_equal(dp_acl_replace(NULL, 0), 0);
	dp_commit();
}

static void test_applications(void **st)
{
	(void)st;
	uint8_t b[256];
	struct dp_app_rule a = { 1, APP & 0xffffff00, 0xffffff00, 50, 60, 17, 0xff, 42 };
	struct dp_term t = { TERM_DROP, 0, 0, 20, 0, 0 };
	assert_int_equal(dp_apps_replace(&a, 1), 0);
	assert_int_equal(dp_ul_term(DP_INSERT, UE, 42, &t), 0);
	dp_commit();
	uint32_t n = ul_frame(b, 0x1234, UE, 0);  /* inner dport 53 is in 50..60: app 42 */
	expect_drop(b, n, 1, DROP_RULE);
	uint64_t pk, by;
	assert_int_equal(dp_counter_read(CTR_PRE_QOS, 20, &pk, &by), 0);
	assert_int_equal(pk, 1);
	a.port_lo = 54;  /* no longer matches: default app 0 forwards */
	assert_int_equal(dp_apps_replace(&a, 1), 0);
	assert_true(run_bytes(b, n, 1).fwd);
	assert_int_equal(dp_apps_replace(NULL, 0), 0);
	dp_commit();
}

/* The tries keep the rules' order (the first match wins) over many rules, match
 * masked MACs across the key's 4+2-byte split, and leave out rules that can never
 * match (value bits outside the mask, empty port range). */
static void test_classifier_tries(void **st)
{
	(void)st;
	uint8_t b[256];
	uint32_t n = dl_frame(b, UE);
	enum { NR = 1000 };
	static struct dp_acl_rule r[NR];
	memset(r, 0, sizeof(r));
	for (uint32_t i = 0; i < NR - 3; i++) {
		r[i].ip_dst = IP(10, 9, i >> 8, i & 0xff); r[i].ip_dst_mask = 0xffffffff; r[i].action = ACL_DROP;
	}
	struct dp_acl_rule *never = &r[NR - 3], *mac = &r[NR - 2], *all = &r[NR - 1];
	never->proto = 17; never->proto_mask = 0x0f; never->action = ACL_DROP;  /* 17 & ~0x0f != 0 */
	memcpy(mac->eth_src, b + 6, 4); memset(mac->eth_src_mask, 0xff, 4);
	memcpy(mac->eth_dst + 2, b + 2, 4); memset(mac->eth_dst_mask + 2, 0xff, 4);
	mac->eth_type = 0x0800; mac->eth_type_mask = 0xffff; mac->action = ACL_PUNT;
	all->action = ACL_DROP;
	assert_int_equal(dp_acl_replace(r, NR), -ENOSPC);  /* SIZES.acl is 64: capacity is kept */
	memmove(r + 61, r + NR - 3, 3 * sizeof(r[0]));
	assert_int_equal(dp_acl_replace(r, 64), 0);
	struct dp_verdict v = run_bytes(b, n, 2);
	assert_false(v.fwd);
	assert_int_equal(v.to_cpu, PKTIN_ACL_PUNT);
	r[62].eth_dst[5] ^= 1;  /* the last byte, in the 4-byte half: no longer matches */
	assert_int_equal(dp_acl_replace(r, 64), 0);
	expect_drop(b, n, 2, DROP_ACL);
	assert_int_equal(dp_acl_replace(r, 61), 0);  /* only the other destinations: forwarded */
	assert_true(run_bytes(b, n, 2).fwd);
	assert_int_equal(dp_acl_replace(NULL, 0), 0);

	struct dp_app_rule a[2] = { { 1, APP, 0xffffffff, 53, 53, 17, 0xff, 44 }, { 1, 0, 0, 0, 65535, 0, 0, 45 } };
	struct dp_term t = { TERM_DROP, 0, 0, 20, 0, 0 };
	assert_int_equal(dp_ul_term(DP_INSERT, UE, 44, &t), 0);
	assert_int_equal(dp_apps_replace(a, 2), 0);
	n = ul_frame(b, 0x1234, UE, 0);  /* to APP:53 over UDP: both rules match, the first wins */
	expect_drop(b, n, 1, DROP_RULE);
	a[0].port_lo = 60; a[0].port_hi = 50;  /* empty range: app 45, which has no termination */
	assert_int_equal(dp_apps_replace(a, 2), 0);
	expect_drop(b, n, 1, DROP_TERMINATION_MISS);
	a[1].slice_id = 2;  /* another slice: no app, the default termination forwards */
	assert_int_equal(dp_apps_replace(a, 2), 0);
	assert_true(run_bytes(b, n, 1).fwd);
	assert_int_equal(dp_apps_replace(NULL, 0), 0);
	assert_int_equal(dp_ul_term(DP_DELETE, UE, 44, NULL), 0);
	dp_commit();
}

static void test_echo_through_pipeline(void **st)
{
	(void)st;
	uint8_t b[256];
	uint32_t n = echo_req(b, 2152, 1);
	struct rte_mbuf *m = mbuf_of(b, n, 2);
	struct dp_verdict v = run(m);
	assert_true(v.fwd);
	assert_int_equal(v.out_port, 1);  /* routed towards the peer, whatever the ingress port */
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
	assert_int_equal(rte_pktmbuf_pkt_len(m), n + 2);
	assert_int_equal(f[43], GTPU_MSG_ECHO_RESP);
	assert_int_equal(r32(f + 26), N3);
	assert_int_equal(f[22], 64);        /* not decremented: a local reply */
	assert_memory_equal(f, MAC_B, 6);   /* the route's MACs */
	rte_pktmbuf_free(m);
	n = echo_req(b, 2152, 0);
	expect_drop(b, n, 1, DROP_MALFORMED_GTPU);
}

/* HK-IPG's per-packet transition equals the Python model's on a trace with collisions,
 * evictions, timeslot edges, ends of episodes and saturated gaps (hw_vectors.h). */
static void test_hh_step_matches_the_model(void **st)
{
	(void)st;
	struct dp_hh_slot slots[HHV_SLOTS];
	memset(slots, 0, sizeof(slots));
	int reports = 0;
	for (size_t i = 0; i < sizeof(HHV) / sizeof(HHV[0]); i++) {
		const struct hh_vector *x = &HHV[i];
		struct dp_hh_slot *s = &slots[x->key % HHV_SLOTS];
		struct dp_hh_report r = { 0, 0, 0 };
		int rep = dp_hh_step(s, x->key, x->ts, &HHV_PARAMS, HHV_TAU, 2, &r);
		if (s->flow_id != x->after.flow_id || s->ipg_ewma != x->after.ipg_ewma || s->last_ts != x->after.last_ts ||
		    s->tau != x->after.tau || s->reported != x->after.reported || rep != x->report)
			fail_msg("packet %zu (key %08x): slot %u/%u/%lu/%u/%u report %d, model %u/%u/%lu/%u/%u report %d", i,
				 x->key, s->flow_id, s->ipg_ewma, (unsigned long)s->last_ts, s->tau, s->reported, rep,
				 x->after.flow_id, x->after.ipg_ewma, (unsigned long)x->after.last_ts, x->after.tau,
				 x->after.reported, x->report);
		if (rep) {
			assert_int_equal(r.flow_key, x->key);
			assert_int_equal(r.ipg_ewma, x->ewma);
			assert_int_equal(r.tau, x->tau);
			reports++;
		}
	}
	assert_true(reports >= 3);
}

/* The 5-tuple key is the model's (zlib) CRC-32; the selector hash is bmv2's crc16. */
static void test_hh_keys_and_selector_hash(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof(HHV_TUPLES) / sizeof(HHV_TUPLES[0]); i++) {
		const struct tuple_vector *t = &HHV_TUPLES[i];
		assert_int_equal(dp_hh_5tuple_key(t->ue, t->app, t->ue_port, t->app_port, t->proto), t->key);
	}
	/* CRC-16/ARC (its check value, of "123456789", is 0xBB3D) of the bytes of "1234". */
	assert_int_equal(dp_crc16_be32(0x31323334), 0x14BA);
}

/* MATADOR's per-packet transition equals the Python model's: slot registers after every
 * packet (both directions, windows closing, 32-bit timestamps wrapping) and the class
 * from the feature ranges and decision table (hw_vectors.h); the slot is the 5-tuple's CRC-32. */
static void test_cls_step_matches_the_model(void **st)
{
	(void)st;
	struct dp_cls_slot slots[CLSV_SLOTS];
	memset(slots, 0, sizeof(slots));
	const struct dp_cls_tables t = { { CLSV_R0, CLSV_R1, CLSV_R2, CLSV_R3, CLSV_R4, CLSV_R5 },
		{ CLSV_NR[0], CLSV_NR[1], CLSV_NR[2], CLSV_NR[3], CLSV_NR[4], CLSV_NR[5] },
		CLSV_DECISIONS, sizeof(CLSV_DECISIONS) / sizeof(CLSV_DECISIONS[0]) };
	for (size_t i = 0; i < sizeof(CLSV) / sizeof(CLSV[0]); i++) {
		const struct cls_vector *x = &CLSV[i];
		uint32_t idx = dp_hh_5tuple_key(x->ue, x->app, x->ue_port, x->app_port, x->proto) % CLSV_SLOTS;
		assert_int_equal(idx, x->idx);
		struct dp_cls_slot *s = &slots[idx];
		uint8_t cls = dp_cls_step(s, x->uplink, x->ip_len, x->ts, &CLSV_PARAMS, &t);
		const struct dp_cls_slot *w = &x->after;
		if (memcmp(s, w, offsetof(struct dp_cls_slot, cls)) || s->cls != w->cls || cls != w->cls)
			fail_msg("packet %zu (slot %u): pkts %u/%u ps %u/%u ipg %u/%u last %u/%u win %u class %u, model "
				 "pkts %u/%u ps %u/%u ipg %u/%u last %u/%u win %u class %u", i, idx, s->pkts_up, s->pkts_dn,
				 s->ps_up, s->ps_dn, s->ipg_up, s->ipg_dn, s->last_up, s->last_dn, s->win_start, s->cls,
				 w->pkts_up, w->pkts_dn, w->ps_up, w->ps_dn, w->ipg_up, w->ipg_dn, w->last_up, w->last_dn,
				 w->win_start, w->cls);
	}
}

/* ---- RPS (rps.p4): the FIFO state machine, hand-worked ---- */

/* zlib's CRC-32 (its check value, of "123456789", is 0xCBF43926). */
static void test_crc32_is_zlibs(void **st)
{
	(void)st;
	assert_int_equal(dp_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
	assert_int_equal(dp_crc32((const uint8_t *)"", 0), 0);
}

/* The digest is CRC-32 over the contract's 21 bytes of the user IPv4 packet: what hupf rewrites (TTL,
 * DSCP, checksum) leaves it alone; ICMP contributes 4 bytes of L4, other protocols none. */
static void test_rps_digest_fields(void **st)
{
	(void)st;
	uint8_t ip[64];
	uint32_t n = ip_udp(ip, UE, APP, 4000, 53, 16);
	w16(ip + 4, 0x1234);
	w16(ip + 26, 0xbeef);   /* UDP checksum */
	uint8_t want[21];
	memcpy(want, ip + 12, 8);
	memcpy(want + 8, ip + 4, 2);
	memcpy(want + 10, ip + 2, 2);
	want[12] = 17;
	memcpy(want + 13, ip + 20, 8);
	uint32_t d = dp_rps_digest(ip, n);
	assert_int_equal(d, dp_crc32(want, sizeof(want)));
	ip[8] = 3;              /* TTL */
	ip[1] = 46 << 2;        /* DSCP */
	pkt_ipv4_fix_cksum(ip);
	assert_int_equal(dp_rps_digest(ip, n), d);
	w16(ip + 4, 0x1235);
	assert_int_not_equal(dp_rps_digest(ip, n), d);
	ip[9] = 1;              /* ICMP: type, code, checksum, then 4 zero bytes */
	memset(want + 13, 0, 8);
	memcpy(want, ip + 12, 8);
	memcpy(want + 8, ip + 4, 2);
	want[12] = 1;
	memcpy(want + 13, ip + 20, 4);
	assert_int_equal(dp_rps_digest(ip, n), dp_crc32(want, sizeof(want)));
	ip[9] = 47;             /* any other protocol: 8 zero bytes */
	memset(want + 13, 0, 8);
	want[12] = 47;
	assert_int_equal(dp_rps_digest(ip, n), dp_crc32(want, sizeof(want)));
	ip[9] = 17;             /* IPv4 options: the P4 parser takes no L4 */
	ip[0] = 0x46;
	want[12] = 17;
	assert_int_equal(dp_rps_digest(ip, n), dp_crc32(want, sizeof(want)));
	ip[0] = 0x45;           /* an L4 header the frame cuts short: zeros for the missing bytes */
	want[12] = 17;
	memcpy(want + 13, ip + 20, 4);
	assert_int_equal(dp_rps_digest(ip, IP4_LEN + 4), dp_crc32(want, sizeof(want)));
}

struct rps_obs {
	uint8_t point;
	uint16_t flow;
	uint32_t digest, ts;
	uint8_t kind;           /* 0: nothing goes to the controller */
	uint32_t r_digest, r_ts;
	uint16_t r_dnum;
};

/* Runs the observations in order and checks each one's receipt; counts the receipts of each kind. */
static void rps_run(struct dp_rps_state *s, const struct dp_rps_params *prm, uint32_t disc_threshold,
		    const struct rps_obs *o, size_t n, uint64_t kinds[5])
{
	for (size_t i = 0; i < n; i++) {
		struct dp_rps_receipt r = { 0, 0, 0, 0, 0, 0 };
		int got = dp_rps_step(s, o[i].point, o[i].flow, o[i].digest, o[i].ts, disc_threshold, prm, &r);
		if (got != (o[i].kind != 0) ||
		    (got && (r.point != o[i].point || r.kind != o[i].kind || r.digest != o[i].r_digest ||
			     r.ts != o[i].r_ts || r.dnum != o[i].r_dnum)))
			fail_msg("observation %zu (flow %u digest %08x ts %u): %s kind %u digest %08x ts %u dnum %u, want "
				 "kind %u digest %08x ts %u dnum %u", i, o[i].flow, o[i].digest, o[i].ts,
				 got ? "receipt" : "none", r.kind, r.digest, r.ts, r.dnum, o[i].kind, o[i].r_digest,
				 o[i].r_ts, o[i].r_dnum);
		if (got)
			kinds[r.kind]++;
	}
}

#define RPS_THR 0x80000000u   /* direct iff digest < it: 0x1x digests are direct, 0xAx never */
#define N(k) (0xA0000000u + (k))

/* FIFO RPS on a 4-receipt buffer, quiet time 1 us, every candidate selected: direct disclosures numbered
 * per flow; a receipt leaving the buffer is disclosed (delayed) when its disclosure came more than the
 * quiet time after it, warned of (late) when its disclosure has not come, once per (flow, dnum), and only
 * counted when its disclosure's tracker slot was reused; the two points keep apart. */
static void test_rps_fifo_hand_worked(void **st)
{
	(void)st;
	struct dp_rps_state *s = dp_rps_state_new(4, 4, 4);
	assert_non_null(s);
	const struct dp_rps_params prm = { RPS_MODE_DATA_PLANE, 1, 0xFFFFFFFFu, 4 };
	const uint32_t dig[] = { N(1), N(5), N(6), N(7) }, disc[] = { 0x10, 0x10, 0x20, 0x20 };
	for (int i = 0; i < 4; i++)   /* "every candidate selected" holds for the pairs below */
		assert_true(dp_rps_select_hash(dig[i], disc[i]) < prm.select_threshold);
	const struct rps_obs o[] = {
		{ 0, 1, N(1), 100, 0, 0, 0, 0 },              /* buffered, dnum 0 */
		{ 0, 1, N(2), 102, 0, 0, 0, 0 },
		{ 0, 1, 0x10, 103, RPS_KIND_DIRECT, 0x10, 103, 0 },
		{ 0, 1, N(3), 104, 0, 0, 0, 0 },              /* dnum 1 */
		{ 0, 1, N(4), 105, 0, 0, 0, 0 },
		{ 0, 1, N(5), 106, RPS_KIND_DELAYED, N(1), 100, 0 },   /* N1 leaves: 103 - 100 > 1 */
		{ 0, 1, N(6), 107, 0, 0, 0, 0 },              /* N2 leaves: 103 - 102 is the quiet time */
		{ 0, 1, N(7), 108, RPS_KIND_LATE, N(3), 104, 1 },      /* N3 leaves before disclosure 1 */
		{ 0, 1, N(8), 109, 0, 0, 0, 0 },              /* N4 too: dnum 1 was warned of */
		{ 0, 1, 0x20, 110, RPS_KIND_DIRECT, 0x20, 110, 1 },
		{ 0, 1, N(9), 111, RPS_KIND_DELAYED, N(5), 106, 1 },
		{ 0, 1, N(10), 112, RPS_KIND_DELAYED, N(6), 107, 1 },
		{ 0, 1, N(11), 113, RPS_KIND_DELAYED, N(7), 108, 1 },
		{ 0, 1, N(12), 114, 0, 0, 0, 0 },             /* N8: 110 - 109 is the quiet time */
		{ 0, 1, N(13), 115, RPS_KIND_LATE, N(9), 111, 2 },     /* a new dnum is warned of again */
		{ 0, 2, N(20), 120, 0, 0, 0, 0 },             /* flow 2, dnum 0; N10 (dnum 2) leaves quietly */
		{ 0, 2, 0x11, 121, RPS_KIND_DIRECT, 0x11, 121, 0 },
		{ 0, 2, 0x12, 122, RPS_KIND_DIRECT, 0x12, 122, 1 },
		{ 0, 2, 0x13, 123, RPS_KIND_DIRECT, 0x13, 123, 2 },
		{ 0, 2, 0x14, 124, RPS_KIND_DIRECT, 0x14, 124, 3 },
		{ 0, 2, 0x15, 125, RPS_KIND_DIRECT, 0x15, 125, 4 },    /* takes disclosure 0's tracker slot */
		{ 0, 1, N(14), 126, 0, 0, 0, 0 },             /* N11, N12, N13 leave (dnum 2, warned) */
		{ 0, 1, N(15), 127, 0, 0, 0, 0 },
		{ 0, 1, N(16), 128, 0, 0, 0, 0 },
		{ 0, 1, N(17), 129, 0, 0, 0, 0 },             /* N20 leaves: tracker overrun, nothing */
		{ 1, 1, N(30), 130, 0, 0, 0, 0 },             /* OUT: its own buffer and numbers */
		{ 1, 1, 0x16, 131, RPS_KIND_DIRECT, 0x16, 131, 0 },
	};
	uint64_t kinds[5] = { 0 };
	rps_run(s, &prm, RPS_THR, o, sizeof(o) / sizeof(o[0]), kinds);
	const uint64_t *ev = s->events;
	assert_int_equal(ev[RPS_EV_OBSERVED] + ev[RPS_EVENTS + RPS_EV_OBSERVED], sizeof(o) / sizeof(o[0]));
	assert_int_equal(ev[RPS_EV_DIRECT] + ev[RPS_EVENTS + RPS_EV_DIRECT], kinds[RPS_KIND_DIRECT]);
	assert_int_equal(ev[RPS_EV_DELAYED], kinds[RPS_KIND_DELAYED]);
	assert_int_equal(ev[RPS_EV_LATE], kinds[RPS_KIND_LATE]);
	assert_int_equal(ev[RPS_EV_TRACK_OVERRUN], 1);
	assert_int_equal(ev[RPS_EV_LATE_REPEATED], 5);   /* N4; N10 to N13 (dnum 2) */
	assert_int_equal(ev[RPS_EVENTS + RPS_EV_DIRECT], 1);
	assert_int_equal(s->head[0], 18 % 4);   /* 18 receipts buffered at IN */
	assert_int_equal(s->head[1], 1);
	dp_rps_state_free(s);
}

/* buffer_len bounds the FIFO below its size: it wraps there; shrunk under the head, the head starts over
 * (the slots past it keep their receipts); grown again, they come back in turn. */
static void test_rps_buffer_len(void **st)
{
	(void)st;
	struct dp_rps_state *s = dp_rps_state_new(4, 1, 4);
	assert_non_null(s);
	struct dp_rps_params prm = { RPS_MODE_DATA_PLANE, 0, 0xFFFFFFFFu, 2 };
	assert_true(dp_rps_select_hash(N(1), 0x10) < prm.select_threshold);
	assert_true(dp_rps_select_hash(N(2), 0x10) < prm.select_threshold);
	const struct rps_obs two[] = {
		{ 0, 0, N(1), 1, 0, 0, 0, 0 },
		{ 0, 0, N(2), 2, 0, 0, 0, 0 },
		{ 0, 0, 0x10, 3, RPS_KIND_DIRECT, 0x10, 3, 0 },
		{ 0, 0, N(3), 4, RPS_KIND_DELAYED, N(1), 1, 0 },     /* slot 0 again: 2 slots */
	}, one[] = {
		{ 0, 0, N(4), 5, RPS_KIND_LATE, N(3), 4, 1 },        /* head 1 past 1 slot: slot 0 */
		{ 0, 0, N(5), 6, 0, 0, 0, 0 },                       /* N4, dnum 1 warned already */
	}, four[] = {
		{ 0, 0, N(6), 7, 0, 0, 0, 0 },                       /* N5 */
		{ 0, 0, N(7), 8, RPS_KIND_DELAYED, N(2), 2, 0 },     /* slot 1 kept N2 */
	};
	uint64_t kinds[5] = { 0 };
	rps_run(s, &prm, RPS_THR, two, 4, kinds);
	prm.buffer_len = 1;
	rps_run(s, &prm, RPS_THR, one, 2, kinds);
	prm.buffer_len = 4;
	rps_run(s, &prm, RPS_THR, four, 2, kinds);
	assert_int_equal(s->events[RPS_EV_LATE_REPEATED], 2);
	dp_rps_state_free(s);
}

/* Timestamps wrap at 32 bits; a candidate is selected iff its hash with its disclosure's digest is below
 * select_threshold (one receipt buffered: each new one evicts the last). */
static void test_rps_wrap_and_selection(void **st)
{
	(void)st;
	const uint32_t h = dp_rps_select_hash(N(1), 0x10);
	for (uint32_t thr = h; thr <= h + 1; thr++) {
		struct dp_rps_state *s = dp_rps_state_new(1, 1, 4);
		assert_non_null(s);
		const struct dp_rps_params prm = { RPS_MODE_DATA_PLANE, 4, thr, 1 };
		const uint8_t selected = thr > h ? RPS_KIND_DELAYED : 0;
		const struct rps_obs o[] = {
			{ 0, 0, N(1), 0xFFFFFFFEu, 0, 0, 0, 0 },
			{ 0, 0, 0x10, 3, RPS_KIND_DIRECT, 0x10, 3, 0 },         /* 5 us later, across the wrap */
			{ 0, 0, N(2), 4, selected, N(1), 0xFFFFFFFEu, 0 },
		};
		uint64_t kinds[5] = { 0 };
		rps_run(s, &prm, RPS_THR, o, 3, kinds);
		dp_rps_state_free(s);
	}
}

/* The tracker's depth is a size: a power of two below 2^16 (dnum's range), else no state; a receipt whose
 * flow had depth + 1 disclosures while it waited is an overrun, one with depth of them still judged. */
static void test_rps_track_depth(void **st)
{
	(void)st;
	const uint32_t bad[] = { 0, 3, 48, 1u << 16 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_null(dp_rps_state_new(4, 4, bad[i]));
	const struct dp_rps_params prm = { RPS_MODE_DATA_PLANE, 0, 0xFFFFFFFFu, 1 };
	assert_true(dp_rps_select_hash(N(1), 0x10) < prm.select_threshold);
	for (uint32_t depth = 1; depth < 1u << 16; depth <<= 1) {
		for (uint32_t disclosures = depth; disclosures <= depth + 1; disclosures++) {
			struct dp_rps_state *s = dp_rps_state_new(1, 1, depth);
			assert_non_null(s);
			struct dp_rps_receipt r;
			assert_int_equal(dp_rps_step(s, 0, 0, N(1), 1, RPS_THR, &prm, &r), 0);
			for (uint32_t d = 0; d < disclosures; d++)   /* N1's own (dnum 0) is 0x10 */
				assert_int_equal(dp_rps_step(s, 0, 0, 0x10 + d, 2 + d, RPS_THR, &prm, &r), 1);
			int got = dp_rps_step(s, 0, 0, N(2), 2 + disclosures, RPS_THR, &prm, &r);
			if (disclosures == depth) {
				assert_int_equal(got, 1);
				assert_int_equal(r.kind, RPS_KIND_DELAYED);
				assert_int_equal(r.digest, N(1));
			} else {
				assert_int_equal(got, 0);
				assert_int_equal(s->events[RPS_EV_TRACK_OVERRUN], 1);
			}
			dp_rps_state_free(s);
		}
	}
}

/* Mode 2 (hybrid): every observation is a receipt (kind 3) for the controller; the buffer stays untouched. */
static void test_rps_hybrid_exports_every_receipt(void **st)
{
	(void)st;
	struct dp_rps_state *s = dp_rps_state_new(4, 4, 4);
	assert_non_null(s);
	const struct dp_rps_params prm = { RPS_MODE_HYBRID, 0, 0, 4 };
	const struct rps_obs o[] = {
		{ 0, 3, N(1), 7, RPS_KIND_RECEIPT, N(1), 7, 0 },
		{ 0, 3, 0x10, 8, RPS_KIND_RECEIPT, 0x10, 8, 0 },
		{ 1, 2, N(2), 9, RPS_KIND_RECEIPT, N(2), 9, 0 },
	};
	uint64_t kinds[5] = { 0 };
	rps_run(s, &prm, RPS_THR, o, 3, kinds);
	assert_int_equal(s->events[RPS_EV_EXPORTED], 2);
	assert_int_equal(s->events[RPS_EVENTS + RPS_EV_EXPORTED], 1);
	assert_int_equal(s->events[RPS_EV_DIRECT], 0);
	assert_int_equal(s->head[0], 0);
	assert_int_equal(s->buf[0].valid, 0);
	dp_rps_state_free(s);
	uint8_t w[DP_RPS_RECEIPT_LEN];
	const struct dp_rps_receipt r = { 1, RPS_KIND_LATE, 0x0102, 0x03040506, 0x0708090a, 0x0b0c };
	dp_rps_receipt_encode(w, &r);
	const uint8_t want[DP_RPS_RECEIPT_LEN] = { 1, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0 };
	assert_memory_equal(w, want, sizeof(want));
}

/* dp_rps_step gives the Python model's receipts and events (rps.FifoPoint) on a trace at both points that
 * switches configurations (quiet times, selections, a shrunk buffer, mode 2) across a 32-bit clock wrap;
 * the digest is the model's (zlib) on UDP, TCP, ICMP, another protocol and IPv4 options (hw_vectors.h). */
static void test_rps_step_matches_the_model(void **st)
{
	(void)st;
	struct dp_rps_state *s = dp_rps_state_new(RPSV_SIZE, RPSV_FLOWS, RPSV_TRACK_DEPTH);
	assert_non_null(s);
	for (size_t i = 0; i < sizeof(RPSV) / sizeof(RPSV[0]); i++) {
		const struct rps_vector *x = &RPSV[i];
		struct dp_rps_receipt r = { 0, 0, 0, 0, 0, 0 };
		int got = dp_rps_step(s, x->point, x->flow, x->digest, x->ts, x->disc_threshold, &RPSV_CONFIGS[x->config], &r);
		if (got != (x->kind != 0) || (got && (r.point != x->point || r.kind != x->kind || r.flow_id != x->r_flow ||
						      r.digest != x->r_digest || r.ts != x->r_ts || r.dnum != x->r_dnum)))
			fail_msg("observation %zu: %s kind %u flow %u digest %08x ts %u dnum %u, model kind %u flow %u digest "
				 "%08x ts %u dnum %u", i, got ? "receipt" : "none", r.kind, r.flow_id, r.digest, r.ts, r.dnum,
				 x->kind, x->r_flow, x->r_digest, x->r_ts, x->r_dnum);
	}
	assert_memory_equal(s->events, RPSV_EVENTS, sizeof(RPSV_EVENTS));
	dp_rps_state_free(s);
	for (size_t i = 0; i < sizeof(RPSV_DIGESTS) / sizeof(RPSV_DIGESTS[0]); i++)
		assert_int_equal(dp_rps_digest(RPSV_DIGESTS[i].ip, RPSV_DIGESTS[i].len), RPSV_DIGESTS[i].digest);
}

/* ---- hw profile: steering, HK-IPG reports, traffic from a backend ---- */

#define BACKEND_PORT 3
static const struct dp_backend BACKENDS[2] = { { 5, { 0, 0, 0, 0, 0xbb, 1 } }, { 6, { 0, 0, 0, 0, 0xbb, 2 } } };

static int setup_hw(void **st)
{
	(void)st;
	struct dp_sizes sz = SIZES;
	sz.hw = 1;
	sz.hh_slots = 64;
	sz.cls_slots = 64;
	sz.rps_buffer = 8;
	sz.rps_flows = 4;
	sz.rps_flow_entries = 4;
	sz.rps_track_depth = 4;
	/* Two new timeslots (1024 us) with an EWMA IPG in the range make tau 2: a report. */
	const struct dp_hh_params hh = { 2, 100, 100, 1, 1024, 0, HH_KEY_UE_ADDR };
	const struct dp_range tau = { 0, 5000, 1 };
	g_dp.cpu_pool = g_pool;
	/* The new pipeline is built before the group before's is freed: EAL holds both (-m 512). */
	if (dp_pipeline_set(&sz) || dp_interface(DP_INSERT, IP(172, 16, 0, 0), 16, 0, IFACE_CORE, 1) ||
	    dp_backends_set(1, BACKENDS, 2) || dp_backend_port(DP_INSERT, BACKEND_PORT) || dp_hh_config(&hh) ||
	    dp_tau_replace(&tau, 1) || dp_route(DP_INSERT, IP(172, 16, 0, 0), 16, MAC_A, MAC_B, 4))
		return -1;
	dp_commit();
	return 0;
}

/* A downlink session miss goes to members[crc16(UE) % 2] unchanged but for the destination
 * MAC; its third packet, two timeslots on, reports the UE: report header + the frame's first
 * 64 bytes as received, flagged as backend traffic. */
static void test_hw_steering_and_hh_report(void **st)
{
	(void)st;
	const uint32_t ue = IP(172, 16, 3, 3);
	const struct dp_backend *b = &BACKENDS[dp_crc16_be32(ue) % 2];
	uint8_t f[256];
	uint32_t n = dl_frame(f, ue);
	uint64_t t_us[3] = { 1000000, 1001100, 1002200 };
	for (int i = 0; i < 3; i++) {
		dp_clock_set(t_us[i] * 1000);
		struct rte_mbuf *m = mbuf_of(f, n, 1);
		struct dp_verdict v = run(m);
		assert_int_equal(v.fwd, 1);
		assert_int_equal(v.out_port, b->port);
		const uint8_t *out = rte_pktmbuf_mtod(m, const uint8_t *);
		assert_memory_equal(out, b->dst_mac, 6);
		assert_memory_equal(out + 6, f + 6, n - 6);
		struct rte_mbuf *rep = v.cpu_copy;
		if (i < 2) {
			assert_null(rep);
		} else {
			assert_non_null(rep);
			assert_int_equal(v.copy_reason, PKTIN_HH_REPORT);
			const uint8_t *r = rte_pktmbuf_mtod(rep, const uint8_t *);
			assert_int_equal(rte_pktmbuf_pkt_len(rep), HH_REPORT_HDR_LEN + HH_REPORT_PKT_BYTES);
			assert_int_equal(r32(r), ue);
			assert_int_equal(r32(r + 4), 1100);   /* alpha_shift 0: the last gap */
			assert_int_equal(r16(r + 8), 2);
			assert_int_equal(r[10], HH_FLAG_BACKEND);
			assert_int_equal(r[11], 0);
			assert_memory_equal(r + HH_REPORT_HDR_LEN, f, HH_REPORT_PKT_BYTES);
			rte_pktmbuf_free(rep);
		}
		rte_pktmbuf_free(m);
	}
	struct dp_hh_slot slot;
	assert_int_equal(dp_hh_slot_read(ue % 64, &slot), 0);
	assert_int_equal(slot.flow_id, ue);
	assert_int_equal(slot.reported, 1);
	assert_int_equal(dp_hh_slot_read(64, &slot), -EINVAL);
}

/* Without backends for its slice a session miss is dropped and counted (11); traffic from a
 * backend port is only routed (TTL decremented), never taken for a session miss. */
static void test_hw_no_backend_and_from_backend(void **st)
{
	(void)st;
	uint8_t f[256];
	uint32_t n = dl_frame(f, IP(172, 16, 4, 4));
	struct dp_verdict v = run_bytes(f, n, BACKEND_PORT);
	assert_int_equal(v.fwd, 1);
	assert_int_equal(v.out_port, 4);
	assert_int_equal(dp_backends_set(1, NULL, 0), 0);
	dp_commit();
	uint64_t before = drops(DROP_NO_BACKEND);
	v = run_bytes(f, n, 1);
	assert_int_equal(v.fwd, 0);
	assert_int_equal(v.drop_reason, DROP_NO_BACKEND);
	assert_int_equal(drops(DROP_NO_BACKEND), before + 1);
	assert_int_equal(dp_backends_set(1, BACKENDS, 2), 0);
	dp_commit();
}

/* The frame's IPv4 header at off gets DSCP dscp (checksum fixed). */
static void set_dscp(uint8_t *f, uint32_t off, uint8_t dscp)
{
	f[off + 1] = (uint8_t)(dscp << 2);
	pkt_ipv4_fix_cksum(f + off);
}

/* A steered tenant's packet keeps its class through the backend: the switch sends it in the tenant's
 * queue with the user packet marked (an uplink G-PDU's inner IPv4 too), and what comes back from a backend
 * takes the class backend_classes gives its user packet's DSCP, its leaving header marked with it (the
 * backend's GTP-U header, built with DSCP 0); a DSCP without an entry stays in class 0, unmarked. */
static void test_hw_tenant_class_survives_steering(void **st)
{
	(void)st;
	struct dp_tenant t = { 5001, VTEP, 1, 3, 46 };
	assert_int_equal(dp_tenant(DP_INSERT, &t), 0);
	assert_int_equal(dp_interface(DP_INSERT, N3, 32, 1, IFACE_ACCESS, 1), 0);
	assert_int_equal(dp_route(DP_INSERT, N3, 32, MAC_A, MAC_B, 4), 0);
	assert_int_equal(dp_queue(DP_INSERT, 3, 6), 0);
	assert_int_equal(dp_backend_class(DP_MODIFY, 46, 3), -ENOENT);
	assert_int_equal(dp_backend_class(DP_INSERT, 46, 3), 0);
	assert_int_equal(dp_backend_class(DP_INSERT, 46, 3), -EEXIST);
	assert_int_equal(dp_backend_class(DP_INSERT, 64, 3), -EINVAL);
	assert_int_equal(dp_backend_class(DP_INSERT, 10, 4), -EINVAL);
	dp_commit();
	uint8_t t0[256], b[512];
	/* Steered: uplink G-PDU of an unknown TEID, downlink of a UE without a session, both in VXLAN. */
	const uint32_t gl = ETH_LEN + IP4_LEN + UDP_LEN + GTPU_LEN;
	uint32_t tn = ul_frame(t0, 0xdead, IP(172, 16, 3, 3), 0), n = vxlan_frame(b, t0, tn, 5001, VTEP, VXLAN_FLAG_I);
	struct rte_mbuf *m = mbuf_of(b, n, 1);
	struct dp_verdict v = run(m);
	assert_true(v.fwd);
	assert_int_equal(v.prio, 6);
	const uint8_t *out = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_int_equal(out[ETH_LEN + 1], 46 << 2);
	assert_int_equal(out[gl + 1], 46 << 2);
	assert_int_equal(pkt_cksum(out + gl, IP4_LEN, 0), 0);
	rte_pktmbuf_free(m);
	tn = dl_frame(t0, IP(172, 16, 3, 3));
	n = vxlan_frame(b, t0, tn, 5001, VTEP, VXLAN_FLAG_I);
	m = mbuf_of(b, n, 2);
	v = run(m);
	assert_true(v.fwd);
	assert_int_equal(v.prio, 6);
	assert_int_equal(rte_pktmbuf_mtod(m, const uint8_t *)[ETH_LEN + 1], 46 << 2);
	rte_pktmbuf_free(m);
	/* Back from the backend: the user packet (uplink), then the G-PDU it built (downlink, outer DSCP 0). */
	uint8_t f[256];
	n = dl_frame(f, IP(172, 16, 3, 3));
	set_dscp(f, ETH_LEN, 46);
	v = run_bytes(f, n, BACKEND_PORT);
	assert_true(v.fwd);
	assert_int_equal(v.prio, 6);
	n = ul_frame(f, 0x77, IP(172, 16, 3, 3), 0);
	set_dscp(f, gl, 46);
	m = mbuf_of(f, n, BACKEND_PORT);
	v = run(m);
	assert_true(v.fwd);
	assert_int_equal(v.out_port, 4);
	assert_int_equal(v.prio, 6);
	out = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_int_equal(out[ETH_LEN + 1], 46 << 2);
	assert_int_equal(pkt_cksum(out + ETH_LEN, IP4_LEN, 0), 0);
	assert_int_equal(out[gl + 1], 46 << 2);
	rte_pktmbuf_free(m);
	/* Another DSCP, or the entry deleted: class 0, unmarked. */
	set_dscp(f, gl, 10);
	m = mbuf_of(f, n, BACKEND_PORT);
	v = run(m);
	assert_int_equal(v.prio, 0);
	assert_int_equal(rte_pktmbuf_mtod(m, const uint8_t *)[ETH_LEN + 1], 0);
	rte_pktmbuf_free(m);
	assert_int_equal(dp_backend_class(DP_DELETE, 46, 0), 0);
	assert_int_equal(dp_backend_class(DP_DELETE, 46, 0), -ENOENT);
	set_dscp(f, gl, 46);
	assert_int_equal(run_bytes(f, n, BACKEND_PORT).prio, 0);
	assert_int_equal(dp_queue(DP_DELETE, 3, 0), 0);
	assert_int_equal(dp_route(DP_DELETE, N3, 32, MAC_A, MAC_B, 4), 0);
	assert_int_equal(dp_interface(DP_DELETE, N3, 32, 1, IFACE_ACCESS, 1), 0);
	assert_int_equal(dp_tenant(DP_DELETE, &t), 0);
	dp_commit();
}

/* The backend's downlink towards a gNB in a tenant's overlay, as it sends it back to the switch: a G-PDU (TEID
 * 0x3abc, N3 -> GNB) carrying APP -> ue with DSCP dscp (the steered packet's marking), in VXLAN vni from VTEP to
 * dst (outer DSCP 0, TTL 64, UDP checksum udp_ck); the tenant frame at t, the whole frame at b. */
static uint32_t backend_vxlan(uint8_t *b, uint8_t *t, uint32_t *tn, uint32_t ue, uint8_t dscp, uint32_t vni,
			      uint32_t dst, uint16_t udp_ck)
{
	uint8_t inner[128];
	uint32_t il = ip_udp(inner, APP, ue, 53, 4000, 64);
	set_dscp(inner, 0, dscp);
	uint32_t n = eth(t);
	n += ip_udp(t + n, N3, GNB, 2152, 2152, GTPU_LEN + il) - GTPU_LEN - il;
	uint8_t *g = t + n;
	g[0] = 0x30; g[1] = 0xff; w16(g + 2, (uint16_t)il); w32(g + 4, 0x3abc);
	memcpy(g + GTPU_LEN, inner, il);
	*tn = n + GTPU_LEN + il;
	uint32_t len = vxlan_frame(b, t, *tn, vni, dst, VXLAN_FLAG_I);
	w32(b + ETH_LEN + 12, VTEP);
	pkt_ipv4_fix_cksum(b + ETH_LEN);
	w16(b + ETH_LEN + IP4_LEN + 6, udp_ck);
	return len;
}

/* A session steered to a backend whose gNB is in a tenant's overlay: the backend re-encapsulates its downlink
 * in VXLAN towards the edge VTEP, and the switch gets it on a backend port. It is no tenant's ingress (no
 * tenant lookup: a VNI unknown at that VTEP is no drop, a known one no decapsulation, no tenant count): it is
 * routed by its outer headers (TTL, MACs, port), its tenant frame left as the backend built it but for the
 * marking of its class (backend_classes by the user packet's DSCP), which both IPv4 headers get, the outer UDP
 * checksum then 0; without a class it leaves unmarked, checksum kept. Its outer TTL and route drop as any
 * routed packet's; from any other port the same frame is a tenant frame of no tenant (14). */
/* Runs the frame of n bytes at b from the backend port; it must be forwarded (in *v). */
static struct rte_mbuf *forwarded_from_backend(const uint8_t *b, uint32_t n, struct dp_verdict *v)
{
	struct rte_mbuf *m = mbuf_of(b, n, BACKEND_PORT);
	*v = run(m);
	assert_true(v->fwd);
	return m;
}

static void test_hw_backend_vxlan_routed_by_its_outer_headers(void **st)
{
	(void)st;
	static const uint8_t MAC_C[6] = { 0, 0, 0, 0, 0xc, 1 }, MAC_D[6] = { 0, 0, 0, 0, 0xd, 1 };
	struct dp_tenant t = { 5001, VTEP, 1, 3, 46 };
	assert_int_equal(dp_tenant(DP_INSERT, &t), 0);
	assert_int_equal(dp_route(DP_INSERT, EDGE, 32, MAC_C, MAC_D, 4), 0);
	assert_int_equal(dp_route(DP_INSERT, VTEP, 32, MAC_C, MAC_D, 2), 0);
	assert_int_equal(dp_queue(DP_INSERT, 3, 6), 0);
	assert_int_equal(dp_backend_class(DP_INSERT, 46, 3), 0);
	dp_commit();
	const uint32_t ue = IP(172, 16, 3, 3), vx = ETH_LEN + IP4_LEN + UDP_LEN + VXLAN_LEN;
	uint8_t t0[256], b[512];
	uint32_t tn, n = backend_vxlan(b, t0, &tn, ue, 46, 5001, EDGE, 0x1234);
	uint64_t pk0, by0, pk, by, unknown = drops(DROP_UNKNOWN_VNI);
	assert_int_equal(dp_counter_read(CTR_TENANT, 1, &pk0, &by0), 0);
	/* In the class of its user packet's DSCP: both headers marked, the outer routed. */
	struct dp_verdict v;
	struct rte_mbuf *m = forwarded_from_backend(b, n, &v);
	assert_int_equal(v.out_port, 4);
	assert_int_equal(v.prio, 6);
	assert_int_equal(rte_pktmbuf_pkt_len(m), n);
	const uint8_t *out = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_memory_equal(out, MAC_D, 6);
	assert_memory_equal(out + 6, MAC_C, 6);
	assert_int_equal(out[ETH_LEN + 8], 63);
	assert_int_equal(out[ETH_LEN + 1], 46 << 2);
	assert_int_equal(pkt_cksum(out + ETH_LEN, IP4_LEN, 0), 0);
	assert_memory_equal(out + ETH_LEN + 12, b + ETH_LEN + 12, 8);
	assert_int_equal(r16(out + ETH_LEN + IP4_LEN + 6), 0);
	assert_memory_equal(out + ETH_LEN + IP4_LEN, b + ETH_LEN + IP4_LEN, 6);
	assert_memory_equal(out + ETH_LEN + IP4_LEN + UDP_LEN, b + ETH_LEN + IP4_LEN + UDP_LEN, VXLAN_LEN);
	uint8_t want[256];
	memcpy(want, t0, tn);
	set_dscp(want, ETH_LEN, 46);
	assert_memory_equal(out + vx, want, tn);
	rte_pktmbuf_free(m);
	/* A DSCP without a class: class 0, nothing marked, the outer UDP checksum kept; still routed. */
	n = backend_vxlan(b, t0, &tn, ue, 10, 5001, EDGE, 0x1234);
	m = forwarded_from_backend(b, n, &v);
	assert_int_equal(v.prio, 0);
	out = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_int_equal(out[ETH_LEN + 1], 0);
	assert_int_equal(out[ETH_LEN + 8], 63);
	assert_memory_equal(out + ETH_LEN + IP4_LEN, b + ETH_LEN + IP4_LEN, UDP_LEN + VXLAN_LEN);
	assert_memory_equal(out + vx, t0, tn);
	rte_pktmbuf_free(m);
	/* A known (VNI, local VTEP) from a backend port is no tenant's either: not decapsulated, not counted. */
	n = backend_vxlan(b, t0, &tn, ue, 46, 5001, VTEP, 0);
	m = forwarded_from_backend(b, n, &v);
	assert_int_equal(v.out_port, 2);
	assert_int_equal(rte_pktmbuf_pkt_len(m), n);
	rte_pktmbuf_free(m);
	assert_int_equal(dp_counter_read(CTR_TENANT, 1, &pk, &by), 0);
	assert_int_equal(pk, pk0);
	assert_int_equal(drops(DROP_UNKNOWN_VNI), unknown);
	/* Routed as any packet: an outer TTL of 1 expires (13), an outer destination without a route misses (10). */
	n = backend_vxlan(b, t0, &tn, ue, 46, 5001, EDGE, 0);
	b[ETH_LEN + 8] = 1;
	pkt_ipv4_fix_cksum(b + ETH_LEN);
	expect_drop(b, n, BACKEND_PORT, DROP_TTL_EXPIRED);
	n = backend_vxlan(b, t0, &tn, ue, 46, 5001, IP(192, 168, 60, 1), 0);
	expect_drop(b, n, BACKEND_PORT, DROP_ROUTING_MISS);
	/* From a port that is no backend's, the same frame is a tenant frame whose VNI no tenant has at EDGE. */
	n = backend_vxlan(b, t0, &tn, ue, 46, 5001, EDGE, 0);
	expect_drop(b, n, 1, DROP_UNKNOWN_VNI);
	assert_int_equal(dp_backend_class(DP_DELETE, 46, 0), 0);
	assert_int_equal(dp_queue(DP_DELETE, 3, 0), 0);
	assert_int_equal(dp_route(DP_DELETE, VTEP, 32, MAC_C, MAC_D, 2), 0);
	assert_int_equal(dp_route(DP_DELETE, EDGE, 32, MAC_C, MAC_D, 4), 0);
	assert_int_equal(dp_tenant(DP_DELETE, &t), 0);
	dp_commit();
}

/* ---- hw profile: RPS's observation points ---- */

/* The contract's digest of a UDP user packet at ip, assembled here from its fields. */
static uint32_t udp_digest(const uint8_t *ip)
{
	uint8_t b[21];
	memcpy(b, ip + 12, 8);
	memcpy(b + 8, ip + 4, 2);
	memcpy(b + 10, ip + 2, 2);
	b[12] = ip[9];
	memcpy(b + 13, ip + IP4_LEN, 8);
	return dp_crc32(b, sizeof(b));
}

static void expect_receipt(const struct rte_mbuf *m, uint8_t point, uint8_t kind, uint16_t flow, uint32_t digest,
			   uint32_t ts, uint16_t dnum)
{
	assert_non_null(m);
	assert_int_equal(rte_pktmbuf_pkt_len(m), DP_RPS_RECEIPT_LEN);
	const uint8_t *r = rte_pktmbuf_mtod(m, const uint8_t *);
	assert_int_equal(r[0], point);
	assert_int_equal(r[1], kind);
	assert_int_equal(r16(r + 2), flow);
	assert_int_equal(r32(r + 4), digest);
	assert_int_equal(r32(r + 8), ts);
	assert_int_equal(r16(r + 12), dnum);
	assert_int_equal(r16(r + 14), 0);
}

/* rps.flows is longest-prefix by direction; bad writes are refused, nothing else changes. */
static void test_hw_rps_tables(void **st)
{
	(void)st;
	/* What bmv2 would not observe by: a mode above 2, mode 1 over a buffer of 0 or more than its size. */
	const struct dp_rps_params bad[] = { { 3, 0, 0, 8 }, { RPS_MODE_DATA_PLANE, 0, 0, 0 },
					     { RPS_MODE_DATA_PLANE, 0, 0, 9 } };
	for (int i = 0; i < 3; i++)
		assert_int_equal(dp_rps_config(&bad[i]), -EINVAL);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 0, 0), 16, 1, 1, 7), 0);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 9, 0), 24, 1, 2, 8), 0);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 9, 0), 24, 0, 3, 9), 0);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 9, 1), 24, 1, 2, 8), -EEXIST);   /* the same prefix */
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(10, 0, 0, 0), 8, 1, 4, 0), -EINVAL);      /* flow ids are 0..3 */
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(10, 0, 0, 0), 33, 1, 0, 0), -EINVAL);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(10, 0, 0, 0), 8, 1, 0, 0), -ENOENT);
	assert_int_equal(dp_rps_flow(DP_MODIFY, IP(172, 16, 0, 0), 16, 1, 0, 6), 0);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(10, 0, 0, 0), 8, 1, 0, 0), 0);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(11, 0, 0, 0), 8, 1, 0, 0), -ENOSPC);     /* 4 entries */
	dp_commit();
	const struct rps_flow_set *s = dp_pipe()->rps_flows;
	const struct rps_flow *f = rps_flow_lookup(s, 1, IP(172, 16, 9, 200));
	assert_true(f && f->id == 2 && f->disc_threshold == 8);
	f = rps_flow_lookup(s, 1, IP(172, 16, 10, 1));
	assert_true(f && f->id == 0 && f->disc_threshold == 6);
	f = rps_flow_lookup(s, 0, IP(172, 16, 9, 200));
	assert_true(f && f->id == 3);
	assert_null(rps_flow_lookup(s, 0, IP(172, 16, 10, 1)));
	assert_null(rps_flow_lookup(s, 1, IP(192, 168, 0, 1)));
	uint64_t n;
	assert_int_equal(dp_rps_events_read(DP_RPS_EVENT_CELLS, &n), -EINVAL);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(172, 16, 0, 0), 16, 1, 0, 0), 0);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(172, 16, 9, 0), 24, 1, 0, 0), 0);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(172, 16, 9, 0), 24, 0, 0, 0), 0);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(10, 0, 0, 0), 8, 1, 0, 0), 0);
	dp_commit();
	assert_null(dp_pipe()->rps_flows);
}

/* Off, nothing is observed. On, a downlink packet of a sampled flow is observed at IN as it arrives
 * (here a session miss, steered to a backend: not at OUT), and at OUT only as it comes back from the
 * backend (GTP-U, inner TTL decremented) and leaves: same flow and digest, the clock of each pass;
 * a packet of another flow is not observed. In mode 2 every observation is a receipt. */
static void test_hw_rps_in_and_out(void **st)
{
	(void)st;
	const uint32_t ue = IP(172, 16, 7, 7);
	assert_int_equal(dp_backend_port(DP_INSERT, 5), 0);
	assert_int_equal(dp_backend_port(DP_INSERT, 6), 0);
	assert_int_equal(dp_route(DP_INSERT, GNB, 32, MAC_A, MAC_B, 1), 0);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 7, 0), 24, 1, 3, 0xFFFFFFFFu), 0);
	dp_commit();
	uint8_t f[256], g[256];
	uint32_t n = dl_frame(f, ue);
	w16(f + ETH_LEN + 4, 0x4321);
	pkt_ipv4_fix_cksum(f + ETH_LEN);
	const uint32_t digest = udp_digest(f + ETH_LEN);
	/* What the backend sends back: the packet in GTP-U towards the gNB, its TTL decremented. */
	uint32_t gn = eth(g), il = n - ETH_LEN;
	gn += ip_udp(g + gn, N3, GNB, 2152, 2152, GTPU_LEN + il) - GTPU_LEN - il;
	g[gn] = 0x30; g[gn + 1] = 0xff; w16(g + gn + 2, (uint16_t)il); w32(g + gn + 4, 0xbeef);
	memcpy(g + gn + GTPU_LEN, f + ETH_LEN, il);
	assert_true(pkt_ipv4_ttl_dec(g + gn + GTPU_LEN));
	gn += GTPU_LEN + il;
	for (uint8_t mode = RPS_MODE_OFF; mode <= RPS_MODE_HYBRID; mode++) {
		const struct dp_rps_params prm = { mode, 0, 0xFFFFFFFFu, 8 };
		assert_int_equal(dp_rps_config(&prm), 0);
		dp_commit();
		uint64_t before[DP_RPS_EVENT_CELLS];
		for (uint32_t k = 0; k < DP_RPS_EVENT_CELLS; k++)
			assert_int_equal(dp_rps_events_read(k, &before[k]), 0);
		uint8_t kind = mode == RPS_MODE_HYBRID ? RPS_KIND_RECEIPT : RPS_KIND_DIRECT;
		/* A second apart: HK-IPG sees no heavy hitter. */
		dp_clock_set((100 + mode) * 1000000000ull);
		uint32_t ts = (100 + mode) * 1000000u;
		struct rte_mbuf *m = mbuf_of(f, n, 1);
		struct dp_verdict v = run(m);
		assert_true(v.fwd && (v.out_port == 5 || v.out_port == 6));
		assert_null(v.rps_copy);
		if (mode == RPS_MODE_OFF) {
			assert_null(v.cpu_copy);
		} else {
			assert_int_equal(v.copy_reason, PKTIN_RPS);
			expect_receipt(v.cpu_copy, RPS_POINT_IN, kind, 3, digest, ts, 0);
		}
		rte_pktmbuf_free(v.cpu_copy);
		rte_pktmbuf_free(m);
		dp_clock_set((100 + mode) * 1000000000ull + 250000);
		m = mbuf_of(g, gn, BACKEND_PORT);
		v = run(m);
		assert_true(v.fwd && v.out_port == 1);
		assert_null(v.cpu_copy);
		if (mode == RPS_MODE_OFF)
			assert_null(v.rps_copy);
		else
			expect_receipt(v.rps_copy, RPS_POINT_OUT, kind, 3, digest, ts + 250, 0);   /* each point's first */
		rte_pktmbuf_free(v.rps_copy);
		rte_pktmbuf_free(m);
		v = run_bytes(f, dl_frame(f, IP(172, 16, 8, 8)), 1);   /* another flow */
		assert_null(v.cpu_copy);
		assert_null(v.rps_copy);
		n = dl_frame(f, ue);
		w16(f + ETH_LEN + 4, 0x4321);
		pkt_ipv4_fix_cksum(f + ETH_LEN);
		uint64_t on = mode != RPS_MODE_OFF, after;
		for (uint32_t p = 0; p < RPS_POINTS; p++) {
			uint32_t base = p * RPS_EVENTS;
			assert_int_equal(dp_rps_events_read(base + RPS_EV_OBSERVED, &after), 0);
			assert_int_equal(after, before[base + RPS_EV_OBSERVED] + on);
			assert_int_equal(dp_rps_events_read(base + RPS_EV_DIRECT, &after), 0);
			assert_int_equal(after, before[base + RPS_EV_DIRECT] + (mode == RPS_MODE_DATA_PLANE));
			assert_int_equal(dp_rps_events_read(base + RPS_EV_EXPORTED, &after), 0);
			assert_int_equal(after, before[base + RPS_EV_EXPORTED] + (mode == RPS_MODE_HYBRID));
		}
	}
	assert_int_equal(dp_rps_events_write(RPS_EV_OBSERVED, 0), 0);
	uint64_t zero;
	assert_int_equal(dp_rps_events_read(RPS_EV_OBSERVED, &zero), 0);
	assert_int_equal(zero, 0);
	const struct dp_rps_params off = RPS_DEFAULT_PARAMS(8);
	assert_int_equal(dp_rps_config(&off), 0);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(172, 16, 7, 0), 24, 1, 0, 0), 0);
	assert_int_equal(dp_backend_port(DP_DELETE, 5), 0);
	assert_int_equal(dp_backend_port(DP_DELETE, 6), 0);
	assert_int_equal(dp_route(DP_DELETE, GNB, 32, MAC_A, MAC_B, 1), 0);
	dp_commit();
}

/* A packet that yields both an HH report and an IN receipt sends one packet-in: the report flagged
 * HH_FLAG_RPS, the receipt after it, then the frame's first bytes. */
static void test_hw_rps_receipt_rides_on_hh_report(void **st)
{
	(void)st;
	const uint32_t ue = IP(172, 16, 7, 9);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 7, 0), 24, 1, 2, 0xFFFFFFFFu), 0);
	const struct dp_rps_params on = { RPS_MODE_DATA_PLANE, 0, 0, 8 };
	assert_int_equal(dp_rps_config(&on), 0);
	dp_commit();
	uint8_t f[256];
	uint32_t n = dl_frame(f, ue);
	uint64_t t_us[3] = { 2000000, 2001100, 2002200 };   /* the third packet reports (setup_hw's HK-IPG) */
	for (int i = 0; i < 3; i++) {
		dp_clock_set(t_us[i] * 1000);
		struct dp_verdict v = run_bytes(f, n, 1);
		assert_non_null(v.cpu_copy);
		if (i < 2) {
			assert_int_equal(v.copy_reason, PKTIN_RPS);
		} else {
			assert_int_equal(v.copy_reason, PKTIN_HH_REPORT);
			const struct rte_mbuf *rep = v.cpu_copy;
			const uint8_t *r = rte_pktmbuf_mtod(rep, const uint8_t *);
			assert_int_equal(rte_pktmbuf_pkt_len(rep), HH_REPORT_HDR_LEN + DP_RPS_RECEIPT_LEN + HH_REPORT_PKT_BYTES);
			assert_int_equal(r32(r), ue);
			assert_int_equal(r[10], HH_FLAG_BACKEND | HH_FLAG_RPS);
			struct rte_mbuf *receipt = rte_pktmbuf_alloc(g_pool);
			memcpy(rte_pktmbuf_append(receipt, DP_RPS_RECEIPT_LEN), r + HH_REPORT_HDR_LEN, DP_RPS_RECEIPT_LEN);
			expect_receipt(receipt, RPS_POINT_IN, RPS_KIND_DIRECT, 2, udp_digest(f + ETH_LEN), (uint32_t)t_us[i], 2);
			rte_pktmbuf_free(receipt);
			assert_memory_equal(r + HH_REPORT_HDR_LEN + DP_RPS_RECEIPT_LEN, f, HH_REPORT_PKT_BYTES);
		}
		rte_pktmbuf_free(v.cpu_copy);
	}
	const struct dp_rps_params off = RPS_DEFAULT_PARAMS(8);
	assert_int_equal(dp_rps_config(&off), 0);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(172, 16, 7, 0), 24, 1, 0, 0), 0);
	dp_commit();
}

/* IN does not observe a packet buffered for the controller (buffer-and-notify); its receipt takes the
 * place of an ACL copy of the packet. */
static void test_hw_rps_buffered_and_acl_copy(void **st)
{
	(void)st;
	const uint32_t buffered = IP(172, 16, 7, 20), copied = IP(172, 16, 7, 21);
	struct dp_acl_rule copy = { 0 };
	copy.ip_dst = copied;
	copy.ip_dst_mask = 0xffffffffu;
	copy.action = ACL_COPY;
	const struct dp_rps_params on = { RPS_MODE_DATA_PLANE, 0, 0, 8 };
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 7, 0), 24, 1, 1, 0xFFFFFFFFu), 0);
	assert_int_equal(dp_rps_config(&on), 0);
	assert_int_equal(dp_dl_session(DP_INSERT, buffered, SESS_BUF, 0, 0), 0);
	assert_int_equal(dp_acl_replace(&copy, 1), 0);
	dp_commit();
	uint64_t observed, now;
	assert_int_equal(dp_rps_events_read(RPS_EV_OBSERVED, &observed), 0);
	uint8_t f[256];
	struct dp_verdict v = run_bytes(f, dl_frame(f, buffered), 1);
	assert_int_equal(v.to_cpu, PKTIN_DOWNLINK_BUFFER);
	assert_null(v.cpu_copy);
	assert_int_equal(dp_rps_events_read(RPS_EV_OBSERVED, &now), 0);
	assert_int_equal(now, observed);
	v = run_bytes(f, dl_frame(f, copied), 1);
	assert_int_equal(v.copy_reason, PKTIN_RPS);
	expect_receipt(v.cpu_copy, RPS_POINT_IN, RPS_KIND_DIRECT, 1, udp_digest(f + ETH_LEN), (uint32_t)dp_now_us(), 0);
	rte_pktmbuf_free(v.cpu_copy);
	const struct dp_rps_params off = RPS_DEFAULT_PARAMS(8);
	assert_int_equal(dp_rps_config(&off), 0);
	assert_int_equal(dp_rps_flow(DP_DELETE, IP(172, 16, 7, 0), 24, 1, 0, 0), 0);
	assert_int_equal(dp_dl_session(DP_DELETE, buffered, 0, 0, 0), 0);
	assert_int_equal(dp_acl_replace(NULL, 0), 0);
	dp_commit();
}

/* A hw pipeline without RPS's sizes has no RPS: it stays off, its tables and counters refuse. */
static void test_hw_without_rps_state(void **st)
{
	struct dp_sizes sz = SIZES;
	sz.hw = 1;
	sz.hh_slots = sz.cls_slots = 64;
	assert_int_equal(dp_pipeline_set(&sz), 0);
	const struct dp_rps_params hybrid = { RPS_MODE_HYBRID, 0, 0, 0 }, off = RPS_DEFAULT_PARAMS(0);
	assert_int_equal(dp_rps_config(&hybrid), -EINVAL);
	assert_int_equal(dp_rps_config(&off), 0);
	assert_int_equal(dp_rps_flow(DP_INSERT, IP(172, 16, 0, 0), 16, 1, 0, 0), -EINVAL);
	uint64_t n;
	assert_int_equal(dp_rps_events_read(RPS_EV_OBSERVED, &n), -EINVAL);
	assert_int_equal(setup_hw(st), 0);   /* the hw group's pipeline again */
}

/* ---- VXLAN tenants (tenant.p4) ---- */

static void test_parse_vxlan(void **st)
{
	(void)st;
	uint8_t t[256], b[512];
	uint32_t tn = ul_frame(t, 0x1234, UE, 0), n = vxlan_frame(b, t, tn, 0xabcdef, VTEP, VXLAN_FLAG_I);
	struct pkt_info pi;
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_OK);
	assert_int_equal(pi.vni, 0xabcdef);
	assert_int_equal(pi.vxlan, ETH_LEN + IP4_LEN + UDP_LEN + VXLAN_LEN);
	assert_int_equal(pi.vxlan_len, tn);
	assert_int_equal(pi.ip_dst, VTEP);
	assert_int_equal(pi.gtpu, 0);   /* the tenant frame is the caller's to parse */
	/* I flag clear; every cut short of the tenant Ethernet header; never past the frame. */
	n = vxlan_frame(b, t, tn, 5, VTEP, 0);
	assert_int_equal(pkt_parse(b, n, &pi), PARSE_BAD_VXLAN);
	for (uint32_t cut = 0; cut < VXLAN_LEN + ETH_LEN; cut++) {
		n = vxlan_frame(b, t, tn, 5, VTEP, VXLAN_FLAG_I) - tn - VXLAN_LEN + cut;
		/* the outer lengths say what is there (a consistent but short frame) */
		w16(b + ETH_LEN + 2, (uint16_t)(n - ETH_LEN));
		pkt_ipv4_fix_cksum(b + ETH_LEN);
		w16(b + ETH_LEN + IP4_LEN + 4, (uint16_t)(n - ETH_LEN - IP4_LEN));
		assert_int_equal(pkt_parse(b, n, &pi), PARSE_BAD_VXLAN);
	}
}

static void test_tenant_table_ops(void **st)
{
	(void)st;
	struct dp_tenant t = { 5001, VTEP, 1, 3, 46 };
	assert_int_equal(dp_tenant(DP_MODIFY, &t), -ENOENT);
	assert_int_equal(dp_tenant(DP_INSERT, &t), 0);
	assert_int_equal(dp_tenant(DP_INSERT, &t), -EEXIST);
	for (uint32_t i = 1; i < SIZES.tenants; i++) {   /* out of key order */
		struct dp_tenant o = { 5001 - i, VTEP + i, (uint8_t)(1 + i), 0, 0 };
		assert_int_equal(dp_tenant(DP_INSERT, &o), 0);
	}
	struct dp_tenant more = { 9, VTEP, 9, 0, 0 };
	assert_int_equal(dp_tenant(DP_INSERT, &more), -ENOSPC);
	const struct dp_tenant *got = dp_tenant_lookup(dp_pipe(), 5001, VTEP);
	assert_non_null(got);
	assert_int_equal(got->tenant_id, 1);
	assert_int_equal(got->dscp, 46);
	assert_null(dp_tenant_lookup(dp_pipe(), 5001, VTEP + 1));
	assert_null(dp_tenant_lookup(dp_pipe(), 5000, VTEP));
	for (uint32_t i = 1; i < SIZES.tenants; i++) {
		got = dp_tenant_lookup(dp_pipe(), 5001 - i, VTEP + i);
		assert_non_null(got);
		assert_int_equal(got->tenant_id, 1 + i);
	}
	t.dscp = 10;
	assert_int_equal(dp_tenant(DP_MODIFY, &t), 0);
	assert_int_equal(dp_tenant_lookup(dp_pipe(), 5001, VTEP)->dscp, 10);
	struct dp_tenant bad = { 1u << 24, VTEP, 1, 0, 0 }, bad_dscp = { 1, VTEP, 1, 0, 64 };
	assert_int_equal(dp_tenant(DP_INSERT, &bad), -EINVAL);
	assert_int_equal(dp_tenant(DP_INSERT, &bad_dscp), -EINVAL);
	for (uint32_t i = 1; i < SIZES.tenants; i++) {
		struct dp_tenant o = { 5001 - i, VTEP + i, 0, 0, 0 };
		assert_int_equal(dp_tenant(DP_DELETE, &o), 0);
		assert_int_equal(dp_tenant(DP_DELETE, &o), -ENOENT);
	}
	assert_non_null(dp_tenant_lookup(dp_pipe(), 5001, VTEP));
	t.dscp = 46;
	assert_int_equal(dp_tenant(DP_MODIFY, &t), 0);
	dp_commit();
}

/* A known tenant's uplink: the outer headers gone, the GTP-U session on the tenant frame, DSCP
 * marked (IPv4 checksum right), counted per tenant as received; unknown VNI, malformed VXLAN and a
 * malformed tenant G-PDU drop with their reasons. Runs after test_tenant_table_ops (tenant 1). */
static void test_vxlan_through_pipeline(void **st)
{
	(void)st;
	uint8_t t[256], b[512];
	uint32_t tn = ul_frame(t, 0x1234, UE, 0), n = vxlan_frame(b, t, tn, 5001, VTEP, VXLAN_FLAG_I);
	uint64_t pk0, by0, pk, by;
	assert_int_equal(dp_counter_read(CTR_TENANT, 1, &pk0, &by0), 0);
	struct rte_mbuf *m = mbuf_of(b, n, 1);
	expect_decapped(m, 46);
	rte_pktmbuf_free(m);
	assert_int_equal(dp_counter_read(CTR_TENANT, 1, &pk, &by), 0);
	assert_int_equal(pk - pk0, 1);
	assert_int_equal(by - by0, n);
	/* Downlink in VXLAN: encapsulated, the GTP-U header marked. */
	tn = dl_frame(t, UE);
	n = vxlan_frame(b, t, tn, 5001, VTEP, VXLAN_FLAG_I);
	m = mbuf_of(b, n, 2);
	struct dp_verdict v = run(m);
	assert_true(v.fwd);
	assert_int_equal(v.out_port, 1);
	uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
	struct pkt_info pi;
	assert_int_equal(pkt_parse(f, rte_pktmbuf_pkt_len(m), &pi), PARSE_OK);
	assert_int_equal(pi.teid, 0xbeef);
	assert_int_equal(f[ETH_LEN + 1], 46 << 2);
	assert_int_equal(pkt_cksum(f + ETH_LEN, 20, 0), 0);
	rte_pktmbuf_free(m);
	/* Drops. */
	tn = ul_frame(t, 0x1234, UE, 0);
	n = vxlan_frame(b, t, tn, 5002, VTEP, VXLAN_FLAG_I);
	expect_drop(b, n, 1, DROP_UNKNOWN_VNI);
	n = vxlan_frame(b, t, tn, 5001, VTEP + 7, VXLAN_FLAG_I);
	expect_drop(b, n, 1, DROP_UNKNOWN_VNI);
	n = vxlan_frame(b, t, tn, 5001, VTEP, 0);
	expect_drop(b, n, 1, DROP_MALFORMED_VXLAN);
	n = vxlan_frame(b, t, ETH_LEN + 12, 5001, VTEP, VXLAN_FLAG_I);   /* tenant IPv4 cut */
	expect_drop(b, n, 1, DROP_MALFORMED_VXLAN);
	t[ETH_LEN + IP4_LEN + UDP_LEN + 3] ^= 1;                           /* GTP-U length wrong */
	n = vxlan_frame(b, t, tn, 5001, VTEP, VXLAN_FLAG_I);
	expect_drop(b, n, 1, DROP_MALFORMED_GTPU);
	assert_int_equal(dp_counter_read(CTR_TENANT, 1, &pk, &by), 0);
	assert_int_equal(pk - pk0, 2);
	/* The tenant meter (by tenant id) drops red, after the tenant counter. */
	dp_clock_set(2000000000ull);
	struct dp_meter_cfg mc = { 1000, 200, 1000, 200 };
	assert_int_equal(dp_meter_set(METER_TENANT, 1, &mc), 0);
	assert_int_equal(dp_meter_set(METER_TENANT, 16, &mc), -EINVAL);
	tn = ul_frame(t, 0x1234, UE, 0);
	n = vxlan_frame(b, t, tn, 5001, VTEP, VXLAN_FLAG_I);
	assert_true(n <= 200);
	assert_true(run_bytes(b, n, 1).fwd);
	expect_drop(b, n, 1, DROP_METER_RED);
	assert_int_equal(dp_counter_read(CTR_TENANT, 1, &pk, &by), 0);
	assert_int_equal(pk - pk0, 4);
	assert_int_equal(dp_meter_set(METER_TENANT, 1, NULL), 0);
	assert_int_equal(dp_counter_write(CTR_TENANT, 1, 0, 0), 0);
	assert_int_equal(dp_counter_read(CTR_TENANT, 1, &pk, &by), 0);
	assert_int_equal(pk + by, 0);
	assert_int_equal(dp_counter_read(CTR_TENANT, 16, &pk, &by), -EINVAL);
	dp_commit();
}

/* Downlink to a tunnel peer in a tenant's overlay: GTP-U in VXLAN, the tenant frame with the overlay
 * MACs, the outer headers right (lengths, checksum, ports, VNI); a VXLAN-arrived tenant frame's
 * marking is copied to the outer DSCP. Deleting the binding restores plain GTP-U. */
static void test_vxlan_reencap(void **st)
{
	(void)st;
	struct dp_vx_peer vx = { 6001, VTEP, EDGE, { 0, 0xaa, 0, 0, 0, 1 }, { 0, 0xbb, 0, 0, 0, 2 } };
	assert_int_equal(dp_vx_peer(DP_MODIFY, 7, &vx), -ENOENT);
	assert_int_equal(dp_vx_peer(DP_INSERT, 7, &vx), 0);
	assert_int_equal(dp_vx_peer(DP_INSERT, 7, &vx), -EEXIST);
	struct dp_vx_peer bad = vx;
	bad.vni = 1u << 24;
	assert_int_equal(dp_vx_peer(DP_INSERT, 8, &bad), -EINVAL);
	dp_commit();
	uint8_t t[256], b[512];
	for (int tenant = 0; tenant < 2; tenant++) {
		uint32_t tn = dl_frame(t, UE), n = tenant ? vxlan_frame(b, t, tn, 5001, VTEP, VXLAN_FLAG_I) : tn;
		struct rte_mbuf *m = mbuf_of(tenant ? b : t, n, 2);
		struct dp_verdict v = run(m);
		assert_true(v.fwd);
		assert_int_equal(v.out_port, 1);
		uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
		uint32_t len = rte_pktmbuf_pkt_len(m);
		assert_int_equal(len, VXLAN_ENCAP_LEN + tn + pkt_encap_len(0));
		struct pkt_info pi;
		assert_int_equal(pkt_parse(f, len, &pi), PARSE_OK);
		assert_int_equal(pi.ip_src, VTEP);
		assert_int_equal(pi.ip_dst, EDGE);
		assert_int_equal(pi.sport, 0xc000 | (0xbeef & 0x3fff));
		assert_int_equal(pi.vni, 6001);
		assert_int_equal(pi.vxlan_len, len - VXLAN_ENCAP_LEN);
		assert_int_equal(f[ETH_LEN + 8], 64);
		assert_int_equal(f[ETH_LEN + 1], tenant ? 46 << 2 : 0);
		assert_int_equal(pkt_cksum(f + ETH_LEN, 20, 0), 0);
		assert_memory_equal(f, MAC_B, 6);                   /* routed: the underlay's MACs */
		const uint8_t *g = f + pi.vxlan;
		assert_memory_equal(g, vx.inner_dst_mac, 6);        /* the overlay's */
		assert_memory_equal(g + 6, vx.inner_src_mac, 6);
		assert_int_equal(pkt_parse(g, pi.vxlan_len, &pi), PARSE_OK);
		assert_int_equal(pi.ip_dst, GNB);
		assert_int_equal(pi.teid, 0xbeef);
		assert_int_equal(pi.inner_dst, UE);
		assert_int_equal(g[ETH_LEN + 1], tenant ? 46 << 2 : 0);
		rte_pktmbuf_free(m);
	}
	assert_int_equal(dp_vx_peer(DP_DELETE, 7, &vx), 0);
	assert_int_equal(dp_vx_peer(DP_DELETE, 7, &vx), -ENOENT);
	dp_commit();
	uint32_t n = dl_frame(t, UE);
	struct rte_mbuf *m = mbuf_of(t, n, 2);
	assert_true(run(m).fwd);
	assert_int_equal(rte_pktmbuf_pkt_len(m), n + pkt_encap_len(0));
	rte_pktmbuf_free(m);
}

/* qos.queues: a forwarded packet's priority is the queue of its class, a tenant's class over the
 * termination's; a class without an entry (or one deleted) is queue 0. */
static void test_queue_of_class(void **st)
{
	(void)st;
	assert_int_equal(dp_queue(DP_INSERT, 4, 0), -EINVAL);
	assert_int_equal(dp_queue(DP_INSERT, 1, 8), -EINVAL);
	uint8_t t[256], b[512];
	uint32_t tn = ul_frame(t, 0x1234, UE, 0), n = vxlan_frame(b, t, tn, 5001, VTEP, VXLAN_FLAG_I);
	struct dp_verdict plain = run_bytes(t, tn, 1), tenant = run_bytes(b, n, 1);
	assert_true(plain.fwd && tenant.fwd);
	assert_int_equal(plain.prio, 0);
	assert_int_equal(tenant.prio, 0);
	assert_int_equal(dp_queue(DP_INSERT, 1, 2), 0);   /* the termination's class */
	assert_int_equal(dp_queue(DP_INSERT, 3, 6), 0);   /* the tenant's */
	assert_int_equal(run_bytes(t, tn, 1).prio, 2);
	assert_int_equal(run_bytes(b, n, 1).prio, 6);
	assert_int_equal(dp_queue(DP_DELETE, 3, 0), 0);
	assert_int_equal(run_bytes(b, n, 1).prio, 0);
	assert_int_equal(dp_queue(DP_DELETE, 1, 0), 0);
	assert_int_equal(run_bytes(t, tn, 1).prio, 0);
}

/* Slices (tenant.p4's TenantSlice): a tenant's uplink whose PDU Session Container's QFI, or downlink whose
 * termination's QFI, has a slice takes the slice's class and DSCP, counted and metered in cell
 * tenant_id * 64 + QFI; without a QFI, or with another tenant's slice, the tenant's stay. Runs after
 * test_tenant_table_ops (tenant 1: tc 3, DSCP 46; terminations' QFI 9, tc 1). */
static void test_slices(void **st)
{
	(void)st;
	struct dp_slice sl = { 1, 9, 2, 10 }, other = { 2, 9, 0, 0 }, more = { 3, 9, 0, 0 };
	assert_int_equal(dp_slice(DP_MODIFY, &sl), -ENOENT);
	assert_int_equal(dp_slice(DP_INSERT, &sl), 0);
	assert_int_equal(dp_slice(DP_INSERT, &sl), -EEXIST);
	assert_int_equal(dp_slice(DP_INSERT, &other), 0);
	assert_int_equal(dp_slice(DP_INSERT, &more), -ENOSPC);   /* SIZES.slices */
	const struct dp_slice bad[] = { { 1, 64, 0, 0 }, { 1, 8, 4, 0 }, { 1, 8, 0, 64 } };
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(dp_slice(DP_INSERT, &bad[i]), -EINVAL);
	assert_int_equal(dp_queue(DP_INSERT, 1, 1), 0);   /* the termination's class */
	assert_int_equal(dp_queue(DP_INSERT, 2, 4), 0);   /* the slice's */
	assert_int_equal(dp_queue(DP_INSERT, 3, 6), 0);   /* the tenant's */
	uint8_t t[256], b[512];
	uint64_t pk, by;
	const uint32_t cell = 1 * 64 + 9;
	uint32_t tn = ul_frame(t, 0x1234, UE, 1), n = vxlan_frame(b, t, tn, 5001, VTEP, VXLAN_FLAG_I);
	assert_int_equal(run_bytes(b, n, 1).prio, 4);
	struct rte_mbuf *m = mbuf_of(b, n, 1);
	expect_decapped(m, 10);
	rte_pktmbuf_free(m);
	assert_int_equal(dp_counter_read(CTR_SLICE, cell, &pk, &by), 0);
	assert_int_equal(pk, 2);
	assert_int_equal(by, 2 * n);
	/* No PDU Session Container: the tenant's; not in VXLAN: no tenant, the termination's. */
	uint8_t t0[256], b0[512];
	uint32_t tn0 = ul_frame(t0, 0x1234, UE, 0), n0 = vxlan_frame(b0, t0, tn0, 5001, VTEP, VXLAN_FLAG_I);
	assert_int_equal(run_bytes(b0, n0, 1).prio, 6);
	assert_int_equal(run_bytes(t, tn, 1).prio, 1);
	/* Downlink: the termination's QFI (9) is the slice's; its GTP-U header leaves with the slice's DSCP. */
	uint8_t dt[256], db[512];
	uint32_t dn = dl_frame(dt, UE), dv = vxlan_frame(db, dt, dn, 5001, VTEP, VXLAN_FLAG_I);
	m = mbuf_of(db, dv, 2);
	struct dp_verdict v = run(m);
	assert_true(v.fwd);
	assert_int_equal(v.prio, 4);
	assert_int_equal(rte_pktmbuf_mtod(m, uint8_t *)[ETH_LEN + 1], 10 << 2);
	rte_pktmbuf_free(m);
	assert_int_equal(dp_counter_read(CTR_SLICE, cell, &pk, &by), 0);
	assert_int_equal(pk, 3);
	assert_int_equal(by, 2 * n + dv);
	/* The slice's meter drops red after its counter; the tenant's own packets pass. */
	dp_clock_set(3000000000ull);
	struct dp_meter_cfg mc = { 1000, 200, 1000, 200 };
	assert_true(n <= 200);
	assert_int_equal(dp_meter_set(METER_SLICE, cell, &mc), 0);
	assert_int_equal(dp_meter_set(METER_SLICE, SIZES.slice_cells, &mc), -EINVAL);
	assert_true(run_bytes(b, n, 1).fwd);
	expect_drop(b, n, 1, DROP_METER_RED);
	assert_true(run_bytes(b0, n0, 1).fwd);
	assert_int_equal(dp_counter_read(CTR_SLICE, cell, &pk, &by), 0);
	assert_int_equal(pk, 5);
	assert_int_equal(dp_meter_set(METER_SLICE, cell, NULL), 0);
	assert_int_equal(dp_counter_write(CTR_SLICE, cell, 0, 0), 0);
	assert_int_equal(dp_counter_read(CTR_SLICE, cell, &pk, &by), 0);
	assert_int_equal(pk + by, 0);
	assert_int_equal(dp_counter_read(CTR_SLICE, SIZES.slice_cells, &pk, &by), -EINVAL);
	/* Modified, then deleted: the tenant's again. */
	sl.tc = 0;
	assert_int_equal(dp_slice(DP_MODIFY, &sl), 0);
	assert_int_equal(run_bytes(b, n, 1).prio, 0);
	assert_int_equal(dp_slice(DP_DELETE, &sl), 0);
	assert_int_equal(dp_slice(DP_DELETE, &sl), -ENOENT);
	assert_int_equal(run_bytes(b, n, 1).prio, 6);
	assert_int_equal(dp_slice(DP_INSERT, &more), 0);   /* room again */
	assert_int_equal(dp_slice(DP_DELETE, &more), 0);
	assert_int_equal(dp_slice(DP_DELETE, &other), 0);
	for (uint8_t tc = 1; tc < 4; tc++)
		assert_int_equal(dp_queue(DP_DELETE, tc, 0), 0);
}

/* ---- egress scheduler (egress.c) on the tests' own clock: the owner's time is what a test passes to
 * egress_enqueue and egress_dequeue, so that rates and orders are exact whatever CPU this thread gets ---- */
#define EG_MTU 1518
#define EG_FRAME 1000
#define EG_BUCKET_S 0.010   /* what the buckets keep at these rates: 10 ms of sending (egress.c) */

static struct rte_mempool *g_eg_pool;   /* the egress tests' mbufs: a full ring and queues hold ~1,600 */

/* s seconds in the egress's unit, TSC cycles. */
static uint64_t eg_cycles(double s)
{
	return (uint64_t)(s * (double)rte_get_tsc_hz());
}

/* The tests' clock starts at 1 s (the egress takes 0 for "never visited"). */
#define EG_START eg_cycles(1)

/* A packet of EG_FRAME bytes whose first byte is its priority and next two its sequence; NULL when
 * the pool is empty (callable from a thread other than cmocka's). */
static struct rte_mbuf *eg_pkt_try(uint8_t prio, uint16_t seq)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_eg_pool);
	if (!m)
		return NULL;
	uint8_t *d = (uint8_t *)rte_pktmbuf_append(m, EG_FRAME);
	memset(d, 0, EG_FRAME);
	d[0] = prio;
	w16(d + 1, seq);
	return m;
}

static struct rte_mbuf *eg_pkt(uint8_t prio, uint16_t seq)
{
	struct rte_mbuf *m = eg_pkt_try(prio, seq);
	assert_non_null(m);
	return m;
}

/* A scheduler at rate_bps fed by nlcores lcores, owned by lcore 0. */
static struct egress *eg_create(const char *name, uint64_t rate_bps, unsigned nlcores)
{
	char err[128];
	struct egress *e = egress_create(name, rate_bps, EG_MTU, nlcores, 0, err, sizeof(err));
	if (!e)
		print_error("%s\n", err);
	assert_non_null(e);
	return e;
}

/* The second forwarding lcore of the two-lcore tests (a thread, lcore 1; the test thread is lcore 0,
 * the owner): hands `bursts` bursts of `per` packets, their priorities prio[] cycled, to the owner
 * through egress_enqueue; stops early when *stop is set. With `gap` (cycles of the owner's clock), in
 * step with that clock: burst b once the owner's clock (`clock`, which the owner publishes after each
 * poll) reaches start + b * gap, so that at the owner's poll at time t exactly the bursts due by t have
 * been handed over (eg_feed_wait), whatever either thread's share of the CPU. */
struct eg_feeder {
	struct egress *e;
	const uint8_t *prio;
	unsigned nprio, bursts, per;
	uint64_t gap, start, clock;
	volatile int *stop;
	uint64_t offered, taken;    /* packets handed to egress_enqueue, packets it took */
	unsigned handed;            /* bursts handed over (release) */
	int done;                   /* set (release) once all is handed over */
	uint16_t seq[EGRESS_PRIOS];
	pthread_t th;
};

static void *eg_feed(void *arg)
{
	struct eg_feeder *f = arg;
	for (unsigned b = 0; b < f->bursts && !(f->stop && *f->stop); b++) {
		while (f->gap && __atomic_load_n(&f->clock, __ATOMIC_ACQUIRE) < f->start + b * f->gap)
			sched_yield();
		struct rte_mbuf *m[32];
		uint8_t prio[32];
		uint16_t k = 0;
		for (; k < f->per && k < 32; k++) {
			prio[k] = f->prio[(b * f->per + k) % f->nprio];
			if (!(m[k] = eg_pkt_try(prio[k], f->seq[prio[k]])))
				break;
			f->seq[prio[k]]++;
		}
		f->offered += k;
		f->taken += egress_enqueue(f->e, 1, m, prio, k, 0);   /* not the owner: no time of its own */
		__atomic_store_n(&f->handed, b + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&f->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The owner, in step with a feeder that has a gap: waits until the bursts due by its time now are handed
 * over (all of them: a feeder that stops early is done). */
static void eg_feed_wait(struct eg_feeder *f, uint64_t now)
{
	uint64_t due = RTE_MIN((uint64_t)f->bursts, (now - f->start) / f->gap + 1);
	while (__atomic_load_n(&f->handed, __ATOMIC_ACQUIRE) < due && !__atomic_load_n(&f->done, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void eg_feed_start(struct eg_feeder *f)
{
	assert_int_equal(pthread_create(&f->th, NULL, eg_feed, f), 0);
}

static int eg_feed_done(struct eg_feeder *f)
{
	return __atomic_load_n(&f->done, __ATOMIC_ACQUIRE);
}

static void eg_feed_join(struct eg_feeder *f)
{
	assert_int_equal(pthread_join(f->th, NULL), 0);
}

static uint64_t eg_drops_sum(const struct egress *e)
{
	uint64_t drops[EGRESS_PRIOS], sum = 0;
	egress_drops(e, drops);
	for (unsigned p = 0; p < EGRESS_PRIOS; p++)
		sum += drops[p];
	return sum;
}

/* Dequeues up to `want` packets, the clock *now moving by `step` cycles after each dequeue, for at most
 * `secs` of it (a clock standing still: at most want + 1 dequeues; with until_held, only until the rate
 * holds back a packet: a dequeue returns nothing after one returned some), appending each one's priority
 * to order[] and checking that each priority leaves in its order of arrival (seq_of: the next sequence
 * of each). */
static unsigned eg_collect(struct egress *e, unsigned want, uint64_t *now, uint64_t step, double secs,
			   uint8_t *order, uint16_t *seq_of, int until_held)
{
	unsigned got = 0;
	uint64_t polls = (step ? eg_cycles(secs) / step : 0) + want + 1;
	for (; got < want && polls; polls--, *now += step) {
		struct rte_mbuf *out[32];
		uint16_t k = egress_dequeue(e, out, (uint16_t)RTE_MIN(32u, want - got), *now);
		if (until_held && got && !k)
			break;
		for (uint16_t j = 0; j < k; j++, got++) {
			const uint8_t *d = rte_pktmbuf_mtod(out[j], const uint8_t *);
			order[got] = d[0];
			assert_int_equal(r16(d + 1), seq_of[d[0]]++);
		}
		rte_pktmbuf_free_bulk(out, k);
	}
	return got;
}

/* PER packets of each of four priorities, queued before the first dequeue (priorities 0 and 1 by
 * the owner; 3 and 7 by the owner too with one lcore, by the other lcore over the owner's ring
 * with two), leave highest priority first (strict priority), each priority in its order of arrival. */
static void eg_strict_order(const char *name, unsigned nlcores)
{
	struct egress *e = eg_create(name, 100000000, nlcores);
	enum { PER = 16 };
	static const uint8_t prios[] = { 0, 1, 3, 7 };   /* the owner's, then the other lcore's */
	unsigned own = nlcores > 1 ? PER * 2 : PER * 4;
	struct rte_mbuf *m[PER * 4];
	uint8_t prio[PER * 4];
	uint64_t now = EG_START;
	for (unsigned i = 0; i < own; i++) {   /* interleaved: 0, 1, 0, 1, ..., then 3, 7, 3, 7, ... */
		prio[i] = prios[i / (PER * 2) * 2 + i % 2];
		m[i] = eg_pkt(prio[i], (uint16_t)(i % (PER * 2) / 2));
	}
	assert_int_equal(egress_enqueue(e, 0, m, prio, (uint16_t)own, now), own);
	if (nlcores > 1) {   /* the same 3, 7, 3, 7, ... from the other lcore */
		struct eg_feeder f = { .e = e, .prio = prios + 2, .nprio = 2, .bursts = 1, .per = PER * 2 };
		eg_feed_start(&f);
		eg_feed_join(&f);
		assert_int_equal(f.taken, PER * 2);
	}
	assert_int_equal(egress_backlog(e), PER * 4);
	uint8_t order[PER * 4];
	uint16_t seq_of[EGRESS_PRIOS] = { 0 };
	assert_int_equal(eg_collect(e, PER * 4, &now, eg_cycles(0.001), 1, order, seq_of, 0), PER * 4);
	static const uint8_t served[] = { 7, 3, 1, 0 };
	for (unsigned i = 0; i < PER * 4; i++)
		assert_int_equal(order[i], served[i / PER]);
	assert_int_equal(egress_backlog(e), 0);
	assert_int_equal(eg_drops_sum(e), 0);
	egress_free(e);
}

static void test_egress_strict_priority(void **st)
{
	(void)st;
	eg_strict_order("t_prio", 1);
}

/* The same with two lcores: the other lcore's packets, handed over the ring, take their place by
 * priority among the owner's. */
static void test_egress_strict_priority_across_lcores(void **st)
{
	(void)st;
	eg_strict_order("t_prio2", 2);
}

/* Under congestion (1 frame/ms), high-priority packets that the other lcore hands over while this
 * one keeps polling, its low-priority queue held back by the rate (the clock stands still: nothing
 * may leave), overtake that queue: once the clock moves, all of them leave before the next
 * low-priority packet. */
static void test_egress_congested_across_lcores(void **st)
{
	(void)st;
	const uint64_t rate_bps = 8000000;
	struct egress *e = eg_create("t_cong2", rate_bps, 2);
	enum { LOW = 48, HIGH = 8 };
	struct rte_mbuf *m[LOW];
	uint8_t prio[LOW] = { 0 };
	uint64_t now = EG_START;
	for (unsigned i = 0; i < LOW; i++)
		m[i] = eg_pkt(0, (uint16_t)i);
	assert_int_equal(egress_enqueue(e, 0, m, prio, LOW, now), LOW);
	uint8_t order[LOW + HIGH];
	uint16_t seq_of[EGRESS_PRIOS] = { 0 };
	/* The port sends low priority until the rate holds it back: the bucket's credits (10 ms: 9 frames). */
	unsigned got = eg_collect(e, LOW, &now, 0, 0, order, seq_of, 1);
	assert_int_equal(got, (unsigned)(rate_bps / 8 * EG_BUCKET_S) / (EG_FRAME + EGRESS_FRAME_OVERHEAD));
	static const uint8_t seven = 7;
	struct eg_feeder f = { .e = e, .prio = &seven, .nprio = 1, .bursts = 1, .per = HIGH };
	eg_feed_start(&f);
	unsigned polls = 0;
	for (int done = 0; !done; polls++) {   /* polled while the other lcore hands over, at the same time */
		done = eg_feed_done(&f);
		struct rte_mbuf *out[1];
		assert_int_equal(egress_dequeue(e, out, 1, now), 0);
		sched_yield();
	}
	eg_feed_join(&f);
	assert_int_equal(f.taken, HIGH);
	assert_int_equal(egress_backlog(e), LOW - got + HIGH);
	unsigned handed = got;
	got += eg_collect(e, LOW + HIGH - got, &now, eg_cycles(0.0005), 1, order + got, seq_of, 0);
	assert_int_equal(got, LOW + HIGH);
	print_message("%u low-priority packet(s) before the hand-off (%u polls during it), then %u %u %u ...\n", handed,
		      polls, order[handed], order[handed + 1], order[handed + HIGH]);
	for (unsigned i = handed; i < LOW + HIGH; i++)
		assert_int_equal(order[i], i < handed + HIGH ? 7 : 0);
	assert_int_equal(eg_drops_sum(e), 0);
	egress_free(e);
}

/* A port kept busy with packets of several priorities (by the owner, and with a feeder also by the
 * other lcore over the ring, in step with the port's clock), polled every 0.25 ms of its clock for at
 * least 0.5 s (with a feeder, until it has handed everything over): it sends exactly at its rate,
 * framing overhead included: no more than the bucket's credits and what the clock added since, and,
 * never idle, no less than what the clock added. Then, drained: every packet offered was sent or
 * counted as a drop. Adds the packets sent to sent_of, by priority. */
static void eg_rate_check(struct egress *e, uint64_t rate_bps, struct eg_feeder *f, uint64_t sent_of[EGRESS_PRIOS])
{
	const uint64_t step = eg_cycles(0.00025);
	uint64_t bytes = 0, own = 0, sent = 0, now = EG_START, t0 = now, last = now;
	uint8_t prio[8] = { 0, 3, 0, 2, 0, 0, 7, 0 };
	if (f) {
		f->start = f->clock = t0;
		eg_feed_start(f);
	}
	for (; now - t0 < eg_cycles(0.5) || (f && !eg_feed_done(f)); now += step) {
		if (f)
			eg_feed_wait(f, now);
		if (egress_backlog(e) < EGRESS_QUEUE_PKTS / 2) {
			struct rte_mbuf *m[8];
			for (int i = 0; i < 8; i++)
				m[i] = eg_pkt(prio[i], 0);
			egress_enqueue(e, 0, m, prio, 8, now);
			own += 8;
		}
		struct rte_mbuf *out[32];
		uint16_t k = egress_dequeue(e, out, 32, now);
		for (uint16_t j = 0; j < k; j++) {
			bytes += rte_pktmbuf_pkt_len(out[j]) + EGRESS_FRAME_OVERHEAD;
			sent_of[rte_pktmbuf_mtod(out[j], uint8_t *)[0]]++;
		}
		rte_pktmbuf_free_bulk(out, k);
		sent += k;
		last = now;
		if (f)
			__atomic_store_n(&f->clock, now + step, __ATOMIC_RELEASE);
	}
	if (f)
		eg_feed_join(f);
	double secs = (double)(last - t0) / rte_get_tsc_hz(), at_rate = rate_bps / 8.0 * secs;
	print_message("%.3f s of the port's clock: sent %lu bytes, %.0f at the rate; other lcore: %lu offered, %lu taken\n",
		      secs, (unsigned long)bytes, at_rate, (unsigned long)(f ? f->offered : 0),
		      (unsigned long)(f ? f->taken : 0));
	assert_true(bytes >= at_rate);
	assert_true(bytes <= at_rate + rate_bps / 8.0 * EG_BUCKET_S + 1);
	/* Drained on the clock: the backlog (at most the ring and the queues) leaves within a few seconds of it. */
	for (unsigned polls = 0; egress_backlog(e) && polls < 100000; polls++, now += step) {
		struct rte_mbuf *out[32];
		uint16_t k = egress_dequeue(e, out, 32, now);
		for (uint16_t j = 0; j < k; j++)
			sent_of[rte_pktmbuf_mtod(out[j], uint8_t *)[0]]++;
		rte_pktmbuf_free_bulk(out, k);
		sent += k;
	}
	assert_int_equal(egress_backlog(e), 0);
	assert_int_equal(own + (f ? f->offered : 0), sent + eg_drops_sum(e));
}

static void test_egress_rate(void **st)
{
	(void)st;
	const uint64_t rate_bps = 8000000;   /* 1 MB/s: 1,024 B per frame on the wire, ~977 frames/s */
	uint64_t sent_of[EGRESS_PRIOS] = { 0 };
	struct egress *e = eg_create("t_rate", rate_bps, 1);
	eg_rate_check(e, rate_bps, NULL, sent_of);
	assert_int_equal(eg_drops_sum(e), 0);
	egress_free(e);
}

/* The rate with two lcores: the other lcore hands over a burst of 8 packets of two priorities of its own
 * (1 and 6) every 0.5 ms of the port's clock (16 times the rate) for 0.5 s of it, while the owner keeps its
 * queues busy; the full queues drop most of them. The other lcore's packets take their share of the port. */
static void test_egress_rate_across_lcores(void **st)
{
	(void)st;
	const uint64_t rate_bps = 8000000;
	enum { BURSTS = 1000, PER = 8 };
	struct egress *e = eg_create("t_rate2", rate_bps, 2);
	static const uint8_t prios[] = { 1, 6 };
	struct eg_feeder f = { .e = e, .prio = prios, .nprio = 2, .bursts = BURSTS, .per = PER, .gap = eg_cycles(0.0005) };
	uint64_t sent_of[EGRESS_PRIOS] = { 0 };
	eg_rate_check(e, rate_bps, &f, sent_of);
	assert_int_equal(f.offered, BURSTS * PER);
	assert_true(eg_drops_sum(e) > f.offered / 2);   /* the port takes about a sixteenth */
	assert_true(sent_of[6] > 0 && sent_of[1] > 0);
	egress_free(e);
}

/* A packet of len bytes whose first byte is its priority. */
static struct rte_mbuf *eg_pkt_len(uint8_t prio, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_eg_pool);
	assert_non_null(m);
	uint8_t *d = (uint8_t *)rte_pktmbuf_append(m, len);
	assert_non_null(d);
	memset(d, 0, len);
	d[0] = prio;
	return m;
}

/* Strict priority when the high class alone is above the rate: it takes the port, even with frames
 * larger than the best effort's (a scheduler that sends whichever head fits the credits trickling in
 * finds the smaller best-effort frame fitting first). Both queues are kept full for 0.5 s of the
 * port's clock, polled every 50 us of it (a twentieth of a frame's credits); the high class must get at
 * least three quarters of the bytes (the rest: best effort's while the high queue was still filling). */
static void test_egress_priority_holds_when_oversubscribed(void **st)
{
	(void)st;
	const uint64_t rate_bps = 8000000;
	struct egress *e = eg_create("t_over", rate_bps, 1);
	uint64_t bytes[2] = { 0, 0 };
	for (uint64_t now = EG_START; now - EG_START < eg_cycles(0.5); now += eg_cycles(0.00005)) {
		if (egress_backlog(e) < 2 * EGRESS_QUEUE_PKTS) {
			struct rte_mbuf *m[8];
			uint8_t prio[8];
			for (int i = 0; i < 8; i++) {
				prio[i] = i & 1 ? 3 : 0;
				m[i] = eg_pkt_len(prio[i], prio[i] ? 1400 : 1000);
			}
			egress_enqueue(e, 0, m, prio, 8, now);
		}
		struct rte_mbuf *out[32];
		uint16_t k = egress_dequeue(e, out, 32, now);
		for (uint16_t j = 0; j < k; j++)
			bytes[rte_pktmbuf_mtod(out[j], uint8_t *)[0] ? 1 : 0] += rte_pktmbuf_pkt_len(out[j]);
		rte_pktmbuf_free_bulk(out, k);
	}
	print_message("oversubscribed: priority 3 %lu bytes, best effort %lu\n", (unsigned long)bytes[1],
		      (unsigned long)bytes[0]);
	assert_true(bytes[1] + bytes[0] > 0);
	assert_true(bytes[1] * 4 >= (bytes[1] + bytes[0]) * 3);
	egress_free(e);
}

/* The tenants lab's "no slices" run in small: priority 3 offered at 1.2 x the port's rate (1,400-byte
 * frames, on the port's clock, so that its queue fills and overflows) while priorities 2 and 0
 * (1,000-byte frames) always have packets waiting, for 1 s of that clock polled every 0.1 ms of it.
 * Strict priority: no frame leaves while a higher priority has a packet queued (the test keeps each
 * queue's count from what it enqueued, what was dropped and what left), and the egress's own
 * SentBelowFull stays 0; every priority-3 packet offered was sent, dropped (counted) or is queued. */
static void test_egress_strict_when_one_class_oversubscribes(void **st)
{
	(void)st;
	const uint64_t rate_bps = 8000000;
	const double high_fps = 1.2 * rate_bps / 8 / (1400 + EGRESS_FRAME_OVERHEAD);
	static const uint8_t classes[] = { 3, 2, 0 };
	struct egress *e = eg_create("t_over12", rate_bps, 1);
	uint64_t queued[EGRESS_PRIOS] = { 0 }, sent[EGRESS_PRIOS] = { 0 }, dropped[EGRESS_PRIOS] = { 0 };
	unsigned high_offered = 0, overtaken = 0, sent_while_high_full = 0;
	const uint64_t t0 = EG_START, hz = rte_get_tsc_hz();
	for (uint64_t now = t0; now - t0 < eg_cycles(1); now += eg_cycles(0.0001)) {
		for (unsigned c = 0; c < RTE_DIM(classes); c++) {
			uint8_t p = classes[c];
			unsigned due = p == 3 ? (unsigned)((double)(now - t0) / hz * high_fps) + 1 - high_offered
					      : (queued[p] < EGRESS_QUEUE_PKTS / 2 ? 8 : 0);
			for (unsigned i = 0; i < due; i++) {
				struct rte_mbuf *m = eg_pkt_len(p, p == 3 ? 1400 : 1000);
				uint16_t took = egress_enqueue(e, 0, &m, &p, 1, now);
				queued[p] += took;
				dropped[p] += !took;
			}
			if (p == 3)
				high_offered += due;
		}
		struct rte_mbuf *out[32];
		uint16_t k = egress_dequeue(e, out, 32, now);
		for (uint16_t j = 0; j < k; j++) {
			uint8_t p = rte_pktmbuf_mtod(out[j], uint8_t *)[0];
			for (uint8_t h = p + 1; h < EGRESS_PRIOS; h++)
				overtaken += queued[h] > 0;
			sent_while_high_full += p != 3 && queued[3] == EGRESS_QUEUE_PKTS;
			queued[p]--;
			sent[p]++;
		}
		rte_pktmbuf_free_bulk(out, k);
	}
	struct egress_service sv;
	egress_service(e, &sv);
	uint64_t drops[EGRESS_PRIOS];
	egress_drops(e, drops);
	print_message("1.2 x: priority 3 offered %u, sent %lu, dropped %lu; priorities 2 / 0 sent %lu / %lu; "
		      "frames that overtook a queued higher priority %u, sent below a full priority 3 %u "
		      "(SentBelowFull %lu)\n", high_offered, (unsigned long)sent[3], (unsigned long)drops[3],
		      (unsigned long)sent[2], (unsigned long)sent[0], overtaken, sent_while_high_full,
		      (unsigned long)sv.below_full);
	assert_true(drops[3] > 0);   /* the class was above the rate: its queue overflowed */
	assert_int_equal(drops[3], dropped[3]);
	assert_int_equal(high_offered, sent[3] + drops[3] + queued[3]);
	assert_true(sent[3] > 0);
	assert_int_equal(overtaken, 0);
	assert_int_equal(sent_while_high_full, 0);
	assert_int_equal(sv.below_full, 0);
	egress_free(e);
}

/* Priority 2's queue overflowing by OVER `away_s` of the owner's clock after its last visit to the
 * scheduler; its drops are a stall's only when that absence is longer than the bucket's credits last. */
static struct egress *eg_overflow(const char *name, uint64_t rate_bps, double away_s)
{
	enum { OVER = 5, N = EGRESS_QUEUE_PKTS + OVER };
	struct egress *e = eg_create(name, rate_bps, 1);
	struct rte_mbuf *m[N], *out[1];
	uint8_t prio[N];
	assert_int_equal(egress_dequeue(e, out, 1, EG_START), 0);   /* the owner's first visit */
	for (unsigned i = 0; i < N; i++) {
		prio[i] = 2;
		m[i] = eg_pkt(2, (uint16_t)i);
	}
	assert_int_equal(egress_enqueue(e, 0, m, prio, N, EG_START + eg_cycles(away_s)), EGRESS_QUEUE_PKTS);
	uint64_t drops[EGRESS_PRIOS];
	egress_drops(e, drops);
	assert_int_equal(drops[2], OVER);
	return e;
}

/* A full queue's drops are a stall's only when the owner was away from the scheduler for longer than
 * the credits its buckets keep (one period: 10 ms at 100 Mbit/s): 9 ms away is none, 30 ms is one; served
 * in strict priority, no frame leaves while a higher priority's queue is full. */
static void test_egress_stall_drops_told_apart(void **st)
{
	(void)st;
	struct egress_service sv;
	struct egress *e = eg_overflow("t_busy", 100000000, 0.009);
	egress_service(e, &sv);
	assert_int_equal(sv.stall_drops[2], 0);
	egress_free(e);

	e = eg_overflow("t_stall", 100000000, 0.030);
	egress_service(e, &sv);
	assert_int_equal(sv.stall_drops[2], 5);
	assert_in_range(sv.longest_gap_us, 29999, 30000);
	struct rte_mbuf *low[8];
	uint8_t prio[8];
	for (unsigned i = 0; i < 8; i++) {
		prio[i] = 0;
		low[i] = eg_pkt(0, (uint16_t)i);
	}
	uint64_t now = EG_START + eg_cycles(0.030);
	assert_int_equal(egress_enqueue(e, 0, low, prio, 8, now), 8);
	uint8_t order[EGRESS_QUEUE_PKTS + 8];
	uint16_t seq_of[EGRESS_PRIOS] = { 0 };
	assert_int_equal(eg_collect(e, EGRESS_QUEUE_PKTS + 8, &now, eg_cycles(0.0001), 1, order, seq_of, 0),
			 EGRESS_QUEUE_PKTS + 8);
	egress_service(e, &sv);
	assert_int_equal(sv.below_full, 0);
	egress_free(e);
}

/* A full queue drops what does not fit and counts it under its priority; the other queues are
 * untouched and still take packets. */
static void test_egress_overflow_counted(void **st)
{
	(void)st;
	struct egress *e = eg_create("t_full", 1000000, 1);
	enum { N = EGRESS_QUEUE_PKTS + 36 };
	uint64_t drops[EGRESS_PRIOS];
	unsigned queued = 0;
	for (unsigned i = 0; i < N; i += 25) {
		struct rte_mbuf *m[25];
		uint8_t prio[25];
		unsigned k = N - i < 25 ? N - i : 25;
		for (unsigned j = 0; j < k; j++) {
			prio[j] = 2;
			m[j] = eg_pkt(2, (uint16_t)(i + j));
		}
		queued += egress_enqueue(e, 0, m, prio, (uint16_t)k, EG_START);
	}
	assert_int_equal(queued, EGRESS_QUEUE_PKTS);
	egress_drops(e, drops);
	for (unsigned p = 0; p < EGRESS_PRIOS; p++)
		assert_int_equal(drops[p], p == 2 ? N - EGRESS_QUEUE_PKTS : 0);
	struct rte_mbuf *hi = eg_pkt(5, 0);
	uint8_t p5 = 5;
	assert_int_equal(egress_enqueue(e, 0, &hi, &p5, 1, EG_START), 1);
	assert_int_equal(egress_backlog(e), EGRESS_QUEUE_PKTS + 1);
	char msg[128];
	assert_null(egress_create("t_bad", 0, EG_MTU, 1, 0, msg, sizeof(msg)));
	assert_non_null(strstr(msg, "must be positive"));
	assert_null(egress_create("t_bad", 1000000, EG_MTU, 2, 2, msg, sizeof(msg)));
	assert_non_null(strstr(msg, "owner lcore 2 of 2"));
	egress_free(e);
}

/* The ring to the owner holds EGRESS_RING_PKTS - 1 packets: what the other lcore hands over beyond
 * that, while the owner does not run, is freed and counted under its priority; then the owner's
 * full queues drop and count what does not fit of the ring's; all that is queued leaves. Every
 * packet is sent or counted, by priority. */
static void test_egress_full_ring_counted(void **st)
{
	(void)st;
	struct egress *e = eg_create("t_ring2", 100000000, 2);
	enum { N = EGRESS_RING_PKTS + 36, HELD = EGRESS_RING_PKTS - 1 };
	static const uint8_t prios[] = { 2, 5 };   /* alternating: packet i has priority prios[i % 2] */
	struct eg_feeder f = { .e = e, .prio = prios, .nprio = 2, .bursts = (N + 31) / 32, .per = 32 };
	eg_feed_start(&f);
	eg_feed_join(&f);
	assert_true(f.offered >= N);
	unsigned offered = (unsigned)f.offered;
	assert_int_equal(f.taken, HELD);
	assert_int_equal(egress_backlog(e), HELD);
	uint64_t drops[EGRESS_PRIOS];
	egress_drops(e, drops);
	/* Packets HELD..offered-1 were refused: even ones have priority 2. */
	unsigned ring_even = (offered + 1) / 2 - (HELD + 1) / 2, ring_odd = (offered - HELD) - ring_even;
	for (unsigned p = 0; p < EGRESS_PRIOS; p++)
		assert_int_equal(drops[p], p == 2 ? ring_even : p == 5 ? ring_odd : 0);
	struct rte_mbuf *none[1];
	uint64_t now = EG_START;
	/* The owner takes the ring (a few hundred packets a visit), sends nothing. */
	for (unsigned visits = 0; egress_backlog(e) > 2 * EGRESS_QUEUE_PKTS && visits < HELD; visits++)
		assert_int_equal(egress_dequeue(e, none, 0, now), 0);
	assert_int_equal(egress_backlog(e), 2 * EGRESS_QUEUE_PKTS);
	egress_drops(e, drops);
	assert_int_equal(drops[2], ring_even + (HELD + 1) / 2 - EGRESS_QUEUE_PKTS);
	assert_int_equal(drops[5], ring_odd + HELD / 2 - EGRESS_QUEUE_PKTS);
	uint8_t order[2 * EGRESS_QUEUE_PKTS];
	uint16_t seq_of[EGRESS_PRIOS] = { 0 };
	unsigned sent = eg_collect(e, 2 * EGRESS_QUEUE_PKTS, &now, eg_cycles(0.001), 1, order, seq_of, 0);
	assert_int_equal(sent, 2 * EGRESS_QUEUE_PKTS);
	for (unsigned i = 0; i < sent; i++)
		assert_int_equal(order[i], i < EGRESS_QUEUE_PKTS ? 5 : 2);
	assert_int_equal(egress_backlog(e), 0);
	assert_int_equal(offered, sent + eg_drops_sum(e));
	egress_free(e);
}

/* The CPU port's wake-up: a packet-in queued while the agent is armed writes the eventfd once; one queued
 * while it is not armed does not (the agent is draining then); arming with packet-ins queued says so. */
static uint64_t wake_count(void)
{
	uint64_t n = 0;
	return read(dp_packet_in_fd(), &n, sizeof(n)) == sizeof(n) ? n : 0;
}

static void cpu_in(uint8_t tag)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(g_pool);
	assert_non_null(m);
	*(uint8_t *)rte_pktmbuf_append(m, 1) = tag;
	cpu_port_to_cpu(m, 3, PKTIN_ACL_PUNT);
}

static void test_cpu_port_wakes_armed_agent(void **state)
{
	(void)state;
	uint8_t buf[64];
	uint16_t port;
	uint8_t reason;
	assert_int_equal(dp_packet_in_arm(), 0);
	assert_int_equal(wake_count(), 0);
	cpu_in(1);
	cpu_in(2);
	assert_int_equal(wake_count(), 1);       /* once for both: the first disarmed it */
	assert_int_equal(dp_packet_in(buf, sizeof(buf), &port, &reason), 1);
	assert_true(buf[0] == 1 && port == 3 && reason == PKTIN_ACL_PUNT);
	assert_int_equal(dp_packet_in_arm(), 1);  /* one still queued: the agent must not wait */
	assert_int_equal(dp_packet_in(buf, sizeof(buf), &port, &reason), 1);
	assert_int_equal(buf[0], 2);
	assert_int_equal(dp_packet_in(buf, sizeof(buf), &port, &reason), 0);
	dp_packet_in_kick();
	assert_int_equal(wake_count(), 1);
}

/* The CPU port's map of P4 ports: port 1 is a DPDK port, every other none. */
static int g_p4_ports[IO_P4_PORTS];

static void test_packet_out_only_to_a_port_that_exists(void **state)
{
	(void)state;
	const uint8_t frame[60] = { 0 };
	struct rte_mbuf *m[4];
	assert_int_equal(dp_packet_out(2, frame, sizeof(frame)), -ENODEV);
	assert_int_equal(dp_packet_out(IO_P4_PORTS, frame, sizeof(frame)), -ENODEV);
	assert_int_equal(dp_packet_out(1, frame, sizeof(frame)), 0);
	assert_int_equal(cpu_port_take_out(m, 4), 1);
	assert_int_equal(m[0]->port, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(m[0]), sizeof(frame));
	rte_pktmbuf_free(m[0]);
}

int main(void)
{
	char *argv[] = { "test_dp", "--no-huge", "-m", "512", "--no-pci", "--no-shconf", "--log-level=lib.*:error",
			 "-l", "0", NULL };
	if (rte_eal_init(9, argv) < 0 || dp_init(1))
		return 1;
	g_pool = rte_pktmbuf_pool_create("t", 1024, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	g_eg_pool = rte_pktmbuf_pool_create("eg", 4096, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	char err[128];
	for (unsigned p = 0; p < IO_P4_PORTS; p++)
		g_p4_ports[p] = p == 1 ? 0 : -1;
	if (cpu_port_init(g_pool, g_p4_ports, err, sizeof(err)))
		return 1;
	const struct CMUnitTest pkt_tests[] = {
		cmocka_unit_test(test_parse_uplink_psc), cmocka_unit_test(test_parse_rejects_bad_gtpu),
		cmocka_unit_test(test_cksum_and_ttl), cmocka_unit_test(test_echo_reply),
		cmocka_unit_test(test_encap_decap_roundtrip), cmocka_unit_test(test_hh_step_matches_the_model),
		cmocka_unit_test(test_hh_keys_and_selector_hash), cmocka_unit_test(test_cls_step_matches_the_model),
		cmocka_unit_test(test_parse_vxlan), cmocka_unit_test(test_crc32_is_zlibs),
		cmocka_unit_test(test_rps_digest_fields), cmocka_unit_test(test_rps_fifo_hand_worked),
		cmocka_unit_test(test_rps_buffer_len), cmocka_unit_test(test_rps_wrap_and_selection),
		cmocka_unit_test(test_rps_track_depth),
		cmocka_unit_test(test_rps_hybrid_exports_every_receipt), cmocka_unit_test(test_rps_step_matches_the_model),
		cmocka_unit_test(test_cpu_port_wakes_armed_agent),
		cmocka_unit_test(test_packet_out_only_to_a_port_that_exists),
	};
	const struct CMUnitTest dp_tests[] = {
		cmocka_unit_test(test_ftable), cmocka_unit_test(test_ftable_concurrent), cmocka_unit_test(test_table_ops),
		cmocka_unit_test(test_arrays_resident_before_traffic),
		cmocka_unit_test(test_exact_readback), cmocka_unit_test(test_uplink), cmocka_unit_test(test_counter_marks),
		cmocka_unit_test(test_downlink_encap), cmocka_unit_test(test_drop_reasons),
		cmocka_unit_test(test_meter_red), cmocka_unit_test(test_buffer_and_acl),
		cmocka_unit_test(test_applications), cmocka_unit_test(test_classifier_tries),
		cmocka_unit_test(test_echo_through_pipeline),
		cmocka_unit_test(test_tenant_table_ops), cmocka_unit_test(test_vxlan_through_pipeline),
		cmocka_unit_test(test_vxlan_reencap), cmocka_unit_test(test_queue_of_class),
		cmocka_unit_test(test_slices),
	};
	int f = cmocka_run_group_tests_name("packet", pkt_tests, NULL, NULL);
	f += cmocka_run_group_tests_name("pipeline", dp_tests, setup_upf, NULL);
	const struct CMUnitTest hw_tests[] = {
		cmocka_unit_test(test_hw_steering_and_hh_report), cmocka_unit_test(test_hw_no_backend_and_from_backend),
		cmocka_unit_test(test_hw_tenant_class_survives_steering),
		cmocka_unit_test(test_hw_backend_vxlan_routed_by_its_outer_headers),
		cmocka_unit_test(test_hw_rps_tables), cmocka_unit_test(test_hw_rps_in_and_out),
		cmocka_unit_test(test_hw_rps_receipt_rides_on_hh_report), cmocka_unit_test(test_hw_rps_buffered_and_acl_copy),
		cmocka_unit_test(test_hw_without_rps_state),
	};
	f += cmocka_run_group_tests_name("hw pipeline", hw_tests, setup_hw, NULL);
	const struct CMUnitTest egress_tests[] = {
		cmocka_unit_test(test_egress_strict_priority), cmocka_unit_test(test_egress_rate),
		cmocka_unit_test(test_egress_overflow_counted), cmocka_unit_test(test_egress_strict_priority_across_lcores),
		cmocka_unit_test(test_egress_stall_drops_told_apart),
		cmocka_unit_test(test_egress_congested_across_lcores), cmocka_unit_test(test_egress_rate_across_lcores),
		cmocka_unit_test(test_egress_full_ring_counted), cmocka_unit_test(test_egress_priority_holds_when_oversubscribed),
		cmocka_unit_test(test_egress_strict_when_one_class_oversubscribes),
	};
	f += cmocka_run_group_tests_name("egress scheduler", egress_tests, NULL, NULL);
	int total = (int)(sizeof(pkt_tests) / sizeof(pkt_tests[0]) + sizeof(dp_tests) / sizeof(dp_tests[0]) +
			  sizeof(hw_tests) / sizeof(hw_tests[0]) + sizeof(egress_tests) / sizeof(egress_tests[0]));
	printf("backend C unit tests: %d passed, %d failed\n", total - f, f);
	return f ? 1 : 0;
}
