/* The ternary tables (acl, applications) as rte_acl tries: a lookup walks a
 * trie over the key bytes instead of scanning the rules, so its cost barely
 * grows with the rule count. Rules keep their match order as priorities (the
 * first matching rule wins, as in the linear order the agent pushes). A rule
 * whose value has bits outside its mask, or whose port range is empty, can
 * never match and is left out. Keys are built in network byte order, rules in
 * host order, as rte_acl wants. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <rte_byteorder.h>
#include <rte_lcore.h>
#include "dp_int.h"

enum { ACL_F_PROTO, ACL_F_SRC, ACL_F_DST, ACL_F_SPORT, ACL_F_DPORT, ACL_F_PORT, ACL_F_ETYPE,
       ACL_F_SMAC_HI, ACL_F_SMAC_LO, ACL_F_DMAC_HI, ACL_F_DMAC_LO, ACL_NF };
enum { APP_F_SLICE, APP_F_ADDR, APP_F_PORT, APP_F_PROTO, APP_NF };

RTE_ACL_RULE_DEF(acl_rule, ACL_NF);
RTE_ACL_RULE_DEF(app_rule, APP_NF);

#define F(t, sz, idx, in, st, mb) { RTE_ACL_FIELD_TYPE_##t, sz, idx, in, offsetof(struct st, mb) }
/* rte_acl reads a 1-byte first field, then 4-byte groups (input_index). */
static const struct rte_acl_field_def acl_defs[ACL_NF] = {
	F(BITMASK, 1, ACL_F_PROTO, 0, acl_key, proto),
	F(BITMASK, 4, ACL_F_SRC, 1, acl_key, ip_src),
	F(BITMASK, 4, ACL_F_DST, 2, acl_key, ip_dst),
	F(BITMASK, 2, ACL_F_SPORT, 3, acl_key, sport),
	F(BITMASK, 2, ACL_F_DPORT, 3, acl_key, dport),
	F(BITMASK, 2, ACL_F_PORT, 4, acl_key, port),
	F(BITMASK, 2, ACL_F_ETYPE, 4, acl_key, eth_type),
	F(BITMASK, 4, ACL_F_SMAC_HI, 5, acl_key, smac),
	F(BITMASK, 2, ACL_F_SMAC_LO, 6, acl_key, smac[4]),
	F(BITMASK, 2, ACL_F_DMAC_HI, 6, acl_key, dmac),
	F(BITMASK, 4, ACL_F_DMAC_LO, 7, acl_key, dmac[2]),
};
static const struct rte_acl_field_def app_defs[APP_NF] = {
	F(BITMASK, 1, APP_F_SLICE, 0, app_key, slice),
	F(BITMASK, 4, APP_F_ADDR, 1, app_key, addr),
	F(RANGE, 2, APP_F_PORT, 2, app_key, port),
	F(BITMASK, 2, APP_F_PROTO, 2, app_key, proto),
};
#undef F

