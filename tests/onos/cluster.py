"""A three-node ONOS 2.7 cluster on one machine (issue 18): three Atomix 3.1.9 storage nodes (ONOS 2.x keeps
its Raft partitions outside itself, in Atomix agents) and three ONOS instances, each process in its own
network namespace with its own address on a bridge, so that every one uses its standard ports (ONOS 8181,
8101, 9876; Atomix 5679, 5678) without colliding with the others or with an ONOS on the host's ports.

The Atomix agent is on no package registry: it is found at HUPF_ATOMIX or /opt/hupf-onos/atomix (a `lib/`
holding atomix-agent-3.1.9.jar and its dependencies), made as docs/CLUSTER.md says."""
import json
import os
import signal
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import onos_runtime

DEFAULT_ATOMIX_HOME = "/opt/hupf-onos/atomix"
AGENT_JAR = "atomix-agent-3.1.9.jar"
SIZE = 3
ONOS_CLUSTER_PORT, ATOMIX_PORT, ATOMIX_HTTP_PORT = 9876, 5679, 5678
# Heaps capped so that six JVMs fit beside the other work of a shared machine.
ONOS_JAVA_OPTS = ("-Xms256m -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=200 -Dkaraf.log.console=INFO"
                  " -Dds.lock.timeout.milliseconds=10000")
ATOMIX_HEAP = "-Xmx256m"
LEADERSHIP_STORE = "org.onosproject.store.cluster.impl.DistributedLeadershipStore"
ELECTION_TIMEOUT_MS = 10000


def atomix_home():
    """The Atomix agent's directory, or None when this machine has none."""
    home = Path(os.environ.get("HUPF_ATOMIX") or DEFAULT_ATOMIX_HOME)
    return home if (home / "lib" / AGENT_JAR).is_file() else None


def missing():
    """What the cluster needs beyond the single-node suite and this machine lacks (one phrase), or None."""
    if atomix_home() is None:
        return "Atomix 3.1.9 agent: no %s/lib/%s (HUPF_ATOMIX; docs/CLUSTER.md says how it is made)" % (
            os.environ.get("HUPF_ATOMIX") or DEFAULT_ATOMIX_HOME, AGENT_JAR)
    if os.geteuid() != 0:
        return "root (a network namespace per cluster member)"
    return None


def sh(*cmd):
    subprocess.run(cmd, check=True, capture_output=True, text=True)


class Net:
    """A bridge on the host (`gateway` is its address: the backend and the SMF emulator are there) and one
    namespace per member, joined to it by a veth, named after `tag` so that concurrent runs do not meet."""

    def __init__(self, tag):
        self.tag = tag
        self.bridge = "hcbr%d" % tag
        self.prefix = "10.213.%d." % tag
        self.gateway = self.prefix + "1"
        self.members = {}  # namespace -> address

    def ns(self, name):
        return "hc%d-%s" % (self.tag, name)

    def up(self):
        self.down()
        sh("ip", "link", "add", self.bridge, "type", "bridge")
        sh("ip", "addr", "add", self.gateway + "/24", "dev", self.bridge)
        sh("ip", "link", "set", self.bridge, "up")

    def add(self, name, host_octet):
        """A namespace `name` with address prefix.host_octet; returns (namespace, address)."""
        ns, addr, veth = self.ns(name), self.prefix + str(host_octet), "hc%d%s" % (self.tag, name)
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
        sh("ip", "link", "set", veth, "master", self.bridge, "up")
        sh("ip", "-n", ns, "addr", "add", addr + "/24", "dev", "eth0")
        sh("ip", "-n", ns, "link", "set", "eth0", "up")
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        self.members[ns] = addr
        return ns, addr

    def down(self):
        """Removes what a run with this tag left (namespaces, their veths, the bridge)."""
        for line in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.splitlines():
            ns = line.split()[0] if line.strip() else ""
            if ns.startswith("hc%d-" % self.tag):
                subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)
        self.members.clear()


def _kill_group(proc, sig):
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


