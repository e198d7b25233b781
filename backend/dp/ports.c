/* The DPDK devices of the configured ports: af_packet, af_xdp, pcap and null vdevs or a probed NIC, each
 * with one TX queue per forwarding lcore and as many RX queues as it has up to that. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rte_ethdev.h>
#include <rte_bus_vdev.h>
#include "io_int.h"

/* af_packet: what a ring frame holds besides the packet (tpacket2 header up to the MAC header), and
 * the largest L2 header around an MTU-sized IP packet (Ethernet + one VLAN tag). */
#define AFP_FRAME_OVERHEAD 64
#define L2_OVERHEAD 18
#define AFP_RING_BYTES (16u << 20)

static int port_setup(uint16_t d, unsigned nq, struct rte_mempool *pool, uint16_t *nrx, char *err, unsigned errlen)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	int rc = rte_eth_dev_info_get(d, &info);
	if (rc)
		return rc;
	if (info.max_tx_queues < nq) {
		snprintf(err, errlen, "port %u (%s): %u TX queues, fewer than the %u lcores", d, info.driver_name,
			 info.max_tx_queues, nq);
		return -EINVAL;
	}
	*nrx = (uint16_t)RTE_MIN(nq, info.max_rx_queues);
	rc = rte_eth_dev_configure(d, *nrx, (uint16_t)nq, &conf);
	for (uint16_t q = 0; !rc && q < *nrx; q++)
		rc = rte_eth_rx_queue_setup(d, q, 1024, rte_eth_dev_socket_id(d), NULL, pool);
	for (unsigned q = 0; !rc && q < nq; q++)
		rc = rte_eth_tx_queue_setup(d, (uint16_t)q, 1024, rte_eth_dev_socket_id(d), NULL);
	if (!rc)
		rc = rte_eth_dev_start(d);
	if (!rc)
		rte_eth_promiscuous_enable(d);  /* best effort: some PMDs have no such mode */
	if (rc)
		snprintf(err, errlen, "port %u (%s): setup failed: %s", d, info.driver_name ? info.driver_name : "?",
			 rte_strerror(-rc));
	return rc;
}

/* "af_packet:veth0" -> vdev net_af_packetN,iface=veth0; "af_xdp:IF", "null",
 * "pcap:<pcap vdev args>" likewise; "pci:0000:3b:00.0" is a NIC that EAL probed
 * (allowed with -a). */
static int is_kind(const char *kind, size_t klen, const char *want)
{
	return klen == strlen(want) && !strncmp(kind, want, klen);
}

/* Frames of an af_packet ring: AFP_RING_BYTES of them (at least the PMD's default 512), so that a forwarding
 * lcore preempted on a shared CPU for tens of milliseconds finds the frames that arrived meanwhile still in
 * the kernel's ring: 8,192 frames of 2 KB, 1,365 of 12 KB (MTU 9000). */
static unsigned afp_frame_count(unsigned framesz)
{
	return RTE_MAX(512u, AFP_RING_BYTES / framesz);
}

int port_attach(const struct dp_port_cfg *pc, unsigned i, unsigned nq, struct rte_mempool *pool, unsigned afp_frame,
		uint16_t *d, uint16_t *nrx, char *err, unsigned errlen)
{
	char name[64], args[256];
	const char *c = strchr(pc->dev, ':');
	const char *kind = pc->dev;
	int sink = 0;
	size_t klen = c ? (size_t)(c - kind) : strlen(kind);
	if (is_kind(kind, klen, "af_packet") && c) {
		/* Ring frames as large as the biggest port MTU needs (af_packet's default, 2048 B, cuts
		 * longer frames short). One frame per block: the PMD finds frame i at i * framesz, so
		 * frames must tile the blocks exactly. */
		snprintf(name, sizeof(name), "net_af_packet%u", i);
		snprintf(args, sizeof(args), "iface=%s,qpairs=%u,framesz=%u,blocksz=%u,framecnt=%u", c + 1, nq,
			 afp_frame, RTE_MAX(afp_frame, 4096u), afp_frame_count(afp_frame));
	} else if (is_kind(kind, klen, "af_xdp") && c) {
		snprintf(name, sizeof(name), "net_af_xdp%u", i);
		snprintf(args, sizeof(args), "iface=%s,queue_count=%u", c + 1, nq);
	} else if (is_kind(kind, klen, "pcap") && c) {
		snprintf(name, sizeof(name), "net_pcap%u", i);
		snprintf(args, sizeof(args), "%s", c + 1);
	} else if (!strcmp(kind, "null")) {
		/* A sink: what is sent to it is dropped (counted as its TX), and it is never polled: DPDK's null
		 * PMD answers every RX poll with a full burst of 64-byte frames, so a polled null port gave its
		 * lcore work on every poll and the lcore never napped (a whole CPU, shared on a small machine
		 * with other lcores, which it then kept off that CPU; docs/BACKENDS.md). */
		snprintf(name, sizeof(name), "net_null%u", i);
		args[0] = 0;
		sink = 1;
	} else if (is_kind(kind, klen, "pci") && c) {
		snprintf(name, sizeof(name), "%s", c + 1);
		if (rte_eth_dev_get_port_by_name(name, d)) {
			snprintf(err, errlen, "port %u: no DPDK device %s", pc->p4_port, pc->dev);
			return -ENODEV;
		}
		return port_setup(*d, nq, pool, nrx, err, errlen);
	} else {
		snprintf(err, errlen, "port %u: unknown device spec '%s'", pc->p4_port, pc->dev);
		return -EINVAL;
	}
	if (rte_vdev_init(name, args) || rte_eth_dev_get_port_by_name(name, d)) {
		snprintf(err, errlen, "port %u: cannot create %s (%s)", pc->p4_port, name, args);
		return -ENODEV;
	}
	int rc = port_setup(*d, nq, pool, nrx, err, errlen);
	if (sink)
		*nrx = 0;
	return rc;
}

/* The MTU of the Linux interface of an "af_packet:IFACE" port, 0 if unknown or another kind. */
unsigned port_afp_mtu(const char *dev)
{
	char path[128];
	unsigned mtu = 0;
	if (strncmp(dev, "af_packet:", 10))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", dev + 10);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%u", &mtu) != 1)
		mtu = 0;
	fclose(f);
	return mtu;
}

/* af_packet frame size for the largest MTU among the ports: the PMD's default 2048 when that is
 * enough, else whole pages (a block, which is whole pages, then holds exactly one frame). */
unsigned port_afp_frame_size(const struct dp_boot *cfg)
{
	unsigned mtu = 0;
	for (unsigned i = 0; i < cfg->nports && i < DP_MAX_PORTS; i++)
		mtu = RTE_MAX(mtu, port_afp_mtu(cfg->ports[i].dev));
	unsigned need = mtu + L2_OVERHEAD + AFP_FRAME_OVERHEAD;
	return need <= 2048 ? 2048 : RTE_ALIGN_CEIL(need, 4096u);
}
