"""T4P4S suite (issue #36): hupf's sw profile compiled by T4P4S and run on DPDK pcap ports. T4P4S is built outside
the repository (docs/BACKENDS.md, "T4P4S") and found through HUPF_T4P4S (default /opt/t4p4s): its checkout with
t4p4s.sh and hupf-env.sh (the environment its build steps write). Without it the suite prints one SKIPPED line."""
from t4p4s_switch import HOME, MISSING

if not HOME:
    collect_ignore_glob = ["test_*.py"]


def pytest_collection_finish(session):
    if not HOME:
        # run_suite.sh reports the suite SKIPPED on this line (pytest exits 5: nothing collected).
        session.config.pluginmanager.get_plugin("terminalreporter").write_line("SKIPPED t4p4s: missing %s" % MISSING)
