/* The gNB switch stand-in's parser: p4src/gnb/parser.p4's GnbParser on a frame's bytes. */
#ifndef GNB_SWITCH_PARSE_H
#define GNB_SWITCH_PARSE_H

#include <stdint.h>
#include <rte_ether.h>
#include "gnb_p4const.h"
#include "svc.h"

#define IPV4_LEN 20
#define UDP_LEN 8
#define GTPU_LEN 8
#define GTPU_OPT_LEN 4
#define GTPU_PSC_LEN 4
#define GTPU_PORT 2152
#define GTPU_GPDU 0xff
#define GTPU_NEXT_EXT_NONE 0x00
#define GTPU_NEXT_EXT_PSC 0x85
#define UL_GTPU_LEN (GTPU_LEN + GTPU_OPT_LEN + GTPU_PSC_LEN)
#define N3_HDR_LEN (RTE_ETHER_HDR_LEN + IPV4_LEN + UDP_LEN + UL_GTPU_LEN)
#define SVC_FRAME_HDR_LEN GNB_SVC_PDU_OFF
#define AIR_HDR_LEN (RTE_ETHER_HDR_LEN + MAC_SUBHDR_LEN)

/* What the P4 parser extracted: offsets into the frame, the error it stopped with. */
struct gnb_parsed {
	int error;
	uint16_t ether_type;
	uint8_t gtpu, gtpu_gpdu;   /* a GTP-U header (UDP to 2152), a G-PDU */
	uint32_t teid;
	uint16_t gtpu_end;         /* offset of the user packet */
	uint8_t mac;               /* a MAC subheader (air frame) */
	uint8_t lcid;
	uint8_t pdcp_control;      /* its PDU is a control PDU */
	uint8_t pdu_type;
	uint8_t svc;               /* a service header */
};

void gnb_switch_parse(const uint8_t *p, uint32_t len, struct gnb_parsed *r);

#endif
