// hupf's gNB user plane for Tofino (TNA): the tables, actions, counters and register of ../pipeline.p4 with the
// same P4Info names, on ../headers.p4 and ../define.p4, written for Tofino's externs (docs/GNB.md, "TNA").
// One source for Tofino 1 and 2: p4c-barefoot defines __TARGET_TOFINO__ from --target.
#include <core.p4>
#if __TARGET_TOFINO__ == 2
#include <t2na.p4>
#else
#include <tna.p4>
#endif

// v1model zero-initializes metadata; the pipeline relies on it.
@pragma pa_auto_init_metadata

#include "parser.p4"
#include "pipeline.p4"

Pipeline(GnbIngressParser(), HupfGnbIngress(), GnbIngressDeparser(),
         GnbEgressParser(), HupfGnbEgress(), GnbEgressDeparser()) pipe;

Switch(pipe) main;
