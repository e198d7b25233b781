/* A gNB switch's entries for the C tests and the benchmark: ports 0 N3, 1 air, 2 crypto, 3 BaaS; UE 0 with
 * 12-bit SNs (TEIDs 256 down, 512 up, on the air as 02:00:00:00:01:10, LCID 4), UE 1 with 18-bit SNs (257, 513;
 * no air entry). The Python vectors' are tests/gnb/gnb_vectors.py's. */
#ifndef GNB_TEST_SWITCH_ENTRIES_H
#define GNB_TEST_SWITCH_ENTRIES_H

static const char *const switch_entries[] = {
	"ports set_port_role port=0 role=1", "ports set_port_role port=1 role=2", "ports set_port_role port=2 role=3",
	"ports set_port_role port=3 role=4",
	"services set_services crypto=2 baas=3 n3=0 gnb_n3_addr=10.0.3.1 gnb_n3_mac=02:00:00:00:03:01 "
	"upf_n3_mac=02:00:00:00:03:02",
	"clone_session replica id=500 port=3", "dl_ues set_dl_ue teid=256 ue=0 sn18=0",
	"dl_ues set_dl_ue teid=257 ue=1 sn18=1",
	"air set_air ue=0 port=1 ue_mac=02:00:00:00:01:10 gnb_mac=02:00:00:00:01:01 lcid=4",
	"ul_ues set_ul_ue port=1 ue_mac=02:00:00:00:01:10 ue=0 lcid=4",
	"ul_tunnels set_ul_tunnel ue=0 teid=512 qfi=9 upf_addr=10.0.3.2 sn18=0",
	"ul_tunnels set_ul_tunnel ue=1 teid=513 qfi=9 upf_addr=10.0.3.2 sn18=1",
};
#define SWITCH_ENTRIES (sizeof(switch_entries) / sizeof(switch_entries[0]))

#endif
