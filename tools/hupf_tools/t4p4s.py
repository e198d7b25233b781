"""hupf's sw profile on T4P4S (issue #36, docs/BACKENDS.md "T4P4S"): finding the T4P4S checkout, compiling the
program with it (its cache makes a repeat quick), building hupf's adapter (backend/agent/cmd/hupf-t4p4s: the
contract's P4Runtime in front, T4P4S's controller protocol behind) and the switch's command line on DPDK net_pcap
ports. The tests (tests/lib/t4p4s_switch.py), the lab and the benchmark start them from here."""
import os
import subprocess
from pathlib import Path

DEFAULT_HOME = Path("/opt/t4p4s")
MISSING = "T4P4S (set HUPF_T4P4S=<T4P4S checkout with t4p4s.sh and hupf-env.sh>, docs/BACKENDS.md \"T4P4S\")"
REPO = Path(__file__).resolve().parents[2]
PROGRAM = REPO / "p4src" / "t4p4s" / "hupf_sw.p4"
# The switch connects to its controller on this loopback port, compiled into it: one T4P4S switch of a build at a
# time; a build with larger hashes takes the next port, so that a benchmark on it and a lab on the stock build can
# run at once.
CONTROLLER_PORT = 52761
# T4P4S's variants name their build directories: "std" is the tests' build with T4P4S's debug log (every packet
# and entry logged, which they read); "veth" (T4P4S's NIC variant for veths) is built without it, for the lab and
# the benchmark, which a per-packet log would slow down. VETH_MODE: no RSS or checksum offload, which net_pcap lacks.
DEBUG_VARIANT, FAST_VARIANT = "std", "veth"
VARIANT_OPTS = {DEBUG_VARIANT: ["dbg"], FAST_VARIANT: []}
COMPILE_TIMEOUT_S = 1200
# T4P4S's exact tables are DPDK hashes of HASH_ENTRIES entries whatever the P4 size (dpdk_tables.h): 1,024 unless
# the build sets it (cflags+=-DHASH_ENTRIES=N, which a local change lets through: docs/BACKENDS.md, build step 5).
# hupf's per-UE tables hold that many UEs; a build with larger hashes goes to its own build directory.
EXACT_TABLE_ENTRIES = 1024
# hupf's sw table sizes need about 1 GB of DPDK memory (T4P4S's LPM tables); no hugepages.
EAL_MEMORY_MB = 1024


def home():
    """The T4P4S checkout to use (HUPF_T4P4S, default /opt/t4p4s: t4p4s.sh and hupf-env.sh, the environment its
    build steps write, docs/BACKENDS.md "T4P4S"), or None."""
    path = Path(os.environ.get("HUPF_T4P4S") or DEFAULT_HOME)
    if (path / "t4p4s.sh").is_file() and (path / "hupf-env.sh").is_file():
        return path
    return None


def controller_port(hash_entries=EXACT_TABLE_ENTRIES):
    return CONTROLLER_PORT if hash_entries == EXACT_TABLE_ENTRIES else CONTROLLER_PORT + 1


def build_dir(hash_entries=EXACT_TABLE_ENTRIES):
    """T4P4S's build directory (T4P4S_BUILD_DIR) for exact tables of hash_entries: its default for the stock size."""
    return home() / ("build" if hash_entries == EXACT_TABLE_ENTRIES else "build-hash%d" % hash_entries)


def executable(variant, hash_entries=EXACT_TABLE_ENTRIES):
    """Where T4P4S puts the switch it compiles for a variant (it names the directory after program and variant)."""
    return build_dir(hash_entries) / ("hupf_sw@%s-v1model" % variant) / "build" / "hupf_sw"


def compile_switch(variant=DEBUG_VARIANT, hash_entries=EXACT_TABLE_ENTRIES):
    """Compiles the program with T4P4S, niced, its exact tables' hashes of hash_entries; the executable's path."""
    opts = ["arch=dpdk", "model=v1model", "variant=" + variant, "^run"] + VARIANT_OPTS[variant] + [
        "cflags+=-DT4P4S_VETH_MODE", "T4P4S_CTL_PORT=%d" % controller_port(hash_entries)]
    if hash_entries != EXACT_TABLE_ENTRIES:
        opts.append("cflags+=-DHASH_ENTRIES=%d" % hash_entries)
    cmd = ". ./hupf-env.sh && T4P4S_BUILD_DIR=%s nice -n 10 ./t4p4s.sh %s %s" % (
        build_dir(hash_entries), PROGRAM, " ".join("'%s'" % o for o in opts))
    done = subprocess.run(["bash", "-c", cmd], cwd=home(), capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    if done.returncode != 0:
        raise RuntimeError("T4P4S failed to compile %s:\n%s" % (PROGRAM, done.stdout[-4000:] + done.stderr[-2000:]))
    exe = executable(variant, hash_entries)
    if not exe.is_file():
        raise RuntimeError("T4P4S compiled %s but left no %s" % (PROGRAM, exe))
    return exe


def build_adapter(out_dir):
    """hupf-t4p4s built from this tree (pure Go: no DPDK)."""
    exe = Path(out_dir) / "hupf-t4p4s"
    subprocess.run(["go", "build", "-o", str(exe), "./cmd/hupf-t4p4s"], cwd=REPO / "backend" / "agent",
                   check=True, capture_output=True, timeout=600)
    return exe


def adapter_command(adapter, grpc_addr, hash_entries=EXACT_TABLE_ENTRIES):
    """hupf-t4p4s serving P4Runtime on grpc_addr, the controller of the switch built for hash_entries, told the
    size it compiled the exact tables with (a write past it is refused instead of ending the switch)."""
    return [str(adapter), "--grpc-addr", grpc_addr, "--controller-addr",
            "127.0.0.1:%d" % controller_port(hash_entries), "--hash-entries", str(hash_entries)]


def switch_command(exe, vdevs, file_prefix, memory_mb=EAL_MEMORY_MB):
    """The switch on one lcore with `vdevs` as its DPDK ports (DPDK port i = net_pcap spec vdevs[i] = P4 port i),
    line-buffered (its output is read while it runs); file_prefix: its own DPDK runtime directory."""
    eal = ["-c", "0x1", "-n", "1", "--no-huge", "-m", str(memory_mb), "--no-pci", "--file-prefix", file_prefix]
    for i, spec in enumerate(vdevs):
        eal += ["--vdev", "net_pcap%d,%s" % (i, spec)]
    ports = ",".join("(%d,0,0)" % i for i in range(len(vdevs)))
    return ["stdbuf", "-oL", str(exe)] + eal + ["--", "-p", hex((1 << len(vdevs)) - 1), "--config", ports]
