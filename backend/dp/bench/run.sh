#!/bin/sh
# The data-plane benchmark report (markdown on stdout): the data plane of this tree
# and a baseline one, built with the same bench.c, side by side in one run.
#   run.sh NEW_BENCH [BASE_BENCH]
# BENCH_SESSIONS (default 1000000), BENCH_BIG (16000000; empty: skip), BENCH_TRIALS (5),
# BENCH_CALLGRIND=0 skips the callgrind rows. Every process is bounded in time.
new=$1 base=$2
n=${BENCH_SESSIONS:-1000000}
big=${BENCH_BIG-16000000}
T=${BENCH_TRIALS:-5}
dir=$(dirname "$0")
each() {  # each LABEL ARGS... -> rows of new and base
	[ -n "$base" ] && timeout 900 nice "$base" -L "base" "$@" | grep '^|'
	timeout 900 nice "$new" -L "new" "$@" | grep '^|'
}
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) vCPUs, L3 $(lscpu | sed -n 's/^L3 cache: *//p'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "Packets per trial: ${BENCH_PKTS:-5000000}; $T trials after a warm-up; Mpps from each worker's own CPU time (min / median / max)."
echo
echo "| code | traffic | sessions | workers | Mpps/core min / median / max | ns/pkt pipeline (median) | ns/pkt rebuild | Mpps wall (median) | heap bytes/session | C inserts (M/s) | forwarded |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for t in uniform zipf hot; do each -T "$T" -t $t "$n"; done
each -T "$T" -t uniform 1000
[ -n "$big" ] && each -T 3 -t uniform "$big"
each -T "$T" -w 2 -t uniform "$n"
# 2 MiB hugepages when the machine has enough free (EAL --in-memory instead of --no-huge).
free=$(awk '/^HugePages_Free/ {print $2}' /proc/meminfo)
if [ "${free:-0}" -ge 1000 ]; then
	for b in $base $new; do
		l=$([ "$b" = "$new" ] && echo new || echo base)
		BENCH_HUGE=1 BENCH_MEM_MB=1900 timeout 900 nice "$b" -L "$l, hugepages" -T "$T" -t uniform "$n" | grep '^|'
	done
else
	echo "| (hugepages: fewer than 1000 free 2 MiB pages; not measured) |||||||||||"
fi
[ "${BENCH_CALLGRIND:-1}" = 0 ] && exit 0
echo
echo "callgrind (\`--cache-sim=yes\`, LL as this machine's), per packet through dp_process_burst, ${CG_PKTS:-100000} packets after as many for warm-up:"
echo
echo "| code | traffic | sessions | instructions/pkt | LL misses/pkt | LL read misses/pkt | LL write misses/pkt | LL simulated |"
echo "|---|---|---|---|---|---|---|---|"
for t in uniform hot; do
	[ -n "$base" ] && nice "$dir/callgrind.sh" "$base" base $t "$n"
	nice "$dir/callgrind.sh" "$new" new $t "$n"
done
