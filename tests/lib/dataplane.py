"""Test-bed plumbing: veth pairs whose switch ends stay in the root namespace (where the
device under test runs) and whose host ends live in a private network namespace, plus
AF_PACKET sockets on the host ends for sending and capturing frames."""
import ctypes
import os
import select
import socket
import subprocess
import threading
import time

CLONE_NEWNET = 0x40000000
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def _run(*cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), res.stderr.strip()))


class _InNamespace:
    """Switch the calling thread into a network namespace (sockets keep their namespace)."""

    def __init__(self, name):
        self.name = name
        self._libc = ctypes.CDLL(None, use_errno=True)

    def _setns(self, path):
        fd = os.open(path, os.O_RDONLY)
        try:
            if self._libc.setns(fd, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns %s" % path)
        finally:
            os.close(fd)

    def __enter__(self):
        self._home = os.open("/proc/self/task/%d/ns/net" % threading.get_native_id(), os.O_RDONLY)
        self._setns("/var/run/netns/%s" % self.name)

    def __exit__(self, *exc):
        try:
            if self._libc.setns(self._home, CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns back to the root namespace")
        finally:
            os.close(self._home)


class TestBed:
    """Ports 1..n: switch interface `switch_ifname(p)`, host socket `send(p)`/`recv(p)`."""

    def __init__(self, nports, tag=None):
        self.tag = tag or "hp%d" % (os.getpid() % 100000)
        self.ns = self.tag + "ns"
        self.ports = list(range(1, nports + 1))
        self.socks = {}
        _run("ip", "netns", "add", self.ns)
        try:
            for p in self.ports:
                sw, host = self.switch_ifname(p), self._host_ifname(p)
                _run("ip", "link", "add", sw, "type", "veth", "peer", "name", host)
                _run("ip", "link", "set", host, "netns", self.ns)
                # No IPv6 on the test links: no router solicitations or MLD in the captures.
                _run("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % sw)
                _run("ip", "netns", "exec", self.ns, "sysctl", "-qw",
                     "net.ipv6.conf.%s.disable_ipv6=1" % host)
                _run("ip", "link", "set", sw, "mtu", "9000", "up")
                _run("ip", "netns", "exec", self.ns, "ip", "link", "set", host, "mtu", "9000", "up")
            with _InNamespace(self.ns):
                for p in self.ports:
                    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
                    s.bind((self._host_ifname(p), 0))
                    s.setblocking(False)
                    self.socks[p] = s
        except Exception:
            self.close()
            raise

    def switch_ifname(self, port):
        return "%ss%d" % (self.tag, port)

    def _host_ifname(self, port):
        return "%sh%d" % (self.tag, port)

    def send(self, port, frame):
        self.socks[port].send(bytes(frame))

    def flush(self):
        for s in self.socks.values():
            while select.select([s], [], [], 0)[0]:
                s.recv(65535)

    def recv(self, port, timeout, accept=lambda f: True):
        """The first frame the device sent on a port for which accept(frame) holds, or None.
        (The socket also sees the frames the test sends: those are skipped.)"""
        sock, deadline = self.socks[port], time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([sock], [], [], left)[0]:
                return None
            frame, addr = sock.recvfrom(65535)
            if addr[2] != PACKET_OUTGOING and accept(frame):
                return frame

    def recv_all(self, port, timeout, accept=lambda f: True):
        """Every frame the device sent on a port within timeout seconds."""
        frames, deadline = [], time.monotonic() + timeout
        while True:
            frame = self.recv(port, max(0.0, deadline - time.monotonic()), accept)
            if frame is None:
                return frames
            frames.append(frame)

    def close(self):
        for s in self.socks.values():
            s.close()
        for p in self.ports:
            subprocess.run(["ip", "link", "del", self.switch_ifname(p)], capture_output=True)
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
