"""Headless Chromium driven over the DevTools protocol, for the GUI tests.

The protocol runs over a pipe (--remote-debugging-pipe: Chromium reads NUL-terminated JSON commands on fd 3
and writes replies and events on fd 4), so no websocket client and no debugging port are needed. Chromium
comes from Debian's `chromium` package (tools/setup.sh installs it); its bundled browser downloads
(playwright, puppeteer) do not work on these machines."""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def chromium_path():
    """The chromium executable, or None."""
    return shutil.which("chromium")


def _pipe_fds(chrome_in, chrome_out):
    """In the child: chrome_in at fd 3, chrome_out at fd 4 (moved up first: either may be 3 or 4)."""
    high_in, high_out = fcntl.fcntl(chrome_in, fcntl.F_DUPFD, 10), fcntl.fcntl(chrome_out, fcntl.F_DUPFD, 10)
    os.dup2(high_in, 3)
    os.dup2(high_out, 4)


class ChromiumError(Exception):
    pass


class Chromium:
    """One headless Chromium with a fresh profile and one page, attached in flat session mode."""

    def __init__(self, width=1400, height=1000):
        self.profile = tempfile.mkdtemp(prefix="hupf-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # Chromium expects the pipe at fds 3 (its input) and 4 (its output).
        self.proc = subprocess.Popen(
            [chromium_path(), *FLAGS, "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=lambda: _pipe_fds(to_chrome_r, from_chrome_w),
            start_new_session=True)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._next_id = 0
        self.session = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable")

    def close(self):
        try:
            if self.proc.poll() is None:
                self.call("Browser.close", session=False, timeout=10)
                self.proc.wait(timeout=10)
        except (ChromiumError, OSError, subprocess.TimeoutExpired):
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        finally:
            os.close(self._to_chrome)
            os.close(self._from_chrome)
            shutil.rmtree(self.profile, ignore_errors=True)

    # -- protocol ---------------------------------------------------------------------------------------
    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_chrome], [], [], left)[0]:
                raise ChromiumError("no DevTools message from Chromium in time")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise ChromiumError("Chromium closed its DevTools pipe (exit %s)" % self.proc.poll())
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, session=True, timeout=30, **params):
        """Sends one command (to the page's session unless session=False) and returns its result."""
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise ChromiumError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})

    # -- page -------------------------------------------------------------------------------------------
    def navigate(self, url):
        self.call("Page.navigate", url=url)

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (None while the page is between documents)."""
        try:
            r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        except ChromiumError:
            return None
        return None if "exceptionDetails" in r else r["result"].get("value")

    def wait_for(self, expression, timeout, what):
        """Polls a JavaScript expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise ChromiumError("not after %d s: %s (last value %r, page %s)"
                                    % (timeout, what, value, self.evaluate("location.href")))
            time.sleep(0.5)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
