/* Receive-ring drops of the af_packet PMD's queue sockets.
 *
 * DPDK 22.11's af_packet PMD reports no imissed: a frame the kernel finds no free slot for in a queue
 * socket's RX ring (the forwarding lcore kept off its CPU for longer than the ring lasts) is counted only in
 * that socket's PACKET_STATISTICS, which the PMD never reads. So a busy machine's ring overflows were drops
 * nobody counted. A port's queue sockets are found once the port exists, by the interface they are bound
 * to; the kernel resets the statistics on every read, so each read is added to the port's total. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "io_int.h"

#define AFP_MAX_QUEUE_SOCKETS 64

static struct {
	pthread_mutex_t lock;
	struct {
		int fd[AFP_MAX_QUEUE_SOCKETS];
		unsigned n;
		uint64_t drops;
	} port[DP_MAX_PORTS];
} afp = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int tracked(int fd)
{
	for (unsigned p = 0; p < DP_MAX_PORTS; p++)
		for (unsigned q = 0; q < afp.port[p].n; q++)
			if (afp.port[p].fd[q] == fd)
				return 1;
	return 0;
}

static int bound_to(int fd, int ifindex)
{
	int domain = 0;
	socklen_t len = sizeof(domain);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) || domain != AF_PACKET)
		return 0;
	struct sockaddr_ll sll;
	len = sizeof(sll);
	return !getsockname(fd, (struct sockaddr *)&sll, &len) && sll.sll_ifindex == ifindex;
}

int afp_stats_track(unsigned port, const char *iface)
{
	int ifindex = (int)if_nametoindex(iface);
	if (!ifindex || port >= DP_MAX_PORTS)
		return -ENODEV;
	DIR *dir = opendir("/proc/self/fd");
	if (!dir)
		return -errno;
	pthread_mutex_lock(&afp.lock);
	struct dirent *e;
	while ((e = readdir(dir)) && afp.port[port].n < AFP_MAX_QUEUE_SOCKETS) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);
		if (*end || end == e->d_name || fd == dirfd(dir) || tracked((int)fd) || !bound_to((int)fd, ifindex))
			continue;
		afp.port[port].fd[afp.port[port].n++] = (int)fd;
	}
	unsigned found = afp.port[port].n;
	pthread_mutex_unlock(&afp.lock);
	closedir(dir);
	return found ? (int)found : -ENOENT;
}

uint64_t afp_stats_rx_drops(unsigned port)
{
	if (port >= DP_MAX_PORTS)
		return 0;
	pthread_mutex_lock(&afp.lock);
	for (unsigned q = 0; q < afp.port[port].n; q++) {
		struct tpacket_stats st;
		socklen_t len = sizeof(st);
		if (!getsockopt(afp.port[port].fd[q], SOL_PACKET, PACKET_STATISTICS, &st, &len))
			afp.port[port].drops += st.tp_drops;
	}
	uint64_t drops = afp.port[port].drops;
	pthread_mutex_unlock(&afp.lock);
	return drops;
}
