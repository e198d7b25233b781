/* The ciphering and integrity service (see crypto_svc.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rte_malloc.h>
#include "crypto_svc.h"
#include "pdcp.h"
#include "svc.h"

struct crypto_ue {
	struct nr_nea2 *enc;
	struct nr_nia2 *integ;   /* NULL without integrity */
	uint32_t rx_deliv;
	uint8_t bearer, sn_bits;
};

struct crypto_svc {
	uint32_t max_ues;
	struct crypto_stats st;
	struct crypto_ue ue[];
};

static const char *const drop_names[CRYPTO_DROP_REASONS] = {
	[CRYPTO_DROP_MALFORMED] = "malformed", [CRYPTO_DROP_BAD_OP] = "bad_op",
	[CRYPTO_DROP_NO_UE] = "no_ue", [CRYPTO_DROP_PDCP] = "pdcp_truncated",
	[CRYPTO_DROP_NOT_DATA] = "not_data", [CRYPTO_DROP_SN_MISMATCH] = "sn_mismatch",
	[CRYPTO_DROP_NO_ROOM] = "no_tailroom", [CRYPTO_DROP_SHORT] = "shorter_than_mac",
	[CRYPTO_DROP_MAC] = "mac_failed", [CRYPTO_DROP_LIBCRYPTO] = "libcrypto",
};

const char *crypto_drop_name(enum crypto_drop d)
{
	return d < CRYPTO_DROP_REASONS ? drop_names[d] : "?";
}

struct crypto_svc *crypto_svc_create(uint32_t max_ues)
{
	struct crypto_svc *c = rte_zmalloc("gnb_crypto", sizeof(*c) + (size_t)max_ues * sizeof(c->ue[0]), 0);
	if (c)
		c->max_ues = max_ues;
	return c;
}

void crypto_svc_ue_del(struct crypto_svc *c, uint32_t ue)
{
	if (ue >= c->max_ues)
		return;
	nr_nea2_free(c->ue[ue].enc);
	nr_nia2_free(c->ue[ue].integ);
	memset(&c->ue[ue], 0, sizeof(c->ue[ue]));
}

void crypto_svc_free(struct crypto_svc *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->max_ues; i++)
		crypto_svc_ue_del(c, i);
	rte_free(c);
}

int crypto_svc_ue_set(struct crypto_svc *c, uint32_t ue, const struct crypto_ue_cfg *cfg)
{
	if (ue >= c->max_ues || !pdcp_data_hdr_len(cfg->sn_bits) || cfg->bearer > 0x1f)
		return -EINVAL;
	struct crypto_ue u = { .rx_deliv = cfg->rx_deliv, .bearer = cfg->bearer, .sn_bits = cfg->sn_bits };
	u.enc = nr_nea2_new(cfg->enc_key);
	if (cfg->integrity)
		u.integ = nr_nia2_new(cfg->int_key);
	if (!u.enc || (cfg->integrity && !u.integ)) {
		nr_nea2_free(u.enc);
		nr_nia2_free(u.integ);
		return -ENOMEM;
	}
	crypto_svc_ue_del(c, ue);
	c->ue[ue] = u;
	return 0;
}

const struct crypto_stats *crypto_svc_stats(const struct crypto_svc *c)
{
	return &c->st;
}

struct data_pdu {
	uint8_t *pdu;
	size_t len;
	struct pdcp_pdu p;
};

/* The PDCP data PDU of a frame; a drop reason, or -1. */
static int parse_data(const struct crypto_ue *u, struct rte_mbuf *m, struct data_pdu *d)
{
	d->pdu = rte_pktmbuf_mtod_offset(m, uint8_t *, GNB_SVC_PDU_OFF);
	d->len = m->data_len - GNB_SVC_PDU_OFF;
	if (pdcp_parse(d->pdu, d->len, u->sn_bits, &d->p) != PDCP_OK)
		return CRYPTO_DROP_PDCP;
	return d->p.kind == PDCP_DATA ? -1 : CRYPTO_DROP_NOT_DATA;
}

