"""PTF-style vectors of the gNB switch (p4src/gnb/gnb.p4; docs/GNB.md, "The P4 program"): frames into a port,
the frames expected out of each port (none: a drop of the named reason), for both directions, PDCP data vs
status reports, SN numbering. The same vectors run on the stand-in (gnb-switch) and on bmv2 once the
program is compiled. Ports: 0 N3, 1 the air, 2 the crypto service, 3 BaaS, 4 no role."""
from hupf_tools.gnb import frames as F
from hupf_tools.gnb import p4const as C
from hupf_tools.gnb.ran_control import compile_config

N3, AIR, CRYPTO, BAAS, NO_ROLE = 0, 1, 2, 3, 4
GNB_N3, UPF_N3 = "10.0.3.1", "10.0.3.2"
GNB_N3_MAC, UPF_N3_MAC, AIR_MAC = "02:00:00:00:03:01", "02:00:00:00:03:02", "02:00:00:00:01:01"
SVC_A, SVC_B = "02:00:00:00:02:01", "02:00:00:00:02:02"
UES = [  # UE 0: 12-bit SNs, integrity; UE 1: 18-bit SNs
    {"ue": 0, "port": AIR, "mac": "02:00:00:00:01:10", "lcid": 4, "drb": 1, "snBits": 12, "dlTeid": 0x100,
     "ulTeid": 0x200, "qfi": 9, "upfAddr": UPF_N3, "kUpEnc": "00" * 16, "kUpInt": "11" * 16},
    {"ue": 1, "port": AIR, "mac": "02:00:00:00:01:11", "lcid": 5, "drb": 2, "snBits": 18, "dlTeid": 0x101,
     "ulTeid": 0x201, "qfi": 5, "upfAddr": UPF_N3, "kUpEnc": "22" * 16},
]
CONFIG = {"gnb": {"n3": {"port": N3, "addr": GNB_N3, "mac": GNB_N3_MAC, "upfMac": UPF_N3_MAC},
                  "cryptoPort": CRYPTO, "baasPort": BAAS, "airMac": AIR_MAC}, "ues": UES}
ENTRIES, _ = compile_config(CONFIG)

USER = F.user_packet("10.45.0.1", "192.0.2.10", bytes(range(40)))


def n3_in(teid, payload=USER, qfi=9):
    return F.n3_frame(GNB_N3_MAC, UPF_N3_MAC, UPF_N3, GNB_N3, teid, payload, qfi=qfi)


def to_crypto(ue, count, op, pdu, dst=GNB_N3_MAC, src=UPF_N3_MAC):
    """A frame the switch sends to a service keeps its Ethernet addresses; its ethertype changes."""
    return F.svc_frame(dst, src, ue, count, op, pdu)


def vec(name, port, frame, out=(), drop=None):
    return {"name": name, "port": port, "frame": frame, "out": list(out), "drop": drop}


