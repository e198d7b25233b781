/* RPS on a trace: observations replayed through dp_rps_step (the backend's FIFO RPS, mode 1) at point IN,
 * for tools/hupf_tools/rps/bench.py, which runs the reference model on the same trace and requires the same
 * event counts.
 *
 *   rpsreplay TRACE   (writes to stdout)
 *
 * TRACE (all little-endian): u32 magic "RPR2", buffer_len, flows, track_depth, quiet_us, select_threshold, nobs;
 * then nobs x (u32 flow, digest, ts_us, disc_threshold).
 * Output: "E <8 event counts of point IN>" (RPS_EV_* order), then "P <observations> <wall s>" (the loop alone). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <rte_eal.h>
#include "dp_int.h"

#define MAGIC 0x32525052u   /* "RPR2" */

int main(int argc, char **argv)
{
	if (argc != 2)
		return fprintf(stderr, "usage: rpsreplay TRACE\n"), 2;
	FILE *f = fopen(argv[1], "rb");
	uint32_t h[7];
	if (!f || fread(h, sizeof(h[0]), 7, f) != 7 || h[0] != MAGIC)
		return fprintf(stderr, "rpsreplay: %s is not an RPR2 trace\n", argv[1]), 2;
	uint32_t nobs = h[6];
	uint32_t (*obs)[4] = malloc(sizeof(*obs) * (size_t)nobs);
	if (!obs || fread(obs, sizeof(*obs), nobs, f) != nobs)
		return fprintf(stderr, "rpsreplay: %s is cut short\n", argv[1]), 2;
	fclose(f);
	char *eal[] = { "rpsreplay", "-m", "512", "--no-pci", "--no-shconf", "--no-telemetry", "--no-huge",
			"--log-level=lib.*:error", "-l", "0" };
	if (rte_eal_init((int)RTE_DIM(eal), eal) < 0)
		return fprintf(stderr, "rpsreplay: EAL init failed\n"), 1;
	struct dp_rps_state *s = dp_rps_state_new(h[1], h[2], h[3]);
	if (!s)
		return fprintf(stderr, "rpsreplay: no state for %u receipts, %u flows, tracker depth %u\n", h[1], h[2],
			       h[3]), 1;
	const struct dp_rps_params prm = { RPS_MODE_DATA_PLANE, h[4], h[5], h[1] };
	struct dp_rps_receipt out;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint32_t i = 0; i < nobs; i++)
		dp_rps_step(s, RPS_POINT_IN, (uint16_t)obs[i][0], obs[i][1], obs[i][2], obs[i][3], &prm, &out);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("E");
	for (int k = 0; k < RPS_EVENTS; k++)
		printf(" %lu", (unsigned long)s->events[RPS_POINT_IN * RPS_EVENTS + k]);
	printf("\nP %u %.6f\n", nobs, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
	dp_rps_state_free(s);
	free(obs);
	return 0;
}
