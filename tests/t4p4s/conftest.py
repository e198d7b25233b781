"""T4P4S suite (issue #36): hupf's sw profile compiled by T4P4S and run on DPDK pcap ports. T4P4S is built outside
the repository (docs/BACKENDS.md, "T4P4S") and found through HUPF_T4P4S (default /opt/t4p4s): its checkout with
t4p4s.sh and hupf-env.sh (the environment its build steps write). Without it the suite prints one SKIPPED line."""
import os
from pathlib import Path

DEFAULT_HOME = Path("/opt/t4p4s")


def t4p4s_home():
    """The T4P4S checkout to use, or None."""
    home = Path(os.environ.get("HUPF_T4P4S") or DEFAULT_HOME)
    if (home / "t4p4s.sh").is_file() and (home / "hupf-env.sh").is_file():
        return home
    return None


HOME = t4p4s_home()
WHY = None if HOME else "T4P4S (set HUPF_T4P4S=<T4P4S checkout with t4p4s.sh and hupf-env.sh>, docs/BACKENDS.md \"T4P4S\")"
if WHY:
    collect_ignore_glob = ["test_*.py"]


def pytest_collection_finish(session):
    if WHY:
        # run_suite.sh reports the suite SKIPPED on this line (pytest exits 5: nothing collected).
        session.config.pluginmanager.get_plugin("terminalreporter").write_line("SKIPPED t4p4s: missing %s" % WHY)
