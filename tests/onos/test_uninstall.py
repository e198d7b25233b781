"""Last in the suite: uninstalling hupf takes its entries with it. The switch's entries are flow rules owned by
the app org.hupf.app (not by its pipeconf); the backend's are no flow rules at all (hupf writes them in
P4Runtime batches). The app removes both when it is deactivated or uninstalled (not when one node of a cluster
stops): after DELETE /onos/v1/applications/org.hupf.app, ONOS lists no flow rule of it and the backend's
tables hold none of the standing sessions' entries (read over P4Runtime from the backend)."""
import re

import conftest
from test_onos import BackendTables, device_flows

APP = "org.hupf.app"
# hupf's components wait up to 30 s each for a thread blocked on a device that does not answer (Shutdowns): a
# starved backend made one uninstall take 70 s (29 Nov 2026, load 30-48).
UNINSTALL_TIMEOUT_S = 180


def app_flows(onos):
    status, body = onos.rest("GET", "/onos/v1/flows/application/%s" % APP)
    return body["flows"] if status == 200 else []


def test_uninstalling_hupf_removes_its_entries(onos, deployed, backend, standing_sessions):
    flows = app_flows(onos)
    # The switch's where the hybrid test added bmv2; none on the backend.
    assert deployed["device"] not in {f["deviceId"] for f in flows}, flows[:3]
    foreign = [f for f in device_flows(onos, deployed["device"]) if f["appId"] not in (APP, "org.onosproject.core")]
    assert not foreign, "hupf's entries under another app: %s" % foreign[:3]
    tables = BackendTables(backend.addr)
    try:
        ue = conftest.STANDING_PFCP_UE
        status, s = onos.rest("GET", "/onos/hupf/sessions/%d" % standing_sessions[ue])
        teid = next(p["pdi"]["fTeid"]["teid"] for p in s["pdrs"] if p["pdi"]["sourceInterface"] == "ACCESS")
        tables.wait_session(ue, teid, present=True)

        status, body = onos.rest("DELETE", "/onos/v1/applications/%s" % APP)
        assert status == 204, (status, body)
        onos.wait(lambda: not app_flows(onos), UNINSTALL_TIMEOUT_S, "no flow rule of %s left" % APP)
        tables.wait_session(ue, teid, present=False)
        assert tables.entries() == [], "entries left on the backend: %s" % tables.entries()[:5]
    finally:
        tables.close()
    log = onos.karaf_log.read_text(errors="replace")
    # The app removed them itself on deactivation ("a device refused some" when bmv2 refuses to delete an entry
    # it never accepted, e.g. a steering entry written before its action profile group).
    assert re.search(r"Remov(ed|ing) the \d+ flow rules of %s" % APP, log), "hupf removed its flow rules"
    assert "Removed hupf's entries from backend %s" % deployed["device"] in log, "hupf cleared its backend"

