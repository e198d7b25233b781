"""The Mininet fabric under ONOS (docs/FABRIC.md): fixtures that boot ONOS from the runtime found on this machine
with hupf's .oar installed (as tests/onos does), and build the fabric of a topology file for a switch target.
Where root, Mininet, ONOS, hupf-backend or bmv2 is missing, the fabric's tests are not collected and the suite
prints one SKIPPED line naming what is missing (the topology and netcfg tests still run); Stratum-bmv2 runs where
a stratum_bmv2 binary is found, else one SKIPPED line says what building it needs."""
import importlib.util
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "onos"))
REPORTS = REPO / "reports" / "fabric"
# The switch the fabric runs: bmv2 by default; HUPF_FABRIC_SWITCH=backend runs hupf-backend's hw profile as the
# switches' stand-in (machines without bmv2).
SWITCH = os.environ.get("HUPF_FABRIC_SWITCH", "bmv2")

from hupf_tools.fabric import lab  # noqa: E402
from hupf_tools.fabric.mininet_nodes import STRATUM_HINT, switch_binary  # noqa: E402
import onos_runtime  # noqa: E402 (tests/lib)
from headless_chromium import chromium_path  # noqa: E402

WHY = lab.missing(SWITCH)
TARGETS = [] if WHY else [SWITCH]
STRATUM_WHY = None
if not WHY and SWITCH == "bmv2":
    if switch_binary("stratum-bmv2", None)[0]:
        TARGETS.append("stratum-bmv2")
    else:
        STRATUM_WHY = STRATUM_HINT
if WHY:
    collect_ignore = ["test_fabric.py"]
# The hupf view of the two-site fabric (ONOS's web GUI app and Chromium), where both are found.
GUI_OAR = None if WHY else onos_runtime.gui_oar(onos_runtime.onos_home())
GUI_WHY = None
if not WHY and GUI_OAR is None:
    GUI_WHY = "ONOS web GUI app (python3 ../shared/onos/gui.py --work %s)" % onos_runtime.onos_home().parent
elif not WHY and not chromium_path():
    GUI_WHY = "chromium (make setup installs Debian's chromium)"
    GUI_OAR = None


def pytest_collection_finish(session):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if WHY:
        reporter.write_line("SKIPPED fabric: missing %s" % WHY)
    elif STRATUM_WHY:
        reporter.write_line("SKIPPED fabric stratum-bmv2: missing %s" % STRATUM_WHY)
    if GUI_WHY:
        reporter.write_line("SKIPPED fabric gui: missing %s" % GUI_WHY)


@pytest.fixture(scope="session")
def onos(tmp_path_factory):
    """ONOS booted from a private copy of the runtime, hupf's .oar (rebuilt when older than a source) installed; its
    logs kept in reports/fabric/onos."""
    # tests/onos/conftest.py's .oar build (a conftest module of another suite: loaded under its own name).
    spec = importlib.util.spec_from_file_location("onos_suite", REPO / "tests" / "onos" / "conftest.py")
    onos_suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(onos_suite)
    o = lab.boot_onos(tmp_path_factory.mktemp("onos"), onos_suite._oar(), REPORTS / "onos", GUI_OAR)
    try:
        yield o
    finally:
        lab.stop_onos(o, REPORTS / "onos")
