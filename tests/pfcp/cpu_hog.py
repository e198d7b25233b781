"""A CPU hog beside a benchmark: `stress-ng --cpu N` where installed, else N Python processes spinning. It shows
what a loaded machine does to the control plane (slower, never wrong: no refusal of a live device)."""
import contextlib
import shutil
import signal
import subprocess
import sys


@contextlib.contextmanager
def cpu_hog(workers):
    """Keeps `workers` CPU-bound processes running inside the block (none for 0); yields what runs them."""
    if not workers:
        yield None
        return
    if shutil.which("stress-ng"):
        procs = [subprocess.Popen(["stress-ng", "--cpu", str(workers), "--quiet"], start_new_session=True)]
        what = "stress-ng --cpu %d" % workers
    else:
        procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
                 for _ in range(workers)]
        what = "%d Python processes spinning" % workers
    try:
        yield what
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
