"""Where hupf finds the P4 toolchain built outside the repository (../shared/p4tools: p4c, PI, bmv2), one rule for
every suite, the lab and the fabric: the tool's own variable (BMV2, P4C), else PATH, else the toolchain's prefix
P4_PREFIX (default /opt/p4). tools/run_suite.sh applies the same rule for the non-Python parts: it puts the prefix's
bin/ on PATH and its lib/ (PI's and bmv2's shared libraries) on LD_LIBRARY_PATH."""
import os
import shutil

DEFAULT_PREFIX = "/opt/p4"
BMV2_HINT = "bmv2 simple_switch_grpc (BMV2=..., PATH or $P4_PREFIX/bin)"
P4C_HINT = "p4c p4c-bm2-ss (P4C=..., PATH or $P4_PREFIX/bin)"


def prefix():
    return os.environ.get("P4_PREFIX") or DEFAULT_PREFIX


def find(variable, program):
    """The program named by the environment variable, else on PATH, else in the prefix's bin/; None when absent."""
    named = os.environ.get(variable)
    if named:
        return named
    on_path = shutil.which(program)
    if on_path:
        return on_path
    in_prefix = os.path.join(prefix(), "bin", program)
    return in_prefix if os.access(in_prefix, os.X_OK) else None


def bmv2():
    return find("BMV2", "simple_switch_grpc")


def p4c():
    return find("P4C", "p4c-bm2-ss")
