"""The lab UE host's PDCP receiving side (hupf_tools.gnb.lab_hosts): COUNT from SN across wraps, delivery in
COUNT order with retransmissions filling gaps, duplicates counted, status reports' FMC and bitmap, MAC-I checked."""
from hupf_tools.gnb import frames as F
from hupf_tools.gnb.lab_hosts import UeReceiver, downlink_packet, rx_count
from hupf_tools.gnb.nr_sec import DOWNLINK, nea2, nia2

UE = {"idx": 3, "addr": "10.250.0.3", "snBits": 12, "drb": 1, "kUpEnc": "0f" * 16, "mac": "02:00:00:00:00:03",
      "lcid": 4}


def pdu(count):
    packet = downlink_packet("198.51.100.10", UE, count, 64)
    return F.pdcp_data(count, nea2(bytes.fromhex(UE["kUpEnc"]), count, 0, DOWNLINK, packet), 12)


def test_rx_count_follows_the_hfn_both_ways():
    assert rx_count(0, 5, 12) == 5
    assert rx_count(4090, 3, 12) == 4096 + 3        # SN wrapped forward
    assert rx_count(4096 + 10, 4095, 12) == 4095    # a late PDU from before the wrap
    assert rx_count(2**18 - 1, 0, 18) == 2**18


def test_gaps_filled_by_retransmissions_are_delivered_in_order():
    r = UeReceiver(UE)
    for count in (0, 1, 3, 4, 6):
        r.pdu(pdu(count))
    assert r.rx_deliv == 2 and r.delivered == [0, 1]
    # FMC 2; bitmap from COUNT 3: 3 received, 4 received, 5 missing, 6 received -> 1101
    assert r.status_report(10.0) == F.pdcp_status(2, bytes([0b11010000]))
    r.pdu(pdu(2))
    r.pdu(pdu(5))
    r.pdu(pdu(4))                                   # a resend of what had arrived
    assert r.delivered == list(range(7)) and r.stats()["in_order"]
    assert (r.duplicates, r.out_of_order, r.bad) == (1, 2, 0)
    assert r.status_report(10.001) is None          # reported 1 ms ago
    assert r.status_report(10.001, force=True) == F.pdcp_status(7)


def test_a_pdu_that_does_not_decipher_is_bad():
    r = UeReceiver(dict(UE, kUpEnc="ee" * 16))
    r.pdu(pdu(0))
    assert (r.bad, r.delivered) == (1, [])


def test_integrity_checked_when_the_ue_has_a_key():
    ue = dict(UE, kUpInt="a5" * 16)
    r = UeReceiver(ue)
    for count, tamper in ((0, False), (1, True)):
        packet = downlink_packet("198.51.100.10", ue, count, 64)
        header = F.pdcp_data(count, b"", 12)
        mac = nia2(bytes.fromhex(ue["kUpInt"]), count, 0, DOWNLINK, header + packet)
        if tamper:
            mac = bytes(4)
        r.pdu(header + nea2(bytes.fromhex(ue["kUpEnc"]), count, 0, DOWNLINK, packet + mac))
    assert (r.delivered, r.bad) == ([0], 1)
