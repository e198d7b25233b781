"""The device under test comes up and takes the pipeline; or, with no target binary,
the whole PTF suite skips here with one line."""
import pytest

from targets import selected

TARGETS, SKIP_REASON = selected()
if not TARGETS:
    pytest.skip(SKIP_REASON, allow_module_level=True)

import hupf_p4const as C  # noqa: E402  (generated with the artifacts checked above)
from p4rt import P4RuntimeError  # noqa: E402


def test_pipeline_is_accepted_and_names_resolve(dut):
    c = dut.client
    assert c.p4info.has("tables", C.HUPF_INGRESS_UPF_INTERFACES)
    assert c.p4info.has("tables", C.HUPF_INGRESS_STEERING_BACKENDS) == (dut.profile == "hw")
    with pytest.raises(P4RuntimeError, match="no table named"):
        c.table_entry("HupfIngress.upf.no_such_table")
