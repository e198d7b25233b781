"""The control API's server (issue #34): no client can stall it. A client holding half a request open costs
nobody else an answer and is closed by the server's idle timeout; a body over the limit gets a readable JSON
413 whatever its framing. Waits are on conditions (an answer, the server closing a socket); the socket
timeouts below only bound a test that would otherwise hang on the old server."""
import http.client
import json
import socket

import pytest

from conftest import start_upf, stop_upf
from test_control_api import call

# Long enough that a loaded machine never closes a live test client, short enough to wait for in a test.
IDLE_MS = 2000
# A test that waits longer than this for the server has found it stalled.
GUARD_S = 60
MIB = 1 << 20


@pytest.fixture(scope="module")
def upf():
    u = start_upf("--control-idle-ms", str(IDLE_MS))
    yield u
    stop_upf(u)


def connect(upf):
    port = int(upf.control.rsplit(":", 1)[1])
    s = socket.create_connection(("127.0.0.1", port), timeout=GUARD_S)
    return s


def read_until_closed(s):
    """Everything the server sends until it closes the connection (a reset counts as closed)."""
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data
            data += chunk
    except ConnectionResetError:
        return data


def response(data):
    """(status, JSON body) of the one HTTP/1.1 response a closed connection carried."""
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


def test_clients_holding_half_a_request_stall_nobody_and_are_closed(upf):
    auth = b"Authorization: Bearer " + upf.token.encode() + b"\r\n"
    stalled = [connect(upf) for _ in range(22)]
    stalled[0].sendall(b"POST /reconcile HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth + b"Content-Le")
    stalled[1].sendall(b"POST /reconcile HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth
                       + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n[1, 2")
    # More half bodies without a token than the server has workers.
    for s in stalled[2:]:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n[1, 2")
    # Every stalled client still open: every other client is answered meanwhile, reads and changes.
    for _ in range(20):
        assert call(upf, "GET", "/health")[1]["status"] == "ok"
    assert call(upf, "POST", "/reconcile", token=upf.token)[0] == 200
    # Then the server closes each (after what answer it had, if any): the idle timeout ends the stalled ones.
    for s in stalled:
        read_until_closed(s)
        s.close()
    assert call(upf, "GET", "/health")[1]["status"] == "ok"


def test_a_declared_64_mib_body_is_a_413_before_a_byte_of_it_is_sent(upf):
    s = connect(upf)
    s.sendall(b"POST /reconcile HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + upf.token.encode()
              + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (64 * MIB))
    status, body = response(read_until_closed(s))
    s.close()
    assert status == 413 and body["error"] == "body exceeds 1048576 bytes"
    assert call(upf, "GET", "/health")[1]["status"] == "ok"


def test_a_chunked_8_mib_body_is_a_readable_413(upf):
    port = int(upf.control.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD_S)
    # Sent whole before the answer is read, as most clients do: the server reads it to the end, then answers.
    conn.request("POST", "/reconcile", body=(b"[" * MIB for _ in range(8)), encode_chunked=True,
                 headers={"Authorization": "Bearer " + upf.token, "Content-Type": "application/json"})
    r = conn.getresponse()
    assert r.status == 413 and json.loads(r.read())["error"] == "body exceeds 1048576 bytes"
    conn.close()
    assert call(upf, "GET", "/health")[1]["status"] == "ok"


def test_a_declared_body_over_the_limit_sent_whole_is_a_readable_413(upf):
    status, body = call(upf, "POST", "/reconcile", token=upf.token, data=b"[" * (4 * MIB))
    assert status == 413 and body["error"] == "body exceeds 1048576 bytes"
