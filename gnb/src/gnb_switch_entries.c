/* Table entries from text (gnb_switch_entries.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "gnb_switch_entries.h"

#define MAX_FIELDS 8
#define MAX_LINE 512

struct field {
	const char *name, *value;
	int used;
};

struct entry {
	const char *table, *action;
	struct field f[MAX_FIELDS];
	int n;
	char *err;
	size_t err_len;
	int failed;
};

static int fail(struct entry *e, const char *fmt, const char *what)
{
	if (!e->failed)
		snprintf(e->err, e->err_len, fmt, e->table, what);
	e->failed = 1;
	return -1;
}

static const char *value(struct entry *e, const char *name)
{
	for (int i = 0; i < e->n; i++)
		if (!strcmp(e->f[i].name, name)) {
			e->f[i].used = 1;
			return e->f[i].value;
		}
	fail(e, "%s: missing field %s", name);
	return NULL;
}

/* A number of at most bits bits. */
static uint32_t num(struct entry *e, const char *name, unsigned bits)
{
	const char *v = value(e, name);
	if (!v)
		return 0;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || *end || !*v || v[0] == '-' || (bits < 64 && x >> bits)) {
		fail(e, "%s: field %s is not a number of its width", name);
		return 0;
	}
	return (uint32_t)x;
}

static uint32_t ipv4(struct entry *e, const char *name)
{
	const char *v = value(e, name);
	struct in_addr a;
	if (v && inet_pton(AF_INET, v, &a) != 1) {
		fail(e, "%s: field %s is not an IPv4 address", name);
		return 0;
	}
	return v ? ntohl(a.s_addr) : 0;
}

static struct rte_ether_addr mac(struct entry *e, const char *name)
{
	struct rte_ether_addr a = { 0 };
	const char *v = value(e, name);
	if (v && rte_ether_unformat_addr(v, &a))
		fail(e, "%s: field %s is not a MAC address", name);
	return a;
}

/* The table's write, once every field was read and none is left over. */
static int write(struct entry *e, int rc)
{
	if (e->failed)
		return -1;
	for (int i = 0; i < e->n; i++)
		if (!e->f[i].used)
			return fail(e, "%s: no field %s here", e->f[i].name);
	if (rc)
		return fail(e, "%s: %s", rc == -ENOSPC ? "table full" : "a value out of range");
	return 0;
}

static int apply(struct gnb_switch *sw, struct entry *e)
{
	const char *t = e->table, *a = e->action;
	if (!strcmp(t, "ports") && !strcmp(a, "set_port_role")) {
		uint32_t port = num(e, "port", 9), role = num(e, "role", 8);
		return write(e, e->failed ? 0 : gnb_switch_port_role(sw, (uint16_t)port, (uint8_t)role));
	}
	if (!strcmp(t, "services") && !strcmp(a, "set_services")) {
		struct gnb_sw_services s = {
			.crypto = (uint16_t)num(e, "crypto", 9), .baas = (uint16_t)num(e, "baas", 9),
			.n3 = (uint16_t)num(e, "n3", 9), .n3_addr = ipv4(e, "gnb_n3_addr"),
			.n3_mac = mac(e, "gnb_n3_mac"), .upf_mac = mac(e, "upf_n3_mac"),
		};
		if (!e->failed)
			gnb_switch_services(sw, &s);
		return write(e, 0);
	}
	if (!strcmp(t, "dl_ues") && !strcmp(a, "set_dl_ue")) {
		uint32_t teid = num(e, "teid", 32), ue = num(e, "ue", 32), sn18 = num(e, "sn18", 1);
		return write(e, e->failed ? 0 : gnb_switch_dl_ue(sw, teid, ue, (uint8_t)sn18));
	}
	if (!strcmp(t, "air") && !strcmp(a, "set_air")) {
		uint32_t ue = num(e, "ue", 32);
		struct gnb_sw_air air = { .port = (uint16_t)num(e, "port", 9), .lcid = (uint8_t)num(e, "lcid", 6),
					  .ue_mac = mac(e, "ue_mac"), .gnb_mac = mac(e, "gnb_mac") };
		return write(e, e->failed ? 0 : gnb_switch_air(sw, ue, &air));
	}
	if (!strcmp(t, "ul_ues") && !strcmp(a, "set_ul_ue")) {
		uint32_t port = num(e, "port", 9), ue = num(e, "ue", 32), lcid = num(e, "lcid", 6);
		struct rte_ether_addr ue_mac = mac(e, "ue_mac");
		return write(e, e->failed ? 0 : gnb_switch_ul_ue(sw, (uint16_t)port, &ue_mac, ue, (uint8_t)lcid));
	}
	if (!strcmp(t, "ul_tunnels") && !strcmp(a, "set_ul_tunnel")) {
		uint32_t ue = num(e, "ue", 32);
		struct gnb_sw_ul_tunnel ul = { .teid = num(e, "teid", 32), .qfi = (uint8_t)num(e, "qfi", 6),
					       .upf_addr = ipv4(e, "upf_addr"), .sn18 = (uint8_t)num(e, "sn18", 1) };
		return write(e, e->failed ? 0 : gnb_switch_ul_tunnel(sw, ue, &ul));
	}
	if (!strcmp(t, "clone_session") && !strcmp(a, "replica")) {
		uint32_t id = num(e, "id", 32), port = num(e, "port", 9);
		return write(e, e->failed ? 0 : gnb_switch_clone_session(sw, id, (uint16_t)port));
	}
	return fail(e, "%s: no action %s in this table (or no such table)", a);
}

int gnb_switch_entry(struct gnb_switch *sw, const char *line, char *err, size_t err_len)
{
	char buf[MAX_LINE];
	if (strlen(line) >= sizeof(buf)) {
		snprintf(err, err_len, "line longer than %d characters", MAX_LINE - 1);
		return -1;
	}
	strcpy(buf, line);
	char *save, *tok = strtok_r(buf, " \t\r\n", &save);
	if (!tok || tok[0] == '#')
		return 0;
	struct entry e = { .table = tok, .action = strtok_r(NULL, " \t\r\n", &save), .err = err, .err_len = err_len };
	if (!e.action)
		return fail(&e, "%s: no action%s", "");
	while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok || e.n == MAX_FIELDS)
			return fail(&e, "%s: expected FIELD=VALUE, at most 8 (%s)", eq ? "too many" : "no '='");
		*eq = '\0';
		e.f[e.n++] = (struct field){ .name = tok, .value = eq + 1 };
	}
	return apply(sw, &e);
}

int gnb_switch_entries_load(struct gnb_switch *sw, FILE *f, const char *name)
{
	char line[MAX_LINE + 1], err[160];
	int lineno = 0, n = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (gnb_switch_entry(sw, line, err, sizeof(err))) {
			fprintf(stderr, "%s:%d: %s\n", name, lineno, err);
			return -1;
		}
		n += line[strspn(line, " \t\r\n")] != '\0' && line[strspn(line, " \t\r\n")] != '#';
	}
	return n;
}