/* Downlink (TS 38.323 §5.9 then §5.8): MAC-I over header and SDU appended, then SDU and MAC-I ciphered. */
static int protect(struct crypto_ue *u, struct rte_mbuf *m, uint32_t count)
{
	struct data_pdu d;
	int drop = parse_data(u, m, &d);
	if (drop >= 0)
		return drop;
	uint8_t *pdu = d.pdu;
	size_t len = d.len;
	if (d.p.sn != (count & ((1u << u->sn_bits) - 1)))
		return CRYPTO_DROP_SN_MISMATCH;
	if (u->integ) {
		if (rte_pktmbuf_tailroom(m) < NR_SEC_MAC_LEN)
			return CRYPTO_DROP_NO_ROOM;
		uint8_t *mac = (uint8_t *)rte_pktmbuf_append(m, NR_SEC_MAC_LEN);
		if (nr_nia2(u->integ, count, u->bearer, NR_DIR_DOWNLINK, pdu, len, mac))
			return CRYPTO_DROP_LIBCRYPTO;
		len += NR_SEC_MAC_LEN;
	}
	if (nr_nea2(u->enc, count, u->bearer, NR_DIR_DOWNLINK, pdu + d.p.hdr_len, pdu + d.p.hdr_len, len - d.p.hdr_len))
		return CRYPTO_DROP_LIBCRYPTO;
	return -1;
}

/* Uplink: COUNT from RX_DELIV, deciphered, MAC-I checked and stripped; RX_DELIV moves only for a good PDU. */
static int unprotect(struct crypto_ue *u, struct rte_mbuf *m, struct gnb_svc_hdr *h)
{
	struct data_pdu d;
	int drop = parse_data(u, m, &d);
	if (drop >= 0)
		return drop;
	size_t mac_len = u->integ ? NR_SEC_MAC_LEN : 0;
	if (d.len < d.p.hdr_len + mac_len)
		return CRYPTO_DROP_SHORT;
	uint32_t count = pdcp_rx_count(u->rx_deliv, d.p.sn, u->sn_bits);
	uint8_t *body = d.pdu + d.p.hdr_len; /* SDU || MAC-I */
	if (nr_nea2(u->enc, count, u->bearer, NR_DIR_UPLINK, body, body, d.len - d.p.hdr_len))
		return CRYPTO_DROP_LIBCRYPTO;
	if (u->integ) {
		uint8_t mac[NR_SEC_MAC_LEN];
		if (nr_nia2(u->integ, count, u->bearer, NR_DIR_UPLINK, d.pdu, d.len - mac_len, mac))
			return CRYPTO_DROP_LIBCRYPTO;
		if (memcmp(mac, d.pdu + d.len - mac_len, mac_len))
			return CRYPTO_DROP_MAC;
		rte_pktmbuf_trim(m, NR_SEC_MAC_LEN);
	}
	if ((int32_t)(count + 1 - u->rx_deliv) > 0)
		u->rx_deliv = count + 1;
	h->count = rte_cpu_to_be_32(count);
	return -1;
}

uint16_t crypto_svc_burst(struct crypto_svc *c, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t kept = 0;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		struct gnb_svc_hdr *h = gnb_svc_hdr(m);
		int drop;
		if (!h) {
			drop = CRYPTO_DROP_MALFORMED;
		} else {
			uint32_t ue = rte_be_to_cpu_32(h->ue);
			struct crypto_ue *u = ue < c->max_ues ? &c->ue[ue] : NULL;
			if (!u || !u->enc)
				drop = CRYPTO_DROP_NO_UE;
			else if (h->op == GNB_OP_DL_PROTECT)
				drop = protect(u, m, rte_be_to_cpu_32(h->count));
			else if (h->op == GNB_OP_UL_UNPROTECT)
				drop = unprotect(u, m, h);
			else
				drop = CRYPTO_DROP_BAD_OP;
			if (drop < 0) {
				if (h->op == GNB_OP_DL_PROTECT)
					c->st.protected_pdus++;
				else
					c->st.unprotected_pdus++;
			}
		}
		if (drop >= 0) {
			c->st.drops[drop]++;
			rte_pktmbuf_free(m);
		} else {
			pkts[kept++] = m;
		}
	}
	return kept;
}
