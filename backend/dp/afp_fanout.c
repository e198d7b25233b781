/* The af_packet PMD's fanout group, made unique per host.
 *
 * DPDK 22.11's af_packet PMD puts every queue socket of a port in the PACKET_FANOUT group
 * (getpid() ^ ifindex) & 0xffff, with one queue too. A group id is unique per network namespace and bound to
 * one device, so two processes on one host (the lab's switch and backend, several backends) collide whenever
 * pidA ^ ifindexA == pidB ^ ifindexB, and the kernel refuses the second one's socket with EINVAL: the port
 * cannot be created and hupf-backend exits ("could not set PACKET_FANOUT ... Invalid argument"). Consecutive
 * pids and the two ends of one veth (consecutive ifindexes) make that a few-percent event per lab run.
 *
 * hupf-backend defines setsockopt, which the PMD's call binds to (the executable comes first in the dynamic
 * linker's search): a PACKET_FANOUT the kernel refuses with EINVAL is retried with an id the kernel picks
 * unused (PACKET_FANOUT_FLAG_UNIQUEID, Linux 4.20), and the port's other queue sockets, which ask for the
 * same id, join that one. Every other call goes straight to the system call, as libc's would. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_packet.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_log.h>

#define FANOUT_REMAPS 64 /* ports of one process whose group was moved; a ring, the oldest forgotten */

static struct {
	pthread_mutex_t lock;
	struct {
		uint16_t asked, given;
	} remap[FANOUT_REMAPS];
	unsigned n; /* remaps made, ever: the next one's slot */
} fanout = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int sys_setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	return (int)syscall(SYS_setsockopt, fd, level, name, val, len);
}

static int join(int fd, int arg)
{
	return sys_setsockopt(fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg));
}

/* The id an earlier queue socket of this process moved `asked` to, or -1. */
static int moved_to(uint16_t asked)
{
	unsigned n = fanout.n < FANOUT_REMAPS ? fanout.n : FANOUT_REMAPS;
	for (unsigned i = 0; i < n; i++)
		if (fanout.remap[i].asked == asked)
			return fanout.remap[i].given;
	return -1;
}

static int join_somewhere(int fd, int arg)
{
	uint16_t asked = (uint16_t)(arg & 0xffff);
	int mode = arg & ~0xffff, given = moved_to(asked);
	if (!join(fd, given < 0 ? arg : mode | given))
		return 0;
	if (errno != EINVAL)
		return -1;
	/* The id is another device's group (or this socket is not bound: then the kernel refuses this too). */
	if (join(fd, mode | (PACKET_FANOUT_FLAG_UNIQUEID << 16)))
		return -1;
	int got = 0;
	socklen_t len = sizeof(got);
	if (getsockopt(fd, SOL_PACKET, PACKET_FANOUT, &got, &len))
		return -1;
	unsigned slot = fanout.n++ % FANOUT_REMAPS;
	fanout.remap[slot].asked = asked;
	fanout.remap[slot].given = (uint16_t)(got & 0xffff);
	RTE_LOG(NOTICE, USER1, "af_packet: fanout group %u is another device's (another process on this host): "
		"joined group %u, chosen by the kernel\n", asked, got & 0xffff);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	if (level != SOL_PACKET || name != PACKET_FANOUT || len != sizeof(int) || !val)
		return sys_setsockopt(fd, level, name, val, len);
	pthread_mutex_lock(&fanout.lock);
	int rc = join_somewhere(fd, *(const int *)val);
	int saved = errno;
	pthread_mutex_unlock(&fanout.lock);
	errno = saved;
	return rc;
}

