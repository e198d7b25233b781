#!/usr/bin/env bash
# run_suite.sh NAME COMMAND...: runs one test suite, keeps its log in reports/, and prints one
# summary line "suite NAME: PASSED|FAILED|SKIPPED (counts)". Exit status: 0 unless it FAILED.
set -uo pipefail
name=$1; shift
mkdir -p reports
# The P4 toolchain built outside the repository (../shared/p4tools: p4c, PI, bmv2) is found as
# hupf_tools/p4tools.py finds it: BMV2 / P4C, else PATH, else the prefix P4_PREFIX (default /opt/p4), as the
# ONOS suite finds ONOS in /opt/hupf-onos. Its bin/ goes on PATH and its lib/ (PI's and bmv2's libraries) on
# LD_LIBRARY_PATH here, for every suite, so that a caller sets neither.
p4_prefix=${P4_PREFIX:-/opt/p4}
if [ -x "$p4_prefix/bin/simple_switch_grpc" ] || [ -x "$p4_prefix/bin/p4c-bm2-ss" ]; then
  export PATH=$PATH:$p4_prefix/bin
  export LD_LIBRARY_PATH=$p4_prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
# p4c's Tofino backend (p4c-barefoot, bfas) likewise in P4_TOFINO_PREFIX (default /opt/p4-tofino,
# docs/TOFINO.md): the PTF suite then compiles the Tofino 2 profile once (minutes at nice).
tofino_bin=${P4_TOFINO_PREFIX:-/opt/p4-tofino}/bin
if [ -x "$tofino_bin/p4c-barefoot" ]; then
  export PATH=$PATH:$tofino_bin
fi
log=reports/test-$name.log
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

# Maven Surefire: sum the per-module "Results" lines (the per-class lines carry "Time elapsed").
counts=$(grep -E "Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+ *$" "$log" \
  | sed -E 's/.*Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+).*/\1 \2 \3 \4/' \
  | awk '{r+=$1; f+=$2; e+=$3; s+=$4; n++} END {if (n) printf "Tests run: %d, Failures: %d, Errors: %d, Skipped: %d", r, f, e, s}')
[ -n "$counts" ] || counts=$(grep -E "^=+ .*(passed|failed|skipped|error|no tests ran).* =+$" "$log" | tail -1)  # pytest
[ -n "$counts" ] || counts=$(grep -E "^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
skip=$(grep -m1 -E "^SKIPPED " "$log")

if [ "$rc" -eq 5 ] && [ -n "$skip" ]; then rc=0; fi  # pytest: nothing collected because the suite skipped itself
if [ "$rc" -ne 0 ]; then
  status=FAILED
elif [ -n "$skip" ] && ! echo "$counts" | grep -qE "[1-9][0-9]* passed|Tests run: [1-9]"; then
  status=SKIPPED; counts=$skip
else
  status=PASSED
fi
line="suite $name: $status${counts:+ ($(echo "$counts" | sed -E 's/^=+ | =+$//g'))}"
echo "$line"
echo "$line" >> reports/summary.txt
[ "$status" != FAILED ]
