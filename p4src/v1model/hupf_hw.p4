// hupf hw profile for bmv2 (v1model): UPF + steering + HK-IPG + MATADOR.
#include <core.p4>
#include <v1model.p4>

#define HUPF_HW
#include "../include/size_hw.p4"
#include "../include/hupf_v1model.p4"
