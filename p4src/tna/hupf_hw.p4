// hupf hw profile for Tofino (TNA): UPF + steering + HK-IPG + MATADOR, from the same
// include/ controls as v1model/hupf_hw.p4.
#include <core.p4>
#include <tna.p4>

// v1model zero-initializes metadata; the shared controls rely on it.
@pragma pa_auto_init_metadata

#define HUPF_HW
#define HUPF_TNA
#include "../include/size_hw.p4"
#include "../include/hupf_tna.p4"
