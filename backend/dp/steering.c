/* hw profile: the steering tables (backend_ports, backends through its selector).
 * A session miss on the switch goes to a software backend chosen by a hash of the UE
 * address, the hash bmv2's action selector uses, so that both pick the same member. */
#include <errno.h>
#include <string.h>
#include <rte_malloc.h>
#include "dp_int.h"

uint16_t dp_crc16_be32(uint32_t v)
{
	uint16_t crc = 0;
	for (int i = 3; i >= 0; i--) {
		crc ^= (uint8_t)(v >> (8 * i));
		for (int b = 0; b < 8; b++)
			crc = crc & 1 ? (uint16_t)(crc >> 1) ^ 0xA001 : (uint16_t)(crc >> 1);
	}
	return crc;
}

int dp_backend_port(int op, uint16_t port)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (port >= DP_PORT_BITS || op < DP_INSERT || op > DP_DELETE)
		return -EINVAL;
	uint64_t *w = &p->backend_port[port / 64], bit = 1ull << (port % 64);
	int present = (*w & bit) != 0;
	if (op == DP_INSERT && present)
		return -EEXIST;
	if (op != DP_INSERT && !present)
		return -ENOENT;
	__atomic_store_n(w, op == DP_DELETE ? *w & ~bit : *w | bit, __ATOMIC_RELEASE);
	return 0;
}

int dp_backend_class(int op, uint8_t dscp, uint8_t tc)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (dscp > 63 || tc > 3 || op < DP_INSERT || op > DP_DELETE)
		return -EINVAL;
	uint8_t *c = &p->backend_class[dscp];
	if (op == DP_INSERT && *c)
		return -EEXIST;
	if (op != DP_INSERT && !*c)
		return -ENOENT;
	__atomic_store_n(c, op == DP_DELETE ? 0 : (uint8_t)(BACKEND_CLASS_SET | tc), __ATOMIC_RELAXED);
	return 0;
}

int dp_backends_set(uint8_t slice, const struct dp_backend *members, uint32_t n)
{
	int err;
	struct pipeline *p = dp_hw_pipe(&err);
	if (!p)
		return err;
	if (slice >= DP_SLICES || n > DP_BACKENDS_MAX || (n && !members))
		return -EINVAL;
	struct backend_set *set = NULL;
	if (n) {
		set = rte_malloc(NULL, sizeof(*set) + n * sizeof(set->m[0]), 0);
		if (!set)
			return -ENOMEM;
		set->n = n;
		memcpy(set->m, members, n * sizeof(set->m[0]));
	}
	struct backend_set *old = p->backends[slice];
	__atomic_store_n(&p->backends[slice], set, __ATOMIC_RELEASE);
	return old ? dp_defer_free(old) : 0;
}
