/* The af_packet PMD's fanout group, made unique per host (afp_fanout.c). */
#ifndef HUPF_AFP_FANOUT_H
#define HUPF_AFP_FANOUT_H

/* How many af_packet ports of this process found their fanout group id taken by another device's group and
 * joined one the kernel chose instead. */
unsigned afp_fanout_moved(void);

#endif