def vectors():
    ue0, ue1 = UES
    pdu0 = F.pdcp_data(7, b"\xaa" * 30, 12)   # as the crypto service leaves it: header in clear, SDU ciphered
    pdu1 = F.pdcp_data(70000, b"\xbb" * 30, 18)
    echo = F.ether(GNB_N3_MAC, UPF_N3_MAC, 0x0800) + F.ipv4(UPF_N3, GNB_N3, 17, F.udp(
        2152, 2152, bytes([0x32, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0])))
    bad_version = bytearray(n3_in(0x100))
    bad_version[42] = 0x54   # GTP version 2
    return [
        # downlink: COUNT from the UE's TX_NEXT, SN its low bits (12 or 18), in order per UE
        vec("dl sn12 first", N3, n3_in(0x100), [(CRYPTO, to_crypto(0, 0, C.SVC_OP_DL_PROTECT, F.pdcp_data(0, USER)))]),
        vec("dl sn18 first", N3, n3_in(0x101, qfi=None),
            [(CRYPTO, to_crypto(1, 0, C.SVC_OP_DL_PROTECT, F.pdcp_data(0, USER, 18)))]),
        vec("dl sn12 second", N3, n3_in(0x100), [(CRYPTO, to_crypto(0, 1, C.SVC_OP_DL_PROTECT, F.pdcp_data(1, USER)))]),
        vec("dl unknown teid", N3, n3_in(0x999), drop=C.GNB_DROP_UNKNOWN_TEID),
        vec("dl echo request", N3, echo, drop=C.GNB_DROP_NOT_GPDU),
        vec("dl not gtp", N3, F.ether(GNB_N3_MAC, UPF_N3_MAC, 0x0800) + USER, drop=C.GNB_DROP_NOT_GPDU),
        vec("dl gtp version 2", N3, bytes(bad_version), drop=C.GNB_DROP_PARSER_ERROR),
        # protected PDUs: one copy held by BaaS, the PDU to the UE behind a MAC subheader
        vec("dl protected", CRYPTO, F.svc_frame(SVC_A, SVC_B, 0, 7, C.SVC_OP_DL_PROTECT, pdu0),
            [(AIR, F.air_frame(ue0["mac"], AIR_MAC, 4, pdu0)),
             (BAAS, F.svc_frame(SVC_A, SVC_B, 0, 7, C.SVC_OP_BUFFER, pdu0))]),
        vec("dl resent by baas", BAAS, F.svc_frame(SVC_A, SVC_B, 1, 70000, C.SVC_OP_RETX, pdu1),
            [(AIR, F.air_frame(ue1["mac"], AIR_MAC, 5, pdu1))]),
        vec("dl protected no ue", CRYPTO, F.svc_frame(SVC_A, SVC_B, 7, 0, C.SVC_OP_DL_PROTECT, pdu0),
            drop=C.GNB_DROP_NO_UE_CONTEXT),
        vec("baas sends protect", BAAS, F.svc_frame(SVC_A, SVC_B, 0, 0, C.SVC_OP_DL_PROTECT, pdu0),
            drop=C.GNB_DROP_BAD_SVC_OP),
        # uplink: data to the crypto service, a status report to BaaS, other control PDUs dropped
        vec("ul data", AIR, F.air_frame(AIR_MAC, ue0["mac"], 4, pdu0),
            [(CRYPTO, to_crypto(0, 0, C.SVC_OP_UL_UNPROTECT, pdu0, AIR_MAC, ue0["mac"]))]),
        vec("ul status report", AIR, F.air_frame(AIR_MAC, ue0["mac"], 4, F.pdcp_status(5, b"\x80")),
            [(BAAS, to_crypto(0, 0, C.SVC_OP_STATUS, F.pdcp_status(5, b"\x80"), AIR_MAC, ue0["mac"]))]),
        vec("ul rohc feedback", AIR, F.air_frame(AIR_MAC, ue0["mac"], 4, b"\x10\x00"), drop=C.GNB_DROP_PDCP_CONTROL),
        vec("ul unknown ue", AIR, F.air_frame(AIR_MAC, "02:00:00:00:01:99", 4, pdu0), drop=C.GNB_DROP_UNKNOWN_UE),
        vec("ul other lcid", AIR, F.air_frame(AIR_MAC, ue0["mac"], 5, pdu0), drop=C.GNB_DROP_NOT_AIR),
        vec("ul not air", AIR, F.ether(AIR_MAC, ue0["mac"], 0x0800) + USER, drop=C.GNB_DROP_NOT_AIR),
        # deciphered uplink PDUs: PDCP header off, the UE's tunnel (UL PDU Session Container, QFI) on
        vec("ul deciphered sn12", CRYPTO, F.svc_frame(SVC_A, SVC_B, 0, 3, C.SVC_OP_UL_UNPROTECT, F.pdcp_data(3, USER)),
            [(N3, F.n3_frame(UPF_N3_MAC, GNB_N3_MAC, GNB_N3, UPF_N3, 0x200, USER, qfi=9, pdu_type=1))]),
        vec("ul deciphered sn18", CRYPTO,
            F.svc_frame(SVC_A, SVC_B, 1, 70001, C.SVC_OP_UL_UNPROTECT, F.pdcp_data(70001, USER, 18)),
            [(N3, F.n3_frame(UPF_N3_MAC, GNB_N3_MAC, GNB_N3, UPF_N3, 0x201, USER, qfi=5, pdu_type=1))]),
        vec("ul deciphered truncated", CRYPTO, F.svc_frame(SVC_A, SVC_B, 0, 3, C.SVC_OP_UL_UNPROTECT, b"\x80"),
            drop=C.GNB_DROP_PARSER_ERROR),
        vec("port without role", NO_ROLE, n3_in(0x100), drop=C.GNB_DROP_UNKNOWN_PORT),
    ]


# The per-UE counters the vectors leave (the P4 program's dl_pdus, ul_pdus, status_reports, retransmissions;
# tx_next).
UE_COUNTS = {
    0: {"tx_next": 2, "dl_pdus": 2, "ul_pdus": 1, "status_reports": 1, "retransmissions": 0},
    1: {"tx_next": 1, "dl_pdus": 1, "ul_pdus": 1, "status_reports": 0, "retransmissions": 1},
}
