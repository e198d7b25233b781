#!/usr/bin/env python3
"""Generate the golden PFCP vectors in tests/pfcp/vectors/ with scapy.contrib.pfcp.

Each vector is <name>.bin (bytes scapy built) and an entry in manifest.json (the spec it was
built from). hupf's Java codec test decodes every .bin and must recover the spec, and encodes
every spec and must reproduce the .bin byte for byte. Run: .venv/bin/python tests/pfcp/gen_vectors.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pfcp_spec import (bitrate, build_message, failed_rule, flags, fseid, fteid, fteid_choose,  # noqa: E402
                       group, message, network_instance, node_fqdn, node_ipv4, ohc, qfi, sdf,
                       ue_ip, uint, volume)

CP, UP = "10.0.0.1", "10.0.0.2"
TS = 3900000000  # an NTP-era Recovery Time Stamp

# Apply Action bits (TS 29.244 §8.2.26), Reporting Triggers and Usage Report Trigger (§8.2.19, §8.2.41).
DROP, FORW, BUFF, NOCP = 0x01, 0x02, 0x04, 0x08
PERIO, VOLTH = 0x01, 0x02
TERMR = 0x0800


def usage_report(t, urr_id, trigger):
    return group(t, uint(81, urr_id), uint(104, 7), flags(63, trigger, 2), uint(75, TS), uint(76, TS + 60),
                 volume(66, total=3000, ul=1000, dl=2000), uint(67, 60))


UPLINK_PDR = group(1, uint(56, 1), uint(29, 200),
                   group(2, flags(20, 0), fteid_choose(5), network_instance("internet"),
                         ue_ip("10.250.0.1", False), sdf("permit out ip from any to assigned", 9), qfi(9)),
                   uint(95, 0), uint(108, 1), uint(81, 1), uint(109, 1))
DOWNLINK_PDR = group(1, uint(56, 2), uint(29, 200),
                     group(2, flags(20, 1), ue_ip("10.250.0.1", True),
                           sdf("permit out udp from 8.8.8.0/24 53 to assigned")),
                     uint(108, 2), uint(81, 1), uint(109, 1), uint(109, 2))

VECTORS = {
    "heartbeat_request": message(1, 1, [uint(96, TS)]),
    "heartbeat_response": message(2, 1, [uint(96, TS + 1)]),
    "association_setup_request": message(5, 2, [node_ipv4(CP), uint(96, TS), flags(89, 0x01)]),
    "association_setup_response": message(6, 2, [node_fqdn("upf.hupf.test"), uint(19, 1), uint(96, TS + 1),
                                                 flags(43, 0x0101, 2)]),
    "association_update_request": message(7, 3, [node_ipv4(CP), flags(89, 0x02), flags(111, 0x01)]),
    "association_update_response": message(8, 3, [node_ipv4(UP), uint(19, 1)]),
    "association_release_request": message(9, 4, [node_ipv4(CP)]),
    "association_release_response": message(10, 4, [node_ipv4(UP), uint(19, 1)]),
    "version_not_supported_response": message(11, 5, []),
    "session_establishment_request": message(50, 6, [
        node_ipv4(CP), fseid(0x1122334455667788, CP), UPLINK_PDR, DOWNLINK_PDR,
        group(3, uint(108, 1), flags(44, FORW), group(4, flags(42, 1), network_instance("internet"))),
        group(3, uint(108, 2), flags(44, BUFF | NOCP), uint(88, 1)),
        group(6, uint(81, 1), flags(62, 0x02), flags(37, PERIO | VOLTH, 2), uint(64, 60),
              volume(31, total=10_000_000)),
        group(7, uint(109, 1), flags(25, 0), bitrate(26, 100_000, 200_000), bitrate(27, 1_000, 2_000), qfi(9)),
        group(7, uint(109, 2), flags(25, 0x04), bitrate(26, 5_000, 6_000)),
        group(85, uint(88, 1)),
        {"t": 0x8001, "kind": "enterprise", "eid": 18681, "hex": "c0ffee"},
    ], seid=0),
    "session_establishment_response": message(51, 6, [
        node_ipv4(UP), uint(19, 1), fseid(1, UP), group(8, uint(56, 1), fteid(0x10000001, "192.168.0.1"))],
        seid=0x1122334455667788),
    "session_establishment_response_rejected": message(51, 7, [
        node_ipv4(UP), uint(19, 73), uint(40, 23), failed_rule(0, 1)], seid=0x1122334455667788),
    "session_modification_request": message(52, 8, [
        group(10, uint(108, 2), flags(44, FORW),
              group(11, flags(42, 0), ohc(0xabcdef01, "192.168.1.10"), network_instance("access"))),
        group(9, uint(56, 2), uint(29, 100)),
        group(14, uint(109, 1), bitrate(26, 300_000, 400_000)),
        group(13, uint(81, 1), volume(31, ul=5_000, dl=6_000)),
        group(15, uint(56, 3)), group(16, uint(108, 3)), group(18, uint(109, 3)), group(17, uint(81, 3)),
        group(77, uint(81, 1)),
        group(86, uint(88, 1)), group(87, uint(88, 1)),
        group(1, uint(56, 4), uint(29, 50), group(2, flags(20, 0), fteid(0x20, "192.168.0.1")), uint(108, 1)),
    ], seid=1),
    "session_modification_response": message(53, 8, [uint(19, 1), usage_report(78, 1, 0x0100)],
                                             seid=0x1122334455667788),
    "session_deletion_request": message(54, 9, [], seid=1),
    "session_deletion_response": message(55, 9, [uint(19, 1), usage_report(79, 1, TERMR)],
                                         seid=0x1122334455667788),
    "session_report_request": message(56, 10, [
        flags(39, 0x03), group(83, uint(56, 2), flags(45, 0)), usage_report(80, 1, PERIO | VOLTH)],
        seid=0x1122334455667788),
    "session_report_response": message(57, 10, [uint(19, 1)], seid=1),
    # what hupf's agent sends: a usage report, and buffered downlink data of one PDR
    "session_report_request_usage": message(56, 11, [flags(39, 0x02), usage_report(80, 1, PERIO | VOLTH)],
                                            seid=0x1122334455667788),
    "session_report_request_downlink_data": message(56, 12, [flags(39, 0x01), group(83, uint(56, 2))],
                                                    seid=0x1122334455667788),
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors")
    os.makedirs(out, exist_ok=True)
    for name, spec in VECTORS.items():
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(bytes(build_message(spec)))
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(VECTORS, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d vectors to %s" % (len(VECTORS), out))


if __name__ == "__main__":
    main()
