/* The gNB switch stand-in's table entries from text, in the contract's names (docs/GNB.md, "The switch
 * stand-in"): one entry a line, `TABLE ACTION FIELD=VALUE...`, the match fields and the action's parameters
 * by their P4 names, e.g. `dl_ues set_dl_ue teid=0x100 ue=0 sn18=0`; the clone session is
 * `clone_session replica id=500 port=4`. Values: numbers (C syntax), dotted IPv4, MAC addresses. What the RAN
 * control stand-in (tools/hupf_tools/gnb/ran_control.py) writes; the P4Runtime entries it stands for name
 * the same tables, fields and actions. */
#ifndef GNB_SWITCH_ENTRIES_H
#define GNB_SWITCH_ENTRIES_H

#include <stdio.h>
#include "gnb_switch.h"

/* Applies one line; 0, or -1 with the reason (never an entry's whole text) in err. Blank and '#' lines: 0. */
int gnb_switch_entry(struct gnb_switch *sw, const char *line, char *err, size_t err_len);
/* Every line of f; the number of entries applied, or -1 after printing "NAME:LINE: reason" to stderr. */
int gnb_switch_entries_load(struct gnb_switch *sw, FILE *f, const char *name);

#endif
