"""Several UPF sites (issue #35; docs/SITES.md): the standalone host given the netcfg's `sites` block
(`--sites FILE`) places each session at the site that serves its gNB, its access-side Network Instance or its
N3 address, and answers a session no site serves, or one whose rules name two sites, with cause 73 (Rule
creation/modification failure), the rule as Failed Rule ID and the Offending IE, changing nothing. GET /sites
and GET /sessions show where each session is served, and each site's in-memory device holds its own sessions'
entries only."""
import json

import pytest
from scapy.contrib import pfcp as P

from conftest import start_upf, stop_upf
from hupf_tools.lab.smf import Smf as LabSmf
from smf import FORW, cause, ie
from test_hijack import state
from test_input_strictness import smf  # noqa: F401  (the associated SMF, on this module's host)

RULE_CREATION_MODIFICATION_FAILURE = 73
NETWORK_INSTANCE_IE = 22
OUTER_HEADER_CREATION_IE = 84
LAB_SMF = ("smf.hupf.test", "127.0.0.2")  # the lab's SMF: a Node ID and address of its own (allowed by conftest)
SITES = {"sites": [
    {"siteId": "edge-a", "switch": "device:bmv2:edge-a", "backends": ["device:backend:edge-a-1"],
     "gnbs": ["192.168.1.0/24"], "n3NetworkInstances": ["access-edge-a"]},
    {"siteId": "edge-b", "backends": ["device:backend:edge-b-1"], "gnbs": ["192.168.2.0/24"],
     "n3NetworkInstances": ["access-edge-b"]}]}


@pytest.fixture(scope="module")
def upf(tmp_path_factory):
    path = tmp_path_factory.mktemp("sites") / "sites.json"
    path.write_text(json.dumps(SITES))
    u = start_upf("--sites", str(path))
    yield u
    stop_upf(u)


def sessions_per_site(upf):
    return {s["siteId"]: s["sessions"] for s in upf.get("/sites")["sites"]}


def refused(resp, rule, offending_ie):
    """Cause 73 naming FAR `rule` (an int) or PDR `rule` (("pdr", id)) with the Offending IE."""
    assert cause(resp) == RULE_CREATION_MODIFICATION_FAILURE
    failed = ie(resp, P.IE_FailedRuleId)
    if isinstance(rule, tuple):
        assert failed.type == 0 and failed.pdr_id == rule[1]
    else:
        assert failed.type == 1 and failed.far_id == rule
    assert ie(resp, P.IE_OffendingIE).type == offending_ie


def test_sessions_are_placed_by_gnb_or_access_network_instance(upf, smf):
    resp, _ = smf.request(smf.establishment(11, "10.250.1.1", dl_far_action=FORW, gnb="192.168.2.10",
                                            gnb_teid=0x11))
    assert cause(resp) == 1
    at_b = ie(resp, P.IE_FSEID).seid
    resp, _ = smf.request(smf.establishment(12, "10.250.1.2", instance="access-edge-a"))
    assert cause(resp) == 1
    at_a = ie(resp, P.IE_FSEID).seid
    assert sessions_per_site(upf) == {"edge-a": 1, "edge-b": 1}
    sites = {s["upSeid"]: s["site"] for s in upf.get("/sessions")["sessions"]}
    assert sites == {at_a: "edge-a", at_b: "edge-b"}
    # Each session's entries are on its own site's device only.
    on_a, on_b = (json.dumps(upf.get("/lab/entities?site=" + site)) for site in ("edge-a", "edge-b"))
    assert '"10.250.1.2"' in on_a and '"10.250.1.2"' not in on_b
    assert '"10.250.1.1"' in on_b and '"10.250.1.1"' not in on_a

    # The gNB of the session placed by its Network Instance at edge-a is edge-b's: two sites, refused.
    before = state(upf)
    resp, _ = smf.request(smf.modify_to_forward(at_a, "192.168.2.20", 0x12))
    refused(resp, 2, OUTER_HEADER_CREATION_IE)
    assert state(upf) == before
    resp, _ = smf.request(smf.modify_to_forward(at_a, "192.168.1.20", 0x12))
    assert cause(resp) == 1
    for seid in (at_a, at_b):
        assert cause(smf.request(smf.deletion(seid))[0]) == 1
    assert sessions_per_site(upf) == {"edge-a": 0, "edge-b": 0}


def test_what_no_site_serves_is_refused_and_changes_nothing(upf, smf):
    before = state(upf)
    resp, _ = smf.request(smf.establishment(21, "10.250.2.1", dl_far_action=FORW, gnb="192.168.3.10",
                                            gnb_teid=0x21))
    refused(resp, 2, OUTER_HEADER_CREATION_IE)
    resp, _ = smf.request(smf.establishment(22, "10.250.2.2"))
    refused(resp, ("pdr", 1), NETWORK_INSTANCE_IE)
    resp, _ = smf.request(smf.establishment(23, "10.250.2.3", dl_far_action=FORW, gnb="192.168.1.10",
                                            gnb_teid=0x23, instance="access-edge-b"))
    refused(resp, 2, OUTER_HEADER_CREATION_IE)
    assert state(upf) == before


def test_one_smf_establishes_at_both_sites_over_one_association(upf):
    """The lab's SMF establishing one site's sessions, then another's, associates once: a second Association Setup
    from its Node ID replaces the association and deletes its sessions (TS 29.244 §6.2.6.2.2). The two-site
    fabric's device read once found site1's sessions gone from its backend that way."""
    lab = LabSmf(upf.addr[0], upf.addr[1], node_id=LAB_SMF[0], bind=LAB_SMF[1])
    plans = [{"gnb": gnb, "ues": [{"idx": 900 + 10 * k + i, "addr": "10.250.9.%d" % (10 * k + i),
                                   "dl_teid": 0x900 + 10 * k + i} for i in (1, 2)]}
             for k, gnb in enumerate(("192.168.1.20", "192.168.2.20"))]
    before = sessions_per_site(upf)
    try:
        for plan in plans:
            assert lab.establish(plan) == 2
        assert sessions_per_site(upf) == {site: n + 2 for site, n in before.items()}
    finally:
        for plan in plans:
            lab.delete_all(plan, lambda: {})
        lab.close()
