"""PTF suite fixtures: one test bed (veth pairs + namespace) per session, one device
under test at a time on it, a freshly pushed pipeline for every test.

Tests take the `dut` fixture; `@pytest.mark.targets(...)` limits the targets a test
runs on (default: every selected target). Without any target binary only
test_targets.py is collected and skips with one line saying what is missing; without bmv2
or p4c, the suite prints one SKIPPED line naming them (their tests skip, the backend's run)."""
import pytest

from dataplane import TestBed
from hupf_tools import p4tools
from targets import ALL_TARGETS, T4P4S_CANNOT, Device, selected

TARGETS, SKIP_REASON = selected()
NPORTS = 4
P4_TOOLS_ABSENT = [hint for found, hint in ((p4tools.bmv2(), p4tools.BMV2_HINT), (p4tools.p4c(), p4tools.P4C_HINT))
                   if not found]

TARGET_TESTS = ("test_upf", "test_hw", "test_model_agreement")
if not TARGETS:
    collect_ignore_glob = [name + "*.py" for name in TARGET_TESTS]


def pytest_collection_modifyitems(config, items):
    """Without a target, also the tests of a file named on the command line are left out (collect_ignore_glob
    holds back only files found in the directory): `make test-t4p4s` names test_upf.py."""
    if TARGETS:
        return
    left_out = [item for item in items if item.path.name.startswith(TARGET_TESTS)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]


def pytest_configure(config):
    config.addinivalue_line("markers", "targets(*names): targets the test runs on (%s)"
                            % ", ".join(ALL_TARGETS))


def pytest_collection_finish(session):
    if P4_TOOLS_ABSENT and set(TARGETS) - {"t4p4s"}:
        session.config.pluginmanager.get_plugin("terminalreporter").write_line(
            "SKIPPED p4 bmv2/p4c parts: missing %s" % ", ".join(P4_TOOLS_ABSENT))


def pytest_generate_tests(metafunc):
    if "dut" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("targets")
    allowed = marker.args if marker else ALL_TARGETS
    cannot = T4P4S_CANNOT.get(metafunc.definition.originalname)
    params = [pytest.param(t, marks=pytest.mark.skip(reason="T4P4S: " + cannot)) if t == "t4p4s" and cannot else t
              for t in TARGETS if t in allowed]
    if not params:
        params = [pytest.param(None, marks=pytest.mark.skip(
            reason="runs on %s: none selected or found" % ", ".join(allowed)))]
    metafunc.parametrize("target", params, scope="session")


class _Devices:
    """Only one device may drive the test bed's switch ends at a time."""

    def __init__(self, bed):
        self.bed = bed
        self.current = None

    def get(self, target):
        if self.current is not None and self.current.target != target:
            self.current.stop()
            self.current = None
        if self.current is None:
            self.current = Device(target, self.bed)
        return self.current

    def stop(self):
        if self.current is not None:
            self.current.stop()


# The devices of the session, once created: a T4P4S device is stopped at the end of each module (below).
_SESSION_DEVICES = []


@pytest.fixture(scope="session")
def devices():
    bed = TestBed(NPORTS)
    devs = _Devices(bed)
    _SESSION_DEVICES.append(devs)
    yield devs
    _SESSION_DEVICES.remove(devs)
    devs.stop()
    bed.close()


@pytest.fixture(scope="module", autouse=True)
def t4p4s_released():
    """One T4P4S switch at a time on the machine (its controller port is compiled into it): the PTF target's
    switch does not outlive the module, so that a later test (make test-t4p4s's runner chain) can start one."""
    yield
    for devs in _SESSION_DEVICES:
        if devs.current is not None and devs.current.target == "t4p4s":
            devs.stop()
            devs.current = None


@pytest.fixture
def dut(target, devices):
    dev = devices.get(target)
    dev.reset()
    return dev
