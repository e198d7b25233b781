/* What the gNB benchmarks share: this thread's CPU clock (rates from CPU time, not wall time, on a shared
 * machine) and the sort of a run's figures for min / median / max. */
#ifndef GNB_BENCH_UTIL_H
#define GNB_BENCH_UTIL_H

#include <time.h>

static inline double thread_cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
