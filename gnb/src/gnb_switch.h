/* The gNB switch's stand-in: p4src/gnb/gnb.p4's pipeline in C, table for table (docs/GNB.md, "The switch
 * stand-in"), for machines without bmv2, as hupf-backend --profile hw stands in for hupf's switch. Its
 * tables are written with the contract's names and values (gnb_switch_entries.h); a frame goes through
 * gnb_switch_packet, which gives it (and the BaaS copy of a protected downlink PDU) its egress port or frees
 * it and counts the drop by the P4 program's reasons. One instance per lcore, no lock. */
#ifndef GNB_SWITCH_H
#define GNB_SWITCH_H

#include <stdint.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include "gnb_p4const.h"

#define GNB_SW_PORTS 512   /* bit<9> ports */

/* HupfGnbIngress.services' default action set_services. */
struct gnb_sw_services {
	uint16_t crypto, baas, n3;
	uint32_t n3_addr;        /* host order */
	struct rte_ether_addr n3_mac, upf_mac;
};

/* HupfGnbIngress.air: set_air. */
struct gnb_sw_air {
	uint16_t port;
	uint8_t lcid;
	struct rte_ether_addr ue_mac, gnb_mac;
};

/* HupfGnbIngress.ul_tunnels: set_ul_tunnel. */
struct gnb_sw_ul_tunnel {
	uint32_t teid, upf_addr;   /* host order */
	uint8_t qfi, sn18;
};

/* Per-UE counters of the P4 program (dl_pdus, ul_pdus: packets and bytes at ingress). */
struct gnb_sw_ue_counters {
	uint64_t dl_pkts, dl_bytes, ul_pkts, ul_bytes, status_reports, retransmissions;
};

struct gnb_sw_out {
	struct rte_mbuf *m;
	uint16_t port;
};

struct gnb_switch;

struct gnb_switch *gnb_switch_create(uint32_t max_ues, struct rte_mempool *copies);
void gnb_switch_free(struct gnb_switch *sw);

/* Table writes (insert or modify); -EINVAL for a value out of its P4 width or a UE index >= max_ues,
 * -ENOSPC for a full table. */
int gnb_switch_port_role(struct gnb_switch *sw, uint16_t port, uint8_t role);
void gnb_switch_services(struct gnb_switch *sw, const struct gnb_sw_services *s);
int gnb_switch_dl_ue(struct gnb_switch *sw, uint32_t teid, uint32_t ue, uint8_t sn18);
int gnb_switch_air(struct gnb_switch *sw, uint32_t ue, const struct gnb_sw_air *a);
int gnb_switch_ul_ue(struct gnb_switch *sw, uint16_t port, const struct rte_ether_addr *ue_mac, uint32_t ue,
		     uint8_t lcid);
int gnb_switch_ul_tunnel(struct gnb_switch *sw, uint32_t ue, const struct gnb_sw_ul_tunnel *t);
/* The packet replication engine's clone session (one replica). */
int gnb_switch_clone_session(struct gnb_switch *sw, uint32_t id, uint16_t port);

/* One frame in from in_port: its outputs (0: dropped, counted, freed; 2: a protected PDU and its BaaS copy). */
unsigned gnb_switch_packet(struct gnb_switch *sw, uint16_t in_port, struct rte_mbuf *m, struct gnb_sw_out out[2]);

/* The P4 program's counters and register. */
const uint64_t *gnb_switch_drops(const struct gnb_switch *sw);   /* GNB_DROPS_SIZE cells */
const struct gnb_sw_ue_counters *gnb_switch_ue_counters(const struct gnb_switch *sw, uint32_t ue);
uint32_t gnb_switch_tx_next(const struct gnb_switch *sw, uint32_t ue);
/* Clone copies that could not be made (mbuf pool empty): the PDU goes to the UE, BaaS never holds it. */
uint64_t gnb_switch_copy_failed(const struct gnb_switch *sw);
const char *gnb_switch_drop_name(unsigned reason);

#endif
