"""eUPF, the peer hupf's control plane is benchmarked against (../shared/eupf/README.md), run for one round.

eUPF attaches XDP to an interface, so each round gets a network namespace of its own with one end of a veth pair
(generic XDP; the other end sits in a second namespace of ours, so that the link is up) and a private bpffs.
The PFCP client talks to eUPF inside that namespace from 127.0.0.1, which is also the SMF's Node ID: eUPF's
Heartbeat Requests go to <SMF address>:8805, answered here by a small responder, or eUPF would drop the
association part-way through a long round. Nothing leaves the namespaces created here.
"""
import contextlib
import ctypes
import errno
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

SKIPPED = "SKIPPED: eUPF not found (set HUPF_EUPF=<eupf binary>, see ../shared/eupf/README.md)"
CLONE_NEWNET = 0x40000000
UPF_ADDR, PEER_ADDR, PREFIX = "10.201.0.1", "10.201.0.2", 24
SMF_ADDR = "127.0.0.1"
API_PORT = 18080
PFCP_PORT = 8805
RECOVERY_IE = 96
# The kernel keeps 15 characters of a map's name: pdr_map_downlink_ip4 and _ip6 differ by their key's size.
TABLES = {("pdr_map_downlin", 4): "dl", ("pdr_map_teid_ip", 4): "ul"}
SYS_BPF, BPF_MAP_GET_NEXT_KEY, BPF_MAP_GET_FD_BY_ID = 321, 4, 14  # x86_64
_libc = ctypes.CDLL(None, use_errno=True)


def eupf_binary():
    """The eUPF binary named by HUPF_EUPF, or None (the benchmark then prints SKIPPED for the peer)."""
    path = os.environ.get("HUPF_EUPF")
    return path if path and os.access(path, os.X_OK) else None


def map_sizes(n):
    """max_sessions and teid_pool for n sessions: eUPF sizes its PDR/FAR/URR maps 2x max_sessions and its QER map
    1x, and hands out one F-TEID per CHOOSE; a power of two with a quarter spare, 65,536 at least."""
    size = 65536
    while size < n * 5 // 4:
        size *= 2
    return size, 2 * size


def config(interface, n, level):
    max_sessions, teid_pool = map_sizes(n)
    return "\n".join([
        "interface_name: [%s]" % interface, "xdp_attach_mode: generic",
        "api_address: 127.0.0.1:%d" % API_PORT, "pfcp_address: %s:%d" % (UPF_ADDR, PFCP_PORT),
        "pfcp_node_id: %s" % UPF_ADDR, "metrics_address: 127.0.0.1:19090", "n3_address: %s" % UPF_ADDR,
        "max_sessions: %d" % max_sessions, "teid_pool: %d" % teid_pool, "feature_ftup: true",
        "logging_level: %s" % level, "heartbeat_interval: 5", ""])


def _bpf(cmd, attr):
    r = _libc.syscall(SYS_BPF, cmd, ctypes.byref(attr), ctypes.sizeof(attr))
    return r, (ctypes.get_errno() if r < 0 else 0)


def map_entries(map_id, key_size, max_entries):
    """Entries of an eBPF hash map, counted by walking its keys (BPF_MAP_GET_NEXT_KEY): bpftool's dump would
    print each of 100,000 208-byte values to say how many there are."""
    attr = (ctypes.c_uint32 * 32)(map_id)
    fd, err = _bpf(BPF_MAP_GET_FD_BY_ID, attr)
    if fd < 0:
        raise OSError(err, "BPF_MAP_GET_FD_BY_ID %d" % map_id)
    try:
        key, nxt = ctypes.create_string_buffer(key_size), ctypes.create_string_buffer(key_size)
        walk = (ctypes.c_uint64 * 16)(fd, 0, ctypes.addressof(nxt))  # map_fd (+ pad), key = NULL: the first key
        for count in range(max_entries + 1):
            r, err = _bpf(BPF_MAP_GET_NEXT_KEY, walk)
            if r < 0:
                if err == errno.ENOENT:
                    return count
                raise OSError(err, "BPF_MAP_GET_NEXT_KEY")
            ctypes.memmove(key, nxt, key_size)
            walk[1] = ctypes.addressof(key)
        raise RuntimeError("map %d holds more keys than its max_entries %d" % (map_id, max_entries))
    finally:
        os.close(fd)


