// hupf's gNB user plane for bmv2 (v1model): docs/GNB.md, "The P4 program".
#include <core.p4>
#include <v1model.p4>

#include "parser.p4"
#include "pipeline.p4"

V1Switch(GnbParser(), GnbVerifyChecksum(), HupfGnbIngress(), HupfGnbEgress(),
         GnbComputeChecksum(), GnbDeparser()) main;
