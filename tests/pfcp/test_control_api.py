"""The standalone host's control API (issue #13): changes need the token, every refusal is a JSON error with
its status (never a dropped connection), and abusive bodies are refused by size."""
import json
import urllib.error
import urllib.request

import pytest

from conftest import start_upf, stop_upf


def call(upf, method, path, token=None, data=b""):
    """Returns (status, JSON body) of one request; an HTTP error status is an answer too."""
    headers = {} if token is None else {"Authorization": "Bearer " + token}
    req = urllib.request.Request(upf.control + path, data=data if method == "POST" else None, method=method,
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_changes_need_the_token(upf):
    for path in ("/device/clear", "/counter?cell=1&pkts=1&bytes=1", "/reconcile", "/ddn?ue=10.250.0.1"):
        status, body = call(upf, "POST", path)
        assert status == 401 and "Bearer" in body["error"], path
        assert call(upf, "POST", path, token="wrong")[0] == 401
    assert call(upf, "POST", "/reconcile", token=upf.token)[0] == 200
    # Reading needs none.
    assert call(upf, "GET", "/health")[0] == 200


def test_bad_requests_are_json_errors(upf):
    status, body = call(upf, "POST", "/ddn", token=upf.token)
    assert status == 400 and body["error"] == "missing query parameter ue"
    status, body = call(upf, "POST", "/ddn?ue=10.250.0.999", token=upf.token)
    assert status == 400 and "error" in body
    status, body = call(upf, "POST", "/counter?cell=x&pkts=1&bytes=1", token=upf.token)
    assert status == 400 and body["error"] == "query parameter cell is not a number: x"
    status, body = call(upf, "GET", "/nowhere")
    assert status == 404 and "no such resource" in body["error"]
    # Still serving.
    assert call(upf, "GET", "/health")[1]["status"] == "ok"


def test_bodies_are_bounded(upf):
    status, body = call(upf, "POST", "/reconcile", token=upf.token, data=b"[" * 100_000)
    assert status == 413 and body["error"] == "body exceeds 65536 bytes"
    assert call(upf, "GET", "/health")[1]["status"] == "ok"


@pytest.fixture(scope="module")
def read_only():
    u = start_upf(token="")
    yield u
    stop_upf(u)


def test_without_a_token_the_api_is_read_only(read_only):
    status, body = call(read_only, "POST", "/device/clear", token="")
    assert status == 403 and body["error"].startswith("read-only")
    assert call(read_only, "GET", "/sessions") == (200, [])


def test_a_malformed_allowed_peer_stops_the_host_with_its_reason():
    with pytest.raises(RuntimeError, match="allowed peer 'smf@upf.example': upf.example is not an IP address"):
        start_upf("--allow", "smf@upf.example")