static uint32_t be_bytes(const uint8_t *b, int n)
{
	uint32_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

static void bm(struct rte_acl_field *f, int size, uint32_t v, uint32_t m)
{
	if (size == 1) {
		f->value.u8 = (uint8_t)v;
		f->mask_range.u8 = (uint8_t)m;
	} else if (size == 2) {
		f->value.u16 = (uint16_t)v;
		f->mask_range.u16 = (uint16_t)m;
	} else {
		f->value.u32 = v;
		f->mask_range.u32 = m;
	}
}

/* Fills one rule's fields from value/mask pairs; 0 if the rule can never match. */
static int fields(struct rte_acl_field *f, const struct rte_acl_field_def *defs, int nf, const uint32_t *v,
		  const uint32_t *m)
{
	for (int i = 0; i < nf; i++) {
		if (defs[i].type == RTE_ACL_FIELD_TYPE_RANGE) {
			if (v[i] > m[i])
				return 0;
			f[i].value.u16 = (uint16_t)v[i];
			f[i].mask_range.u16 = (uint16_t)m[i];
			continue;
		}
		if (v[i] & ~m[i])
			return 0;
		bm(&f[i], defs[i].size, v[i], m[i]);
	}
	return 1;
}

/* Builds a trie of n rules (rule_at fills rule i, returns 0 to leave it out). */
static int build(struct rte_acl_ctx **out, const char *name, const struct rte_acl_field_def *defs, int nf,
		 uint32_t n, size_t rule_size, int (*rule_at)(const void *rules, uint32_t i, void *rule),
		 const void *rules)
{
	static unsigned seq;
	char nm[RTE_ACL_NAMESIZE];
	*out = NULL;
	if (!n)
		return 0;
	snprintf(nm, sizeof(nm), "%s%u", name, seq++);
	struct rte_acl_param prm = { .name = nm, .socket_id = (int)rte_socket_id(),
				     .rule_size = (uint32_t)RTE_ACL_RULE_SZ(nf), .max_rule_num = n };
	struct rte_acl_ctx *ctx = rte_acl_create(&prm);
	if (!ctx)
		return -ENOMEM;
	uint8_t buf[RTE_ACL_RULE_SZ(ACL_NF)];
	uint32_t added = 0;
	int rc = 0;
	for (uint32_t i = 0; i < n && !rc; i++) {
		struct rte_acl_rule *r = (struct rte_acl_rule *)buf;
		memset(buf, 0, rule_size);
		/* Earlier rules win: priorities fall with the position. */
		r->data = (struct rte_acl_rule_data){ .category_mask = 1, .priority = (int32_t)(RTE_ACL_MAX_PRIORITY - i) };
		if (!rule_at(rules, i, r))
			continue;
		rc = rte_acl_add_rules(ctx, r, 1);
		added++;
	}
	struct rte_acl_config cfg = { .num_categories = 1, .num_fields = (uint32_t)nf };
	memcpy(cfg.defs, defs, sizeof(defs[0]) * (size_t)nf);
	if (!rc && added)
		rc = rte_acl_build(ctx, &cfg);
	if (rc || !added) {
		rte_acl_free(ctx);
		return rc ? (rc == -ENOMEM ? -ENOMEM : -EINVAL) : 0;
	}
	*out = ctx;
	return 0;
}

/* userdata: the rule's action / app id + 1 (0 is rte_acl's "no match"). */
static int acl_rule_at(const void *rules, uint32_t i, void *rule)
{
	const struct dp_acl_rule *a = (const struct dp_acl_rule *)rules + i;
	struct acl_rule *r = rule;
	uint32_t v[ACL_NF] = { a->proto, a->ip_src, a->ip_dst, a->sport, a->dport, a->port, a->eth_type,
			       be_bytes(a->eth_src, 4), be_bytes(a->eth_src + 4, 2), be_bytes(a->eth_dst, 2),
			       be_bytes(a->eth_dst + 2, 4) };
	uint32_t m[ACL_NF] = { a->proto_mask, a->ip_src_mask, a->ip_dst_mask, a->sport_mask, a->dport_mask,
			       a->port_mask, a->eth_type_mask, be_bytes(a->eth_src_mask, 4),
			       be_bytes(a->eth_src_mask + 4, 2), be_bytes(a->eth_dst_mask, 2),
			       be_bytes(a->eth_dst_mask + 2, 4) };
	r->data.userdata = a->action + 1u;
	return fields(r->field, acl_defs, ACL_NF, v, m);
}

static int app_rule_at(const void *rules, uint32_t i, void *rule)
{
	const struct dp_app_rule *a = (const struct dp_app_rule *)rules + i;
	struct app_rule *r = rule;
	uint32_t v[APP_NF] = { a->slice_id, a->addr, a->port_lo, a->proto };
	uint32_t m[APP_NF] = { 0xff, a->addr_mask, a->port_hi, a->proto_mask };
	r->data.userdata = a->app_id + 1u;
	return fields(r->field, app_defs, APP_NF, v, m);
}

int classifier_build_acl(struct rte_acl_ctx **out, const struct dp_acl_rule *r, uint32_t n)
{
	return build(out, "acl", acl_defs, ACL_NF, n, sizeof(struct acl_rule), acl_rule_at, r);
}

int classifier_build_apps(struct rte_acl_ctx **out, const struct dp_app_rule *r, uint32_t n)
{
	return build(out, "app", app_defs, APP_NF, n, sizeof(struct app_rule), app_rule_at, r);
}

void acl_key_set(struct acl_key *k, const uint8_t *frame, uint16_t in_port, uint8_t proto, uint32_t src,
		 uint32_t dst, uint16_t sport, uint16_t dport)
{
	memset(k, 0, sizeof(*k));
	k->proto = proto;
	k->ip_src = rte_cpu_to_be_32(src);
	k->ip_dst = rte_cpu_to_be_32(dst);
	k->sport = rte_cpu_to_be_16(sport);
	k->dport = rte_cpu_to_be_16(dport);
	k->port = rte_cpu_to_be_16(in_port);
	memcpy(&k->eth_type, frame + 12, 2);
	memcpy(k->smac, frame + 6, 6);
	memcpy(k->dmac, frame, 6);
}

void app_key_set(struct app_key *k, uint8_t slice, uint32_t addr, uint16_t port, uint8_t proto)
{
	memset(k, 0, sizeof(*k));
	k->slice = slice;
	k->addr = rte_cpu_to_be_32(addr);
	k->port = rte_cpu_to_be_16(port);
	k->proto = rte_cpu_to_be_16(proto);
}
