"""Input strictness (issue #34): a counter cell past 32 bits, a UE address outside the UE pool and a Network
Instance the host does not serve are refused with a precise error (a 400 on REST; over PFCP cause 73, Rule
creation/modification Failure, naming the rule and the offending IE), and change nothing.

The host (conftest.py) serves UE pool 10.250.0.0/16 and Network Instance "internet" (its defaults)."""
import json
import urllib.request

import pytest
from scapy.contrib import pfcp as P

from smf import Smf, cause, ie
from test_control_api import call
from test_hijack import state

RULE_CREATION_MODIFICATION_FAILURE = 73
UE_IP_ADDRESS_IE = 93
NETWORK_INSTANCE_IE = 22


def session(ue, instance="internet"):
    """A REST session: a downlink PDR for `ue`, its FAR towards a gNB in Network Instance `instance`."""
    return json.dumps({
        "cpSeid": 5, "nodeId": "smf",
        "pdrs": [{"pdrId": 1, "precedence": 10, "pdi": {"sourceInterface": "CORE", "ueIpAddress": ue}, "farId": 1}],
        "fars": [{"farId": 1, "applyAction": ["FORW"], "forwardingParameters": {
            "destinationInterface": "ACCESS", "networkInstance": instance,
            "outerHeaderCreation": {"teid": 9, "ipv4": "192.168.1.10"}}}]}).encode()


@pytest.fixture
def smf(upf):
    s = Smf(upf.addr)
    assert cause(s.request(s.association_setup())[0]) == 1
    yield s
    s.request(s.release())
    s.close()


def test_a_counter_cell_past_32_bits_is_a_400_not_a_wrapped_cell(upf):
    for cell in ("4294967297", "2147483648", "-1"):
        status, body = call(upf, "POST", "/lab/device/counter?cell=%s&pkts=1&bytes=1" % cell, token=upf.token)
        assert status == 400 and body["error"] == "query parameter cell is out of range 0..2147483647: " + cell
    assert call(upf, "POST", "/lab/device/counter?cell=1&pkts=1&bytes=1", token=upf.token)[0] == 200


def test_rest_refuses_a_ue_outside_the_pool_and_an_unknown_network_instance(upf):
    before = state(upf)
    status, body = call(upf, "POST", "/sessions", token=upf.token, data=session("10.99.0.7"),
                        content_type="application/json")
    assert status == 400 and body["pfcpCause"] == RULE_CREATION_MODIFICATION_FAILURE
    assert body["error"] == "PDR 1: UE address 10.99.0.7 is outside the UE pools [10.250.0.0/16]"
    status, body = call(upf, "POST", "/sessions", token=upf.token, data=session("10.250.0.7", "no-such-tenant"),
                        content_type="application/json")
    assert status == 400 and body["pfcpCause"] == RULE_CREATION_MODIFICATION_FAILURE
    assert body["error"] == "FAR 1: unknown Network Instance 'no-such-tenant' (served: internet)"
    assert state(upf) == before
    # The same session in the pool and a served Network Instance is taken.
    status, created = call(upf, "POST", "/sessions", token=upf.token, data=session("10.250.0.7"),
                           content_type="application/json")
    assert status == 201
    req = urllib.request.Request(upf.control + "/sessions/%d" % created["upSeid"], method="DELETE",
                                 headers={"Authorization": "Bearer " + upf.token})
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.status == 204


def test_pfcp_refuses_a_ue_outside_the_pool_and_an_unknown_network_instance(upf, smf):
    before = state(upf)
    resp, _ = smf.request(smf.establishment(71, "10.99.0.1"))
    assert cause(resp) == RULE_CREATION_MODIFICATION_FAILURE
    assert ie(resp, P.IE_FailedRuleId).pdr_id == 1 and ie(resp, P.IE_OffendingIE).type == UE_IP_ADDRESS_IE
    resp, _ = smf.request(smf.establishment(72, "10.250.3.1", instance="no-such-tenant"))
    assert cause(resp) == RULE_CREATION_MODIFICATION_FAILURE
    assert ie(resp, P.IE_FailedRuleId).pdr_id == 1 and ie(resp, P.IE_OffendingIE).type == NETWORK_INSTANCE_IE
    assert state(upf) == before
    resp, _ = smf.request(smf.establishment(73, "10.250.3.1"))
    assert cause(resp) == 1
    assert cause(smf.request(smf.deletion(ie(resp, P.IE_FSEID).seid))[0]) == 1
