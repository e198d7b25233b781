/* The ciphering and integrity service: PDCP data PDUs of DRBs protected downlink and unprotected
 * uplink (TS 38.323 §5.8, §5.9) with each UE's NEA2 / NIA2 key contexts, made once when the UE is
 * set. One instance per lcore; the switch steers each UE to one instance (its contexts are not
 * shared between lcores). Whatever cannot be processed is freed and counted by reason. */
#ifndef GNB_CRYPTO_SVC_H
#define GNB_CRYPTO_SVC_H

#include <stdint.h>
#include <rte_mbuf.h>
#include "nr_sec.h"

enum crypto_drop {
	CRYPTO_DROP_MALFORMED,    /* not a service frame */
	CRYPTO_DROP_BAD_OP,       /* an op this service does not do */
	CRYPTO_DROP_NO_UE,        /* no context for the UE */
	CRYPTO_DROP_PDCP,         /* truncated PDCP header */
	CRYPTO_DROP_NOT_DATA,     /* a control PDU (the switch sends status reports to BaaS) */
	CRYPTO_DROP_SN_MISMATCH,  /* downlink: the header's SN is not the COUNT's low bits */
	CRYPTO_DROP_NO_ROOM,      /* downlink: no tailroom for MAC-I */
	CRYPTO_DROP_SHORT,        /* uplink: shorter than MAC-I */
	CRYPTO_DROP_MAC,          /* uplink: MAC-I check failed */
	CRYPTO_DROP_LIBCRYPTO,    /* libcrypto refused an operation */
	CRYPTO_DROP_REASONS
};

struct crypto_stats {
	uint64_t protected_pdus, unprotected_pdus;
	uint64_t drops[CRYPTO_DROP_REASONS];
};

struct crypto_ue_cfg {
	uint8_t enc_key[NR_SEC_KEY_LEN];
	uint8_t int_key[NR_SEC_KEY_LEN];
	uint8_t integrity;      /* NIA2 on this DRB */
	uint8_t bearer;         /* BEARER input of the algorithms (RB identity - 1) */
	uint8_t sn_bits;        /* 12 or 18 */
	uint32_t rx_deliv;      /* uplink RX_DELIV to start from (0 for a new bearer) */
};

struct crypto_svc;

struct crypto_svc *crypto_svc_create(uint32_t max_ues);
void crypto_svc_free(struct crypto_svc *c);
/* Sets (or replaces) UE ue's context. 0, or -EINVAL (index, SN length), -ENOMEM (libcrypto). */
int crypto_svc_ue_set(struct crypto_svc *c, uint32_t ue, const struct crypto_ue_cfg *cfg);
void crypto_svc_ue_del(struct crypto_svc *c, uint32_t ue);
/* Processes n frames in place; keeps the processed ones at the front of pkts (in order) and
 * returns how many; the others are freed and counted. */
uint16_t crypto_svc_burst(struct crypto_svc *c, struct rte_mbuf **pkts, uint16_t n);
const struct crypto_stats *crypto_svc_stats(const struct crypto_svc *c);
const char *crypto_drop_name(enum crypto_drop d);

#endif
