// hupf hw profile for Tofino (TNA): UPF + steering + HK-IPG + MATADOR, from the same
// include/ controls as v1model/hupf_hw.p4. One source for Tofino 1 and Tofino 2: p4c-barefoot
// defines __TARGET_TOFINO__ from --target (1: tofino/tna, 2: tofino2/t2na).
#include <core.p4>
#if __TARGET_TOFINO__ == 2
#include <t2na.p4>
#else
#include <tna.p4>
#endif

// v1model zero-initializes metadata; the shared controls rely on it.
@pragma pa_auto_init_metadata

#define HUPF_HW
#define HUPF_TNA
#include "../include/size_hw.p4"
#include "../include/hupf_tna.p4"
