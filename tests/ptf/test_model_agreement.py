"""bmv2 (hw profile) and the Python reference models agree, packet by packet, on a
generated trace: after every packet the switch's registers for the packet's slot
(read with a state-read packet-out) equal the model's state, and the HH reports are
the model's. The timestamp bmv2 used is read back from the slot's last timestamp."""
import random

import pytest

import hupf_p4const as C
import hw_setup as H
import upf_setup as U
from hupf_tools.model import features, hkipg
from packets import ip2int
from ptfutil import expect_frame
from test_upf import APP, decapped, downlink_frame, encapped, uplink_frame

pytestmark = pytest.mark.targets("bmv2-hw")
HW_TARGETS = ("bmv2-hw", "backend-hw")


@pytest.fixture
def hw(dut):
    U.base(dut.client)
    H.start_clock(dut)
    return dut


@pytest.mark.targets(*HW_TARGETS)
def test_hkipg_registers_and_reports_match_the_model(hw):
    c = hw.client
    hw.cpu_clone_session()
    H.backend_group(c, [U.PORT_BACKEND1])
    # Scaled to the pace of a test that reads the slot after every packet (a few ms).
    params = hkipg.HHParams(tau_th=20, ipg_init=60000, ipg_th=60000, decay_k=2000, timeslot_us=65536,
                            alpha_shift=2)
    entries = [(0, 8000, 8), (8001, 20000, 4)]
    H.hh_params(c, params.tau_th, params.ipg_init, params.ipg_th, params.decay_k, params.timeslot_us,
                params.alpha_shift)
    H.tau_entries(c, entries)
    model = hkipg.HKIPG(params, hkipg.TauTable(entries), slots=H.slots(c, C.HUPF_INGRESS_HH_FLOW_ID))
    # A target on a test clock sees only the time it is given: it is given the ~3 ms that a
    # packet and its state read take on bmv2's clock.
    read_pace = 0.003 if hw.has_test_clock else 0
    rng = random.Random(6)
    # Two heavy UEs sharing a slot (addresses 4096 apart), and mice.
    ues = ["172.16.8.1", "172.16.24.1"] + ["172.16.9.%d" % i for i in range(1, 6)]
    weights = [10, 3] + [1] * 5
    expected, pins = [], []
    for _ in range(250):
        ue = rng.choices(ues, weights)[0]
        frame = downlink_frame(U.Ue(ue, 1, 2, 0))
        hw.bed.send(U.PORT_CORE, frame)
        assert hw.bed.recv(U.PORT_BACKEND1, 2.0) is not None
        key = ip2int(ue)
        after = H.read_state(c, model.index(key), pins)[0]
        report = model.packet(key, after.last_ts)
        assert model.slots[model.index(key)] == after, "diverged at UE %s" % ue
        if report:
            expected.append(report)
        H.pause(hw, rng.choice([0, 0.0002, 0.0005, 0.002]) + read_pace)
    got = []
    while True:
        pin = c.packet_in(0.5)
        if pin is None:
            break
        pins.append(pin)
    for payload, md in pins:
        if md[C.PKT_META_REASON] == C.PKTIN_HH_REPORT:
            got.append(hkipg.Report(int.from_bytes(payload[0:4], "big"),
                                    int.from_bytes(payload[4:8], "big"),
                                    int.from_bytes(payload[8:10], "big")))
    assert got == expected
    assert expected, "the trace produced no HH report: it does not exercise reporting"


@pytest.mark.targets(*HW_TARGETS)
def test_classifier_features_match_the_model(hw):
    c = hw.client
    ues = [U.Ue("172.16.10.%d" % i, teid_ul=0x400 + i, teid_dl=0x500 + i, ctr=100 + 2 * i)
           for i in range(1, 4)]
    for ue in ues:
        U.session(c, ue)
    params = features.ClsParams(window_us=20000, alpha_shift=2)
    tables = features.CodeTables({"ps_dn": [(700, 1500, 1)], "pkts_up": [(3, 1000, 2)]},
                                 {(0, 0, 0, 1, 0, 0): 5, (2, 0, 0, 1, 0, 0): 6, (2, 0, 0, 0, 0, 0): 7})
    H.cls_params(c, params.window_us, params.alpha_shift)
    H.install_tree(c, tables)
    cls_slots = H.slots(c, C.HUPF_INGRESS_CLASSIFIER_FLOW_CLASS)
    model = features.FeaturePipeline(params, tables, slots=cls_slots)
    read_pace = 0.003 if hw.has_test_clock else 0   # as in the HK-IPG test above
    rng = random.Random(7)
    classes = set()
    for _ in range(150):
        ue = rng.choice(ues)
        uplink = rng.random() < 0.4
        size = rng.choice([80, 300, 900, 1400])
        if uplink:
            hw.bed.send(U.PORT_ACCESS, uplink_frame(ue, size=size))
            expect_frame(hw.bed, U.PORT_CORE, decapped(ue, size=size))
            pkt = features.Packet(0, True, ip2int(ue.addr), ip2int(APP), 4000, 80, 17, size)
        else:
            hw.bed.send(U.PORT_CORE, downlink_frame(ue, size=size))
            expect_frame(hw.bed, U.PORT_ACCESS, encapped(ue, size=size))
            pkt = features.Packet(0, False, ip2int(ue.addr), ip2int(APP), 4000, 80, 17, size)
        idx = features.slot_index(pkt, cls_slots)
        after = H.read_state(c, idx)[1]
        ts = after.last_up if uplink else after.last_dn
        cls, _ = model.packet(pkt._replace(ts_us=ts))
        assert model.state[idx] == after, "diverged on %s %s" % (ue.addr, "up" if uplink else "down")
        classes.add(cls)
        H.pause(hw, rng.choice([0, 0.001, 0.004, 0.01]) + read_pace)
    assert classes - {0}, "the trace never reached a class: it does not exercise the tables"
