/* Exact-match table for 8-byte keys with their values inline (8 or 16 bytes): a
 * bucketized cuckoo hash of 64-byte buckets, two candidate buckets per key, so
 * that a lookup reads one cache line (two when the key sits in its second
 * bucket) and the value comes with the key. Sized so that the declared capacity
 * fills at most 70 % of the slots, which cuckoo insertion reaches without
 * failing in practice; the capacity itself is enforced exactly.
 * One writer; readers take no lock: each bucket is a sequence lock (its version
 * is odd while the writer changes it, readers retry a torn read), and a miss
 * that overlapped an entry moving between its buckets is retried. */
#ifndef HUPF_FTABLE_H
#define HUPF_FTABLE_H

#include <stdint.h>
#include <string.h>
#include <rte_pause.h>

#define FT_BUCKET 64
#define FT_HDR 8      /* uint32_t version, uint8_t used-slot bits, padding */

struct ftable {
	uint8_t *b;            /* nb buckets of FT_BUCKET bytes */
	uint32_t nb, cap, n;
	uint8_t vlen, slots, slot_size;
	uint32_t moves;        /* odd while an entry moves between its buckets */
	uint64_t rnd;
};

int ft_init(struct ftable *t, uint32_t cap, uint8_t vlen);
void ft_fini(struct ftable *t);
/* Writer side: 1 and the key's place, or 0. */
int ft_find(const struct ftable *t, uint64_t key, uint32_t *bi, unsigned *si);
int ft_insert(struct ftable *t, uint64_t key, const void *val);  /* 0 or -ENOSPC */
void ft_update(struct ftable *t, uint32_t bi, unsigned si, const void *val);
void ft_delete(struct ftable *t, uint32_t bi, unsigned si);
/* Writer side: copies the entries of buckets *bi, *bi + 1, ... (whole buckets, at most
 * max entries; max >= slots) to keys/vals (vlen bytes each) and returns how many;
 * *bi is the next bucket to dump, nb when the table is done. */
uint32_t ft_dump(const struct ftable *t, uint32_t *bi, uint64_t *keys, uint8_t *vals, uint32_t max);

static inline uint32_t ft_range(uint32_t h, uint32_t n) { return (uint32_t)(((uint64_t)h * n) >> 32); }
/* Both buckets from one 64-bit mix of the key (murmur3's finaliser, a bijection):
 * its low half picks the first, its high half the second. CRCs are linear, which
 * clusters structured keys (consecutive UEs) into few buckets. */
static inline uint64_t ft_mix(uint64_t k)
{
	k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ull; k ^= k >> 33;
	return k;
}
static inline uint32_t ft_b1(const struct ftable *t, uint64_t k) { return ft_range((uint32_t)ft_mix(k), t->nb); }
static inline uint32_t ft_b2(const struct ftable *t, uint64_t k) { return ft_range((uint32_t)(ft_mix(k) >> 32), t->nb); }
static inline uint8_t *ft_bucket(const struct ftable *t, uint32_t i) { return t->b + (size_t)i * FT_BUCKET; }
/* Writer side: the value of the entry ft_find found. */
static inline const uint8_t *ft_value(const struct ftable *t, uint32_t bi, unsigned si)
{
	return ft_bucket(t, bi) + FT_HDR + si * t->slot_size + 8;
}

/* Reader: 1 and the value copied to val, or 0. */
static inline int ft_probe(const struct ftable *t, uint32_t bi, uint64_t key, void *val)
{
	const uint8_t *bk = ft_bucket(t, bi);
	for (;;) {
		uint32_t v1 = __atomic_load_n((const uint32_t *)bk, __ATOMIC_ACQUIRE);
		if (v1 & 1) {
			rte_pause();
			continue;
		}
		uint8_t used = __atomic_load_n(bk + 4, __ATOMIC_RELAXED);
		int hit = 0;
		for (unsigned s = 0; s < t->slots; s++) {
			const uint8_t *sl = bk + FT_HDR + s * t->slot_size;
			uint64_t k;
			memcpy(&k, sl, 8);
			if ((used >> s & 1) && k == key) {
				memcpy(val, sl + 8, t->vlen);
				hit = 1;
				break;
			}
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n((const uint32_t *)bk, __ATOMIC_RELAXED) == v1)
			return hit;
	}
}

static inline int ft_lookup(const struct ftable *t, uint64_t key, uint32_t b1, uint32_t b2, void *val)
{
	for (;;) {
		uint32_t mv = __atomic_load_n(&t->moves, __ATOMIC_ACQUIRE);
		if (ft_probe(t, b1, key, val) || ft_probe(t, b2, key, val))
			return 1;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(mv & 1) && __atomic_load_n(&t->moves, __ATOMIC_RELAXED) == mv)
			return 0;
	}
}

#endif
