// hupf sw profile for bmv2 (v1model): the contract of the x86 backend.
#include <core.p4>
#include <v1model.p4>

#include "../include/size_sw.p4"
#include "../include/hupf_v1model.p4"
