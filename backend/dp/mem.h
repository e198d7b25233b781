/* Allocation of the data plane's arrays that grow with the table capacities. */
#ifndef HUPF_MEM_H
#define HUPF_MEM_H

#include <string.h>
#include <rte_malloc.h>

/* Zeroed memory from EAL's heap, made resident now: rte_zmalloc hands out
 * zeroed pages it has never touched (without hugepages they are anonymous
 * mappings), which would fault in on the fast path the first time a packet
 * reaches them and would keep the process's RSS below what it needs with
 * traffic on every entry. Writing every byte faults them in at start. */
static inline void *dp_zalloc_resident(size_t size, unsigned align)
{
	void *p = rte_malloc(NULL, size, align);
	if (p)
		memset(p, 0, size);
	return p;
}

#endif
