/* The writer side of ftable.h (the control thread only). */
#include <errno.h>
#include <rte_malloc.h>
#include "ftable.h"
#include "mem.h"

#define FT_MAX_PATH 128
#define FT_WALKS 8

int ft_init(struct ftable *t, uint32_t cap, uint8_t vlen)
{
	memset(t, 0, sizeof(*t));
	t->vlen = vlen;
	t->slot_size = (uint8_t)(8 + vlen);
	t->slots = (uint8_t)((FT_BUCKET - FT_HDR) / t->slot_size);
	t->cap = cap;
	/* At most 70 % of the slots in use at the declared capacity. */
	uint64_t nb = ((uint64_t)cap * 10 + 7ull * t->slots - 1) / (7ull * t->slots);
	t->nb = (uint32_t)(nb < 2 ? 2 : nb);
	t->rnd = 0x2545f4914f6cdd1dull;
	t->b = dp_zalloc_resident((size_t)t->nb * FT_BUCKET, FT_BUCKET);
	return t->b ? 0 : -ENOMEM;
}

void ft_fini(struct ftable *t)
{
	rte_free(t->b);
	t->b = NULL;
}

static inline uint8_t *slot_at(const struct ftable *t, uint32_t bi, unsigned si)
{
	return ft_bucket(t, bi) + FT_HDR + si * t->slot_size;
}

static inline uint8_t used_bits(const struct ftable *t, uint32_t bi) { return ft_bucket(t, bi)[4]; }

static inline uint64_t key_at(const struct ftable *t, uint32_t bi, unsigned si)
{
	uint64_t k;
	memcpy(&k, slot_at(t, bi, si), 8);
	return k;
}

