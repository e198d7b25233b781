"""The standalone host's REST API (issues #13, #14): the app's JAX-RS resources plus the /lab hooks; changes need
the token, every refusal is a JSON error with its status (never a dropped connection), bodies are bounded in
size and nesting."""
import json
import urllib.error
import urllib.request

import pytest

from conftest import start_upf, stop_upf

CHANGES = ("/lab/device/clear", "/lab/device/counter?cell=1&pkts=1&bytes=1", "/reconcile",
           "/ue/10.250.0.1/downlink-data", "/sessions")


def call(upf, method, path, token=None, data=b"", content_type=None):
    """Returns (status, JSON body) of one request; an HTTP error status is an answer too."""
    headers = {} if token is None else {"Authorization": "Bearer " + token}
    if content_type:
        headers["Content-Type"] = content_type
    req = urllib.request.Request(upf.control + path, data=data if method in ("POST", "PUT") else None,
                                 method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_changes_need_the_token(upf):
    for path in CHANGES:
        status, body = call(upf, "POST", path)
        assert status == 401 and "Bearer" in body["error"], path
        assert call(upf, "POST", path, token="wrong")[0] == 401
    assert call(upf, "DELETE", "/sessions/1")[0] == 401
    assert call(upf, "POST", "/reconcile", token=upf.token)[0] == 200
    # Reading needs none.
    assert call(upf, "GET", "/health")[0] == 200


def test_the_app_resources_are_served(upf):
    """The same resources ONOS serves under /onos/hupf, at the same relative paths."""
    assert call(upf, "GET", "/ue-pools") == (200, {"uePools": ["10.250.0.0/16"]})
    status, body = call(upf, "GET", "/devices")
    assert status == 200 and body["devices"][0]["state"] == "up" and body["devices"][0]["lastError"] is None
    assert call(upf, "GET", "/pfcp-peers")[0] == 200
    # No offload manager in this host: the service is missing, as in ONOS without a backend.
    status, body = call(upf, "GET", "/offload")
    assert status == 503 and "OffloadService" in body["error"]


def test_bad_requests_are_json_errors(upf):
    status, body = call(upf, "POST", "/ue/10.250.0.999/downlink-data", token=upf.token)
    assert status == 400 and body["error"] == "not an IPv4 address: 10.250.0.999"
    status, body = call(upf, "POST", "/lab/device/counter?pkts=1&bytes=1", token=upf.token)
    assert status == 400 and body["error"] == "missing query parameter cell"
    status, body = call(upf, "POST", "/lab/device/counter?cell=x&pkts=1&bytes=1", token=upf.token)
    assert status == 400 and body["error"] == "query parameter cell is not a number: x"
    status, body = call(upf, "GET", "/nowhere")
    assert status == 404 and body["error"] == "no such resource GET /nowhere"
    status, body = call(upf, "DELETE", "/health", token=upf.token)
    assert status == 405 and "error" in body
    status, body = call(upf, "GET", "/sessions/x")
    assert status == 400 and "not an unsigned 64-bit number" in body["error"]
    status, body = call(upf, "POST", "/sessions", token=upf.token, data=b"{}", content_type="text/plain")
    assert status == 415 and "error" in body
    # Still serving.
    assert call(upf, "GET", "/health")[1]["status"] == "ok"


def test_bodies_are_bounded(upf):
    status, body = call(upf, "POST", "/reconcile", token=upf.token, data=b"[" * (1 << 20 | 1))
    assert status == 413 and body["error"] == "body exceeds 1048576 bytes"
    # 100,000 nested '[' (CVE-2020-36518) on the JSON resources: refused by depth, nothing created.
    status, body = call(upf, "POST", "/sessions", token=upf.token, data=b"[" * 100_000,
                        content_type="application/json")
    assert status == 400 and body["error"] == "body nested deeper than 32 levels"
    assert call(upf, "GET", "/health")[1]["status"] == "ok"
    assert call(upf, "GET", "/sessions") == (200, {"sessions": []})


@pytest.fixture(scope="module")
def read_only():
    u = start_upf(token="")
    yield u
    stop_upf(u)


def test_without_a_token_the_api_is_read_only(read_only):
    for path in CHANGES:
        status, body = call(read_only, "POST", path, token="")
        assert status == 403 and body["error"].startswith("read-only"), path
    assert call(read_only, "GET", "/sessions") == (200, {"sessions": []})


def test_a_malformed_allowed_peer_stops_the_host_with_its_reason():
    with pytest.raises(RuntimeError, match="allowed peer 'smf@upf.example': upf.example is not an IP address"):
        start_upf("--allow", "smf@upf.example")
