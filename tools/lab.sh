#!/usr/bin/env bash
# `make lab`: build what the lab needs, then run it (tools/hupf_tools/lab/run.py); arguments go to
# the lab (e.g. --ues 50 --duration 60 --switch backend --json out.json).
# `tools/lab.sh bench [args]`: the hybrid scalability benchmark (tools/hupf_tools/lab/scale.py).
# `tools/lab.sh hhpackets [args]`: thesis Table 5 with packets (tools/hupf_tools/lab/hhpackets.py).
# `tools/lab.sh backends [args]`: the lab once per backend set (tools/hupf_tools/lab/backends_bench.py; root).
# `tools/lab.sh tenants [args]`: three VXLAN tenants through a congested port, with and without priority
# (tools/hupf_tools/lab/tenants.py; root).
# `tools/lab.sh gnb [args]`: UE hosts -> the hybrid gNB (switch stand-in, crypto, BaaS) -> hupf's UPF, over a lossy
# air link (tools/hupf_tools/gnb/lab.py; root).
# `tools/lab.sh fabric [args]`: hupf through ONOS in a Mininet fabric of P4 switches, backends, gNB, DN and SMF hosts
# (tools/hupf_tools/fabric/lab.py; root, the ONOS runtime, bmv2; docs/FABRIC.md).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
[ -x "$PY" ] || { echo "lab: FAILED: $PY missing: run 'make setup'" >&2; exit 2; }

# A build step's output goes to a log; when it fails, the log's tail is shown and the lab stops. Steps run at the
# caller's priority, C in parallel: niced, beside a CPU hog they got a few percent of a CPU (tests/README.md).
BUILD_LOG=reports/lab-build.log
mkdir -p reports
: > "$BUILD_LOG"
build_step() {
  local what=$1; shift
  echo "== $what: $*" >> "$BUILD_LOG"
  if ! "$@" >> "$BUILD_LOG" 2>&1; then
    echo "lab: FAILED: $what; the last lines of $BUILD_LOG:" >&2
    tail -n 40 "$BUILD_LOG" >&2
    exit 2
  fi
}

# The runner's classpath: the standalone host's classes, then its runtime dependencies (the pipeconf,
# api and app jars of this build among them). One reactor build of the host and the modules it needs
# (-am), so neither the parent pom nor a sibling module is looked up in the local Maven repository
# (a fresh machine has neither).
build_java() {
  build_step "building the standalone host (pipeconf, api, app, standalone)" \
    mvn -B --no-transfer-progress -Dstyle.color=never -pl standalone -am package -DskipTests \
      dependency:build-classpath -Dmdep.includeScope=runtime \
      '-Dmdep.outputFile=${project.build.directory}/deps-classpath.txt'
  echo "$PWD/standalone/target/classes:$(cat standalone/target/deps-classpath.txt)" \
    > standalone/target/host-classpath.txt
}

if [ "${1:-}" = bench ]; then
  shift
  echo "lab: building the standalone host for the offload simulation"
  build_java
  PYTHONPATH=tools exec nice "$PY" -m hupf_tools.lab.scale --classpath "$(cat standalone/target/host-classpath.txt)" "$@"
fi

if [ "${1:-}" = hhpackets ]; then
  shift
  echo "lab: building the standalone host (HK-IPG configuration) and the hw pipeline's trace replay"
  build_java
  build_step "building backend/build/hhreplay" make -C backend -j"$(nproc)" build/hhreplay
  PYTHONPATH=tools exec nice "$PY" -m hupf_tools.lab.hhpackets --classpath "$(cat standalone/target/host-classpath.txt)" \
    --replay backend/build/hhreplay "$@"
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "lab: FAILED: the lab needs root (network namespaces, veth, raw sockets, DPDK af_packet): run 'sudo make lab'" >&2
  exit 2
fi
if ! pkg-config --exists libdpdk 2>/dev/null; then
  echo "lab: FAILED: DPDK not found (pkg-config libdpdk): install libdpdk-dev (make setup does)" >&2
  exit 2
fi

if [ "${1:-}" = fabric ]; then
  shift
  if [ -z "${HUPF_LAB_PREBUILT:-}" ]; then
    echo "lab: building the backend and hupf's .oar"
    build_step "building the backend" make -C backend -j"$(nproc)"
    build_step "building hupf's .oar" mvn -B --no-transfer-progress -Dstyle.color=never package -DskipTests
  fi
  PYTHONPATH=tools exec "$PY" -m hupf_tools.fabric.lab "$@"
fi

# `make test-integration` builds both once for its many lab runs and says so (HUPF_LAB_PREBUILT=1).
if [ -z "${HUPF_LAB_PREBUILT:-}" ]; then
  echo "lab: building the backend and the standalone host (runner classpath)"
  build_step "building the backend" make -C backend -j"$(nproc)"
  build_java
fi

# Whatever happens (Ctrl-C, a failure before the lab's own teardown), leave no topology behind;
# the tag keeps this run's names apart from other labs on the machine.
export HUPF_LAB_TAG=$$
trap 'PYTHONPATH=tools "$PY" -m hupf_tools.lab.run --cleanup >/dev/null 2>&1 || true' EXIT
if [ "${1:-}" = backends ]; then
  shift
  PYTHONPATH=tools "$PY" -m hupf_tools.lab.backends_bench "$@"
  exit $?
fi
if [ "${1:-}" = gnb ]; then
  shift
  build_step "building the gNB (gnb-switch, gnb-svc)" make -C gnb -j"$(nproc)"
  PYTHONPATH=tools "$PY" -m hupf_tools.gnb.lab "$@"
  exit $?
fi
if [ "${1:-}" = tenants ]; then
  shift
  PYTHONPATH=tools "$PY" -m hupf_tools.lab.tenants "$@"
  exit $?
fi
PYTHONPATH=tools "$PY" -m hupf_tools.lab.run "$@"
