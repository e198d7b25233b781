#!/usr/bin/env bash
# Installs what hupf needs from the package registries: Debian packages, the Python venv,
# Maven and Go dependencies. Idempotent and quiet when there is nothing to do.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  build-essential pkg-config make cmake git curl unzip
  openjdk-17-jdk-headless maven
  golang-go
  libdpdk-dev dpdk-dev libpcap-dev libnuma-dev libcmocka-dev valgrind libssl-dev
  clang llvm libclang-rt-14-dev bpftool
  iproute2 iputils-ping tcpdump ethtool procps
  mininet
  openssh-client sshpass
  strongswan-charon strongswan-swanctl libcharon-extra-plugins libstrongswan-standard-plugins
  chromium
)

fail() { echo "setup: FAILED: $*" >&2; exit 1; }
say() { echo "setup: $*"; }

missing=()
for p in "${DEBIAN_PACKAGES[@]}"; do
  # golang-go is skipped when a Go toolchain is already on PATH (the image ships a newer one).
  if [ "$p" = golang-go ] && command -v go >/dev/null; then continue; fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null || fail "apt-get update"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || fail "apt-get install ${missing[*]}"
fi

# Python virtualenv, rebuilt only when requirements.txt changes.
PY=${PYTHON:-python3}
stamp=.venv/.requirements.sha256
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "preparing the Python virtualenv (.venv)"
  [ -x .venv/bin/python ] || "$PY" -m venv .venv || fail "python venv (install python3-venv?)"
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt || fail "pip install -r requirements.txt"
  echo "$want" > "$stamp"
fi

# Go modules of the backend's P4Runtime agent, if present.
if [ -f backend/agent/go.mod ]; then
  need=$(sed -n 's/^go \([0-9.]*\).*/\1/p' backend/agent/go.mod)
  have=$(go env GOVERSION | sed 's/^go//')
  [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" = "$need" ] \
    || fail "backend/agent needs Go >= $need, found $have (Debian bookworm-backports has golang-1.22)"
  (cd backend/agent && go mod download) || fail "go mod download (backend/agent)"
fi

# Maven dependencies are resolved by the first build; make sure Maven itself works.
command -v mvn >/dev/null || fail "mvn not found after install"
exit 0