/* Sequence lock of one bucket: odd while it changes. */
static void wbegin(uint8_t *bk)
{
	uint32_t v = *(uint32_t *)bk;
	__atomic_store_n((uint32_t *)bk, v + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void wend(uint8_t *bk)
{
	uint32_t v = *(uint32_t *)bk;
	__atomic_store_n((uint32_t *)bk, v + 1, __ATOMIC_RELEASE);
}

static void put(struct ftable *t, uint32_t bi, unsigned si, uint64_t key, const void *val)
{
	uint8_t *bk = ft_bucket(t, bi), *sl = slot_at(t, bi, si);
	wbegin(bk);
	memcpy(sl, &key, 8);
	memcpy(sl + 8, val, t->vlen);
	__atomic_store_n(bk + 4, (uint8_t)(bk[4] | 1u << si), __ATOMIC_RELAXED);
	wend(bk);
}

static void clear(struct ftable *t, uint32_t bi, unsigned si)
{
	uint8_t *bk = ft_bucket(t, bi);
	wbegin(bk);
	__atomic_store_n(bk + 4, (uint8_t)(bk[4] & ~(1u << si)), __ATOMIC_RELAXED);
	wend(bk);
}

static int free_slot(const struct ftable *t, uint32_t bi)
{
	uint8_t used = used_bits(t, bi);
	for (unsigned s = 0; s < t->slots; s++)
		if (!(used >> s & 1))
			return (int)s;
	return -1;
}

int ft_find(const struct ftable *t, uint64_t key, uint32_t *bi, unsigned *si)
{
	uint32_t b[2] = { ft_b1(t, key), ft_b2(t, key) };
	for (int i = 0; i < 2; i++) {
		uint8_t used = used_bits(t, b[i]);
		for (unsigned s = 0; s < t->slots; s++)
			if ((used >> s & 1) && key_at(t, b[i], s) == key) {
				*bi = b[i];
				*si = s;
				return 1;
			}
	}
	return 0;
}

void ft_update(struct ftable *t, uint32_t bi, unsigned si, const void *val)
{
	uint8_t *bk = ft_bucket(t, bi);
	wbegin(bk);
	memcpy(slot_at(t, bi, si) + 8, val, t->vlen);
	wend(bk);
}

void ft_delete(struct ftable *t, uint32_t bi, unsigned si)
{
	clear(t, bi, si);
	t->n--;
}

uint32_t ft_dump(const struct ftable *t, uint32_t *bi, uint64_t *keys, uint8_t *vals, uint32_t max)
{
	uint32_t n = 0;
	for (; *bi < t->nb && n + t->slots <= max; (*bi)++) {
		uint8_t used = used_bits(t, *bi);
		for (unsigned s = 0; s < t->slots; s++)
			if (used >> s & 1) {
				keys[n] = key_at(t, *bi, s);
				memcpy(vals + (size_t)n * t->vlen, slot_at(t, *bi, s) + 8, t->vlen);
				n++;
			}
	}
	return n;
}

static uint32_t rnd(struct ftable *t)
{
	t->rnd ^= t->rnd << 13;
	t->rnd ^= t->rnd >> 7;
	t->rnd ^= t->rnd << 17;
	return (uint32_t)(t->rnd >> 16);
}

static int on_path(const uint32_t *pb, const uint8_t *ps, int d, uint32_t b, unsigned s)
{
	for (int i = 0; i < d; i++)
		if (pb[i] == b && ps[i] == s)
			return 1;
	return 0;
}

/* Random walk from one of the key's buckets: entry after entry is pushed to its
 * other bucket until one has a free slot; the path is recorded first (no slot
 * twice), then executed from its end so that every move lands in a free slot and
 * every entry stays findable in one of its buckets throughout. */
static int walk(struct ftable *t, uint64_t key, const void *val, uint32_t start)
{
	uint32_t pb[FT_MAX_PATH];
	uint8_t ps[FT_MAX_PATH];
	uint32_t cur = start;
	for (int d = 0; d < FT_MAX_PATH; d++) {
		unsigned s = rnd(t) % t->slots, tries = 0;
		while (on_path(pb, ps, d, cur, s) && ++tries < t->slots)
			s = (s + 1) % t->slots;
		if (tries == t->slots)
			return -ENOSPC;
		pb[d] = cur;
		ps[d] = (uint8_t)s;
		uint64_t k = key_at(t, cur, s);
		uint32_t b1 = ft_b1(t, k), alt = b1 == cur ? ft_b2(t, k) : b1;
		int fs = free_slot(t, alt);
		if (fs < 0) {
			cur = alt;
			continue;
		}
		uint32_t to_b = alt;
		unsigned to_s = (unsigned)fs;
		for (int j = d; j >= 0; j--) {
			uint8_t v[16];
			memcpy(v, slot_at(t, pb[j], ps[j]) + 8, t->vlen);
			__atomic_store_n(&t->moves, t->moves + 1, __ATOMIC_RELAXED);
			__atomic_thread_fence(__ATOMIC_RELEASE);
			put(t, to_b, to_s, key_at(t, pb[j], ps[j]), v);
			clear(t, pb[j], ps[j]);
			__atomic_store_n(&t->moves, t->moves + 1, __ATOMIC_RELEASE);
			to_b = pb[j];
			to_s = ps[j];
		}
		put(t, to_b, to_s, key, val);
		return 0;
	}
	return -ENOSPC;
}

int ft_insert(struct ftable *t, uint64_t key, const void *val)
{
	if (t->n >= t->cap)
		return -ENOSPC;
	uint32_t b[2] = { ft_b1(t, key), ft_b2(t, key) };
	for (int i = 0; i < 2; i++) {
		int s = free_slot(t, b[i]);
		if (s >= 0) {
			put(t, b[i], (unsigned)s, key, val);
			t->n++;
			return 0;
		}
	}
	for (int w = 0; w < FT_WALKS; w++)
		if (!walk(t, key, val, b[w & 1])) {
			t->n++;
			return 0;
		}
	return -ENOSPC;
}
