"""N4 over IPsec (TS 33.501 §9.9, NDS/IP of TS 33.210): an IKEv2 tunnel between the SMF's and the UPF's network
namespaces, made with strongSwan from Debian (charon + swanctl).

Each side's N4 address lives on its namespace's loopback and is reachable from the other side only through the
ESP tunnel between the two outer (link) addresses: charon routes the peer's N4 address into its `ipsec0`
device, and strict reverse-path filtering makes the kernel drop, and count (`IPReversePathFilter`), any
datagram that claims the peer's N4 address but arrives outside the tunnel. So a sender without the tunnel's
keys cannot put a datagram in the SMF's name in front of hupf's PFCP agent, whatever address and port it forges.

ESP runs in charon's userspace (`kernel-libipsec`, UDP-encapsulated on port 4500): it needs no ESP support in
the kernel, which some kernels (this lab machine's among them) are built without. Authentication is a
pre-shared key drawn for the run and written only to the two namespaces' private swanctl files (mode 0600).

Usage (root; the namespaces and their link must exist):
    tunnel = N4Tunnel(workdir, Side("hupf-n4-smf", "172.31.40.1", "10.240.0.1", "smf.n4"),
                               Side("hupf-n4-upf", "172.31.40.2", "10.240.0.2", "upf.n4"))
    tunnel.start()        # both charons up, the CHILD_SA established (SMF side initiates)
    tunnel.esp_packets()  # {"in": n, "out": n} on the UPF side: what really went through ESP
    tunnel.stop()
"""
import contextlib
import ctypes
import json
import os
import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass

CHARON = "/usr/lib/ipsec/charon"
PLUGINS = ("random nonce openssl aes sha2 hmac gcm kdf pem pkcs1 x509 pubkey "
           "kernel-libipsec kernel-netlink socket-default vici")


def available():
    """None when strongSwan's charon, swanctl and the kernel-libipsec plugin are installed, else what is missing."""
    missing = [p for p in (CHARON, "/usr/lib/ipsec/plugins/libstrongswan-kernel-libipsec.so")
               if not os.path.exists(p)]
    if shutil.which("swanctl") is None:
        missing.append("swanctl")
    return None if not missing else "strongSwan (%s; Debian: strongswan-charon strongswan-swanctl " \
                                    "libcharon-extra-plugins)" % ", ".join(missing)


@dataclass(frozen=True)
class Side:
    netns: str
    outer: str      # the link address IKE and ESP-in-UDP run between
    n4: str         # the N4 address PFCP binds to (on the namespace's loopback)
    identity: str


def sh(*cmd, check=True, timeout=30):
    return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=timeout)


