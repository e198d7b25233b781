#!/usr/bin/env bash
# Instructions per packet of each service's timed loop (callgrind, --toggle-collect on the loop), a
# figure the machine's load does not change. Usage: bench/callgrind.sh BENCH_BINARY [PACKETS]
# Under valgrind libcrypto sees valgrind's CPU (AES-NI, AVX2, no AVX-512/VAES) and picks its code for it.
set -euo pipefail
bin=$1 packets=${2:-32000}
out=$(mktemp -d /tmp/gnb-callgrind.XXXXXX)
trap 'rm -rf "$out"' EXIT
echo "| service | frame bytes | instructions / packet |"
echo "|---|---|---|"
names=("crypto NEA2" "crypto NEA2 + NIA2" "BaaS hold + ack")
loops=(crypto_loop crypto_loop baas_loop)
for kind in 0 1 2; do
  for size in 64 1500; do
    f=$out/cg.$kind.$size
    timeout 1200 valgrind --tool=callgrind --toggle-collect="${loops[$kind]}" --callgrind-out-file="$f" \
      "$bin" -l 0 --no-huge -m 512 --no-pci --no-shconf --log-level=lib.*:error --file-prefix=gnbcg$$ \
      -- --runs 1 --packets "$packets" --kind $kind --size $size > /dev/null 2>&1
    ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$f")
    echo "| ${names[$kind]} | $size | $((ir / packets)) |"
  done
done
