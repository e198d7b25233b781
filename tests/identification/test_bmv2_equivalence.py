"""A trained and compiled MATADOR model gives the same classes on bmv2 (hw profile) as in the
Python reference model, packet by packet, on generated traffic.

The model comes out of the training command; its tables go into the switch as the app
would install them (one range table per feature, the decision table). The trace's packets
(sizes, directions, relative timing) are replayed through GTP-U sessions, one UE per flow;
after every packet the switch's classifier slot is read back (state-read packet-out of the
P4 test harness, tests/lib/hw_setup.py) and compared with the reference model fed the
timestamp bmv2 used. Needs simple_switch_grpc (BMV2 or PATH) and the built P4 artifacts."""
import importlib.util
import os
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ptf"))

from hupf_tools import p4tools  # noqa: E402
from targets import selected  # noqa: E402  (tests/lib, on pytest's pythonpath)

TARGETS, WHY = selected()
if "bmv2-hw" not in TARGETS:
    if not WHY:
        WHY = "missing " + p4tools.BMV2_HINT if not p4tools.bmv2() else "bmv2-hw not selected (HUPF_PTF_TARGETS)"
    pytest.skip("bmv2 classifier equivalence: " + WHY.replace("SKIPPED ptf: ", ""), allow_module_level=True)

import hupf_p4const as C  # noqa: E402
import hw_setup as H  # noqa: E402
import upf_setup as U  # noqa: E402
from hupf_tools import classifier, compiler, traces  # noqa: E402
from hupf_tools.model import features  # noqa: E402
from packets import ip2int  # noqa: E402
from ptfutil import expect_frame  # noqa: E402
from test_upf import APP, decapped, downlink_frame, encapped, uplink_frame  # noqa: E402

# The P4 harness's session-scoped test bed and device fixtures, reused as they are.
_spec = importlib.util.spec_from_file_location("ptf_conftest", os.path.join(HERE, "..", "ptf", "conftest.py"))
_ptf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ptf)
devices, dut = _ptf.devices, _ptf.dut

WINDOW_US = 20000  # windows short enough to close many times during a replay paced by state reads
MAX_SIZE = 1400    # the GTP-U frame must fit the test bed's 1500-byte MTU


def pytest_generate_tests(metafunc):
    if "target" in metafunc.fixturenames:
        metafunc.parametrize("target", ["bmv2-hw"], scope="session")


def test_trained_model_classes_match_the_reference_model(dut, tmp_path):
    classifier.main(["train", "--generate", "--seed", "3", "--flows-per-class", "3", "--duration", "3",
                     "--window-us", str(WINDOW_US), "--out", str(tmp_path)])
    model = compiler.load(tmp_path / "model.json")
    tables = compiler.code_tables(model)
    c = dut.client
    U.base(c)
    H.cls_params(c, **model["params"])
    H.install_tree(c, tables)
    trace = traces.generate(8, flows_per_class=1, duration_s=1.0)
    ues = [U.Ue("172.16.20.%d" % (i + 1), teid_ul=0x600 + i, teid_dl=0x700 + i, ctr=200 + 2 * i)
           for i in range(len(trace.flows))]
    for ue in ues:
        U.session(c, ue)
    slots = H.slots(c, C.HUPF_INGRESS_CLASSIFIER_FLOW_CLASS)
    model_pipe = features.FeaturePipeline(features.ClsParams(**model["params"]), tables, slots=slots)
    # Every flow's packets in trace order, 40 per flow, interleaved as in the trace.
    picked = [i for f in range(len(trace.flows)) for i in (trace.flow == f).nonzero()[0][:40]]
    picked.sort(key=lambda i: trace.ts_us[i])
    classes, last_ts = [], None
    for i in picked:
        ue, size, up = ues[trace.flow[i]], min(int(trace.size[i]), MAX_SIZE), bool(trace.uplink[i])
        if last_ts is not None:
            time.sleep(min((trace.ts_us[i] - last_ts) / 1e6, 0.01))
        last_ts = trace.ts_us[i]
        if up:
            dut.bed.send(U.PORT_ACCESS, uplink_frame(ue, size=size))
            expect_frame(dut.bed, U.PORT_CORE, decapped(ue, size=size))
        else:
            dut.bed.send(U.PORT_CORE, downlink_frame(ue, size=size))
            expect_frame(dut.bed, U.PORT_ACCESS, encapped(ue, size=size))
        pkt = features.Packet(0, up, ip2int(ue.addr), ip2int(APP), 4000, 80, 17, size)
        idx = features.slot_index(pkt, slots)
        switch = H.read_state(c, idx)[1]
        cls, _ = model_pipe.packet(pkt._replace(ts_us=switch.last_up if up else switch.last_dn))
        assert switch.cls == cls, "class differs on %s (%s)" % (ue.addr, trace.labels[trace.flow[i]])
        assert model_pipe.state[idx] == switch
        classes.append(cls)
    assert set(classes) - {0}, "no window was classified: the replay does not exercise the tables"
