/* The frame between the P4 switch and the x86 services: Ethernet with ethertype GNB_SVC_ETHERTYPE
 * (IEEE 802 local experimental), the service header below, then the PDCP PDU. The switch writes
 * the UE's index and, downlink, the PDU's COUNT (its per-UE TX_NEXT register; the SN in the PDCP
 * header is COUNT's low bits); the crypto service writes the COUNT it derived for uplink PDUs. */
#ifndef GNB_SVC_H
#define GNB_SVC_H

#include <stdint.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#define GNB_SVC_ETHERTYPE 0x88B5

enum gnb_svc_op {
	GNB_OP_DL_PROTECT = 1,   /* to the crypto service: add MAC-I when configured, cipher */
	GNB_OP_UL_UNPROTECT = 2, /* to the crypto service: decipher, check and strip MAC-I */
	GNB_OP_BUFFER = 3,       /* to BaaS: a copy of a protected downlink PDU to hold until acknowledged */
	GNB_OP_STATUS = 4,       /* to BaaS: a UE's PDCP status report */
	GNB_OP_RETX = 5,         /* from BaaS: a held PDU sent again */
};

struct gnb_svc_hdr {
	rte_be32_t ue;
	rte_be32_t count;
	uint8_t op;
	uint8_t rsvd[3];
} __rte_packed;

#define GNB_SVC_PDU_OFF (sizeof(struct rte_ether_hdr) + sizeof(struct gnb_svc_hdr))

/* The service header of a single-segment frame of ours, NULL for anything else (too short,
 * another ethertype, chained mbufs: the switch sends whole PDUs in one buffer). */
static inline struct gnb_svc_hdr *gnb_svc_hdr(struct rte_mbuf *m)
{
	if (m->nb_segs != 1 || m->data_len < GNB_SVC_PDU_OFF)
		return NULL;
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	if (eth->ether_type != rte_cpu_to_be_16(GNB_SVC_ETHERTYPE))
		return NULL;
	return rte_pktmbuf_mtod_offset(m, struct gnb_svc_hdr *, sizeof(struct rte_ether_hdr));
}

#endif