@contextlib.contextmanager
def in_netns(name):
    """Runs the block (this thread) in network namespace `name`; sockets made there stay in it afterwards."""
    home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    target = os.open("/run/netns/" + name, os.O_RDONLY)
    try:
        if _libc.setns(target, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns " + name)
        try:
            yield
        finally:
            if _libc.setns(home, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns back")
    finally:
        os.close(target)
        os.close(home)


def heartbeat_response(request, recovery):
    """The Heartbeat Response (type 2) to a Heartbeat Request: same sequence number, our Recovery Time Stamp."""
    body = struct.pack("!HHI", RECOVERY_IE, 4, recovery)
    return struct.pack("!BBH", 0x20, 2, 4 + len(body)) + request[4:8] + body


class HeartbeatResponder(threading.Thread):
    """Answers eUPF's Heartbeat Requests on the SMF's port 8805 until stopped."""

    def __init__(self, sock, recovery):
        super().__init__(daemon=True)
        self.sock, self.recovery, self.answered = sock, recovery, 0
        self.stopping = threading.Event()
        sock.settimeout(0.5)

    def run(self):
        while not self.stopping.is_set():
            try:
                data, addr = self.sock.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            if len(data) >= 8 and data[1] == 1:
                self.sock.sendto(heartbeat_response(data, self.recovery), addr)
                self.answered += 1

    def stop(self):
        self.stopping.set()
        self.join(5)
        self.sock.close()


class Eupf:
    """eUPF in namespaces of its own for one round; stop() removes everything, also after a failed start."""

    def __init__(self, binary, sessions, level="info", recovery=3900000000):
        tag = "%d-%d" % (os.getpid(), int(time.monotonic() * 1000) % 100000)
        self.ns, self.peer_ns = "hupfb-eupf-" + tag, "hupfb-peer-" + tag
        self.dir = tempfile.mkdtemp(prefix="hupf-eupf-")
        self.log = os.path.join(self.dir, "eupf.log")
        self.proc, self.heartbeats, self.pfcp = None, None, (UPF_ADDR, PFCP_PORT)
        try:
            self._namespaces()
            cfg = os.path.join(self.dir, "eupf.yml")
            with open(cfg, "w") as f:
                f.write(config("ve0", sessions, level))
            with in_netns(self.ns):
                hb = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                hb.bind((SMF_ADDR, PFCP_PORT))
            self.heartbeats = HeartbeatResponder(hb, recovery)
            self.heartbeats.start()
            # ip netns exec gives the command a mount namespace of its own: the bpffs mounted there (and eUPF's
            # pins in it) go when eUPF does.
            with open(self.log, "w") as out:
                self.proc = subprocess.Popen(
                    ["ip", "netns", "exec", self.ns, "sh", "-c",
                     'mount -t bpf bpf /sys/fs/bpf && exec "$0" --config "$1"', binary, cfg],
                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        except BaseException:
            self.stop()
            raise

    def _namespaces(self):
        ip = lambda *a: subprocess.run(["ip", *a], check=True, capture_output=True, timeout=30)  # noqa: E731
        ip("netns", "add", self.ns)
        ip("netns", "add", self.peer_ns)
        ip("-n", self.ns, "link", "add", "ve0", "type", "veth", "peer", "name", "vp0", "netns", self.peer_ns)
        ip("-n", self.ns, "addr", "add", "%s/%d" % (UPF_ADDR, PREFIX), "dev", "ve0")
        ip("-n", self.peer_ns, "addr", "add", "%s/%d" % (PEER_ADDR, PREFIX), "dev", "vp0")
        for ns, dev in ((self.ns, "ve0"), (self.ns, "lo"), (self.peer_ns, "vp0")):
            ip("-n", ns, "link", "set", dev, "up")

    def smf_socket(self, smf_factory):
        """An SMF (smf_factory(upf_addr, node_id, bind)) whose socket lives in eUPF's namespace."""
        with in_netns(self.ns):
            return smf_factory(self.pfcp, node_id=SMF_ADDR, bind=SMF_ADDR)

    def associate(self, smf, setup_ok, timeout=60):
        """Association Setup, repeated until eUPF answers (it listens once its XDP programs are loaded)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("eUPF exited: " + self.log_tail())
            if setup_ok(smf):
                return
        raise RuntimeError("eUPF did not answer an Association Setup in %d s: %s" % (timeout, self.log_tail()))

    def log_tail(self, lines=20):
        with open(self.log, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def table_counts(self):
        """{"dl": downlink PDRs by UE address, "ul": uplink PDRs by TEID} in eUPF's eBPF maps, found through its
        own fds (other eUPFs may run on the machine)."""
        ids = set()
        fd_dir = "/proc/%d/fdinfo" % self.proc.pid
        for fd in os.listdir(fd_dir):
            try:
                with open(os.path.join(fd_dir, fd)) as f:
                    m = re.search(r"^map_id:\s*(\d+)", f.read(), re.M)
            except OSError:
                continue
            if m:
                ids.add(m.group(1))
        out = {}
        for map_id in sorted(ids):
            show = json.loads(subprocess.run(["bpftool", "map", "show", "id", map_id, "-j"], capture_output=True,
                                             text=True, timeout=30).stdout or "{}")
            name = TABLES.get((show.get("name"), show.get("bytes_key")))
            if name:
                out[name] = map_entries(int(map_id), show["bytes_key"], show["max_entries"])
        return out

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.heartbeats is not None:
            self.heartbeats.stop()
        for ns in (self.ns, self.peer_ns):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)
        # At logging_level info eUPF writes ~40 lines per session (240 MB per 100k round); a failed start's
        # error already carries the log's tail.
        shutil.rmtree(self.dir, ignore_errors=True)