class AtomixNode:
    """One Atomix agent: a member of the management group and of every Raft partition."""

    def __init__(self, workdir, ident, ns, addr):
        self.ident, self.ns, self.addr = ident, ns, addr
        self.dir = Path(workdir) / ident
        self.proc = None

    @property
    def log(self):
        return self.dir / "atomix.out"

    def start(self, members, java):
        """members: [(id, address)] of the storage cluster, this node included."""
        self.dir.mkdir(parents=True, exist_ok=True)
        ids = [i for i, _ in members]
        storage = {"level": "mapped", "directory": str(self.dir / "data")}
        conf = {
            "cluster": {"clusterId": "onos", "node": {"id": self.ident, "address": "%s:%d" % (self.addr, ATOMIX_PORT)},
                        "discovery": {"type": "bootstrap", "nodes": [
                            {"id": i, "address": "%s:%d" % (a, ATOMIX_PORT)} for i, a in members]}},
            "managementGroup": {"type": "raft", "partitions": 1, "partitionSize": len(ids), "members": ids,
                                "storage": storage},
            "partitionGroups": {"raft": {"type": "raft", "partitions": len(ids), "partitionSize": len(ids),
                                         "members": ids, "storage": storage}}}
        (self.dir / "atomix.json").write_text(json.dumps(conf, indent=2))
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(
                ["ip", "netns", "exec", self.ns, str(java), ATOMIX_HEAP, "-cp", str(atomix_home() / "lib" / "*"),
                 "io.atomix.agent.AtomixAgent", "--config", str(self.dir / "atomix.json"), "--ignore-resources",
                 "--log-dir", str(self.dir / "log"), "--http-host", self.addr],
                cwd=self.dir, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)

    def ready(self):
        """True once the agent's REST answers (it starts serving after it joined its Raft groups)."""
        assert self.proc.poll() is None, "Atomix %s exited: %s" % (self.ident, self.log.read_text()[-2000:])
        try:
            with urllib.request.urlopen("http://%s:%d/v1/status" % (self.addr, ATOMIX_HTTP_PORT), timeout=5) as r:
                return r.status == 200
        except OSError:
            return False

    def stop(self):
        if self.proc is None:
            return
        _kill_group(self.proc, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _kill_group(self.proc, signal.SIGKILL)
            self.proc.wait()
        self.proc = None


class Cluster:
    """Three Atomix storage nodes and three ONOS nodes; `onos` maps the id of each live ONOS node to its
    onos_runtime.Onos, `killed` those of the nodes a test killed (their files stay for the logs)."""

    def __init__(self, workdir, tag):
        self.workdir = Path(workdir)
        self.net = Net(tag)
        self.atomix = []
        self.onos = {}
        self.killed = {}

    def start(self, timeout, apps=onos_runtime.APPS):
        self.net.up()
        java = onos_runtime.java11_home(onos_runtime.onos_home()) / "bin" / "java"
        for i in range(1, SIZE + 1):
            ns, addr = self.net.add("a%d" % i, 10 + i)
            self.atomix.append(AtomixNode(self.workdir / "atomix", "atomix-%d" % i, ns, addr))
        members = [(a.ident, a.addr) for a in self.atomix]
        for a in self.atomix:
            a.start(members, java)
        for i in range(1, SIZE + 1):
            ns, addr = self.net.add("o%d" % i, 20 + i)
            ident = "onos-%d" % i
            meta = self.workdir / ("%s-cluster.json" % ident)
            meta.write_text(json.dumps({
                "name": "onos", "node": {"id": ident, "ip": addr, "port": ONOS_CLUSTER_PORT},
                "storage": [{"id": a.ident, "ip": a.addr, "port": ATOMIX_PORT} for a in self.atomix]}))
            self.onos[ident] = onos_runtime.Onos(
                self.workdir / ident, apps=apps, host=addr, netns=ns,
                java_opts=ONOS_JAVA_OPTS + " -Donos.cluster.metadata.uri=file://%s" % meta)
        deadline = time.monotonic() + timeout
        first = next(iter(self.onos.values()))
        first.wait(lambda: all(a.ready() for a in self.atomix), timeout, "the Atomix agents serve REST")
        errors = []

        def boot(o):
            try:
                o.start(max(deadline - time.monotonic(), 1))
            except Exception as e:  # reported below, after every boot ended
                errors.append("%s: %s" % (o.host, e))

        threads = [threading.Thread(target=boot, args=(o,)) for o in self.onos.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, "ONOS boot failed: %s" % errors
        # The leader elector's Atomix sessions expire after 2.5 s without a heartbeat (ONOS's default): a node
        # starved that long, as happens with six JVMs on two vCPUs, loses its leaderships with no node killed.
        # A component property, set once for the whole cluster.
        first.cli("cfg set %s electionTimeoutMillis %d" % (LEADERSHIP_STORE, ELECTION_TIMEOUT_MS))

    def election_timeouts(self):
        """{ONOS node id: electionTimeoutMillis} as each live node's leadership store has it."""
        out = {}
        for ident, o in self.onos.items():
            for line in o.cli("cfg get %s electionTimeoutMillis" % LEADERSHIP_STORE).splitlines():
                if "value=" in line:
                    out[ident] = int(line.split("value=")[1].split(",")[0])
        return out

    def nodes(self, via):
        """{ONOS node id: state} as ONOS `via` sees the cluster (GET /onos/v1/cluster)."""
        status, body = via.rest("GET", "/onos/v1/cluster")
        assert status == 200, body
        return {n["id"]: n["status"] for n in body["nodes"]}

    def leader(self, topic, via):
        """The node id leading `topic` as ONOS `via` sees it (Karaf's `leaders`), or None."""
        for line in via.cli("leaders %s" % topic).splitlines():
            cols = line.split()
            if cols and cols[0] == topic and len(cols) > 2:
                return cols[2]
        return None

    def kill(self, ident):
        """kill -9 of ONOS node `ident`'s whole process group (its java included): no orderly leave."""
        o = self.onos.pop(ident)
        _kill_group(o.proc, signal.SIGKILL)
        o.proc.wait()
        o.proc = None
        self.killed[ident] = o

    def stop(self):
        for o in self.onos.values():
            o.stop()
        for a in self.atomix:
            a.stop()
        self.net.down()

    def thread_dumps(self):
        """Has every live ONOS's JVM print its threads to its console (SIGQUIT to the java of its process group),
        kept with the logs of a failed run: what a node that stopped working was waiting for."""
        for o in self.onos.values():
            if o.proc is None:
                continue
            found = subprocess.run(["pgrep", "-g", str(o.proc.pid), "java"], capture_output=True, text=True)
            for pid in found.stdout.split():
                os.kill(int(pid), signal.SIGQUIT)
        time.sleep(2)

    def keep_logs(self, dest):
        dest = Path(dest)
        for ident, o in {**self.onos, **self.killed}.items():
            o.keep_logs(dest / ident)
        for a in self.atomix:
            (dest / a.ident).mkdir(parents=True, exist_ok=True)
            if a.log.exists():
                (dest / a.ident / a.log.name).write_bytes(a.log.read_bytes())

    def remove(self):
        for o in {**self.onos, **self.killed}.values():
            o.remove()
