"""The hw data plane's HK-IPG on packets equals the reference model's: a heavy-tailed trace replayed
through backend/build/hhreplay (every packet steered to a backend at its own timestamp on the test clock)
gives the very HH reports, at the very timestamps, that hupf_tools.model.hkipg gives for the same trace and
configuration. The thesis Table 5 benchmark (tools/hupf_tools/lab/hhpackets.py) relies on it."""
import os

import pytest

from hupf_tools.lab import hhpackets, scale
from hupf_tools.model import hkipg

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REPLAY = os.path.join(REPO, "backend", "build", "hhreplay")

pytestmark = pytest.mark.skipif(not os.path.exists(REPLAY), reason="no %s (make -C backend build/hhreplay)" % REPLAY)


@pytest.mark.parametrize("ipg_th,tau", [(4000, 200), (800, 1000)], ids=["2Mbps-like", "10Mbps-like"])
def test_replay_reports_what_the_model_reports(tmp_path, ipg_th, tau):
    sess, ts, _ = scale.make_trace(5000, 100_000, 5, seed=3)
    params = hkipg.HHParams(tau_th=1850, ipg_init=ipg_th, ipg_th=ipg_th, decay_k=max(1, ipg_th // 1000),
                            timeslot_us=16384, alpha_shift=7)
    table = hkipg.TauTable([(0, ipg_th, tau)])
    trace = tmp_path / "trace.bin"
    hhpackets.write_trace(trace, sess, ts, params, table)
    reports, steered, _, _ = hhpackets.replay(REPLAY, str(trace), len(sess))
    model = scale.hh_reports(sess, ts, params, table)
    assert steered == len(sess), "every packet goes to the backend"
    assert model, "the trace has heavy hitters at this configuration"
    assert reports == model


def test_a_truncated_trace_is_refused(tmp_path):
    sess, ts, _ = scale.make_trace(100, 1000, 1, seed=1)
    trace = tmp_path / "trace.bin"
    hhpackets.write_trace(trace, sess, ts, hkipg.HHParams(), hkipg.TauTable([(0, 800, 10)]))
    data = trace.read_bytes()
    trace.write_bytes(data[:-6])
    with pytest.raises(RuntimeError, match="trace ends at packet %d of %d" % (len(sess) - 1, len(sess))):
        hhpackets.replay(REPLAY, str(trace), len(sess))
