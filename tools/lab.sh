#!/usr/bin/env bash
# `make lab`: build what the lab needs, then run it (tools/hupf_tools/lab/run.py); arguments go to
# the lab (e.g. --ues 50 --duration 60 --backend-only --json out.json).
# `tools/lab.sh bench [args]`: the hybrid scalability benchmark (tools/hupf_tools/lab/scale.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
[ -x "$PY" ] || { echo "lab: FAILED: $PY missing: run 'make setup'" >&2; exit 2; }

# The runner's classpath: both modules' fresh classes first (a hupf-pipeconf jar installed in ~/.m2 may
# be stale), then the app's and the pipeconf's dependencies (the pipeconf brings the P4Runtime transport).
build_java() {
  nice mvn -B -q -Dstyle.color=never -pl app -am package -DskipTests
  for m in app pipeconf; do
    nice mvn -B -q -Dstyle.color=never -pl $m dependency:build-classpath -Dmdep.includeScope=compile \
      -Dmdep.outputFile="$PWD/$m/target/deps-classpath.txt" >/dev/null
  done
  echo "$PWD/app/target/classes:$PWD/pipeconf/target/classes:$(cat app/target/deps-classpath.txt):$(cat pipeconf/target/deps-classpath.txt)" \
    > app/target/lab-classpath.txt
}

if [ "${1:-}" = bench ]; then
  shift
  echo "lab: building the app for the offload simulation"
  build_java
  PYTHONPATH=tools exec nice "$PY" -m hupf_tools.lab.scale --classpath "$(cat app/target/lab-classpath.txt)" "$@"
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "lab: FAILED: the lab needs root (network namespaces, veth, raw sockets, DPDK af_packet): run 'sudo make lab'" >&2
  exit 2
fi
if ! pkg-config --exists libdpdk 2>/dev/null; then
  echo "lab: FAILED: DPDK not found (pkg-config libdpdk): install libdpdk-dev (make setup does)" >&2
  exit 2
fi

echo "lab: building the backend, the pipeconf and the app (runner classpath)"
nice make -s -C backend >/dev/null
build_java

# Whatever happens (Ctrl-C, a failure before the lab's own teardown), leave no topology behind;
# the tag keeps this run's names apart from other labs on the machine.
export HUPF_LAB_TAG=$$
trap 'PYTHONPATH=tools "$PY" -m hupf_tools.lab.run --cleanup >/dev/null 2>&1 || true' EXIT
PYTHONPATH=tools "$PY" -m hupf_tools.lab.run "$@"