class N4Tunnel:
    """Two charon daemons, one per namespace, and the IKEv2/ESP tunnel between the sides' N4 addresses."""

    def __init__(self, workdir, smf, upf):
        self.dir, self.smf, self.upf = workdir, smf, upf
        self.daemons = {}

    def _path(self, side, name):
        return os.path.join(self.dir, side.identity, name)

    def _vici(self, side):
        return "unix://" + self._path(side, "charon.vici")

    def _write_config(self, side, peer, psk):
        os.makedirs(os.path.join(self.dir, side.identity), mode=0o700, exist_ok=True)
        with open(self._path(side, "strongswan.conf"), "w") as f:
            f.write("charon {\n  load = %s\n"
                    "  plugins {\n    vici {\n      socket = %s\n    }\n    kernel-libipsec {\n      load = yes\n"
                    "    }\n  }\n  filelog {\n    log {\n      path = %s\n      default = 1\n    }\n  }\n}\n"
                    % (PLUGINS, self._vici(side), self._path(side, "charon.log")))
        fd = os.open(self._path(side, "swanctl.conf"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            # encap: ESP in UDP 4500, which kernel-libipsec's userspace ESP receives on charon's own socket.
            f.write("connections {\n n4 {\n  version = 2\n  local_addrs = %s\n  remote_addrs = %s\n  encap = yes\n"
                    "  proposals = aes128gcm16-prfsha256-ecp256\n"
                    "  local {\n   auth = psk\n   id = %s\n  }\n  remote {\n   auth = psk\n   id = %s\n  }\n"
                    "  children {\n   n4 {\n    local_ts = %s/32\n    remote_ts = %s/32\n"
                    "    esp_proposals = aes128gcm16\n   }\n  }\n }\n}\n"
                    "secrets {\n ike-n4 {\n  id-1 = %s\n  id-2 = %s\n  secret = 0x%s\n }\n}\n"
                    % (side.outer, peer.outer, side.identity, peer.identity, side.n4, peer.n4,
                       side.identity, peer.identity, psk))

    def _swanctl(self, side, *args, timeout=30):
        # swanctl takes its command first, then the options.
        return sh("ip", "netns", "exec", side.netns, "swanctl", *args, "--uri", self._vici(side), timeout=timeout)

    def _start_daemon(self, side):
        # charon keeps its pid file in /run: a tmpfs of its own there lets one charon run per namespace.
        env = dict(os.environ, STRONGSWAN_CONF=self._path(side, "strongswan.conf"))
        log = open(self._path(side, "charon.stdout"), "w")
        self.daemons[side] = subprocess.Popen(
            ["ip", "netns", "exec", side.netns, "sh", "-c", "mount -t tmpfs tmpfs /run && exec " + CHARON],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 30
        while not os.path.exists(self._path(side, "charon.vici")):
            if self.daemons[side].poll() is not None or time.time() > deadline:
                raise RuntimeError("charon in %s did not start: see %s" % (side.netns, self._path(side,
                                                                                                   "charon.stdout")))
            time.sleep(0.05)
        self._swanctl(side, "--load-all", "--file", self._path(side, "swanctl.conf"))

    def start(self):
        psk = secrets.token_hex(32)
        self._write_config(self.smf, self.upf, psk)
        self._write_config(self.upf, self.smf, psk)
        for side in (self.upf, self.smf):
            self._start_daemon(side)
        # --initiate returns once the CHILD_SA is installed (or fails with its reason).
        out = self._swanctl(self.smf, "--initiate", "--child", "n4", timeout=60)
        if "initiate completed successfully" not in out.stdout:
            raise RuntimeError("the N4 tunnel did not come up:\n" + out.stdout[-2000:])
        # Datagrams claiming the peer's N4 address must come out of the tunnel device, nowhere else.
        sh("ip", "netns", "exec", self.upf.netns, "sysctl", "-qw", "net.ipv4.conf.all.rp_filter=1")
        return self

    def esp_packets(self, side=None):
        """Packets in and out of the CHILD_SA on one side (default: the UPF's), as charon counts them."""
        side = side or self.upf
        out = sh("ip", "-n", side.netns, "-s", "-j", "link", "show", "ipsec0").stdout
        stats = json.loads(out)[0]["stats64"]
        # charon writes what it decrypted into the device (its rx) and reads what the kernel routes out (its tx).
        return {"in": stats["rx"]["packets"], "out": stats["tx"]["packets"]}

    def stop(self):
        for side, proc in self.daemons.items():
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.daemons.clear()


def reverse_path_drops(netns):
    """The kernel's count of datagrams dropped by reverse-path filtering in a namespace (TcpExt
    IPReversePathFilter)."""
    text = sh("ip", "netns", "exec", netns, "cat", "/proc/net/netstat").stdout.splitlines()
    for head, values in zip(text[::2], text[1::2]):
        if head.startswith("TcpExt:"):
            return int(dict(zip(head.split(), values.split()))["IPReversePathFilter"])
    raise RuntimeError("no TcpExt line in %s's /proc/net/netstat" % netns)


@contextlib.contextmanager
def inside(netns):
    """Runs the block in a network namespace (this thread only): sockets made in it stay in that namespace."""
    libc = ctypes.CDLL(None, use_errno=True)
    clone_newnet = 0x40000000
    with open("/proc/thread-self/ns/net") as home, open("/run/netns/" + netns) as target:
        if libc.setns(target.fileno(), clone_newnet) != 0:
            raise OSError(ctypes.get_errno(), "setns into " + netns)
        try:
            yield
        finally:
            if libc.setns(home.fileno(), clone_newnet) != 0:
                raise OSError(ctypes.get_errno(), "setns back from " + netns)
