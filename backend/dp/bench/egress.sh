#!/bin/sh
# The egress scheduler's report (markdown on stdout): dp/bench/egressbench of this tree and of a
# baseline (the egress.c from before the owner lcore's ring), side by side in one run.
#   egress.sh NEW_EGRESSBENCH [BASE_EGRESSBENCH]
# EGRESS_RUNS callgrind runs per row (default 5), EGRESS_TRIALS timed trials per row (7),
# BENCH_PKTS packets per run or trial (callgrind: CG_PKTS, default 200000). Every process is
# bounded in time.
new=$1 base=$2
R=${EGRESS_RUNS:-5}
T=${EGRESS_TRIALS:-7}
out=$(mktemp -d)
trap 'rm -rf $out' EXIT
# callgrind_row LABEL BIN MODE: instructions per packet inside egress_enqueue and egress_dequeue
# (callees included), R runs: min / median / max.
callgrind_row() {
	label=$1 bin=$2 mode=$3
	: > $out/ir
	for r in $(seq "$R"); do
		rm -f $out/cg.out*
		BENCH_PKTS=${CG_PKTS:-200000} timeout ${CG_TIMEOUT:-900} nice valgrind --tool=callgrind \
			--toggle-collect=egress_enqueue --toggle-collect=egress_dequeue --callgrind-out-file=$out/cg.out \
			"$bin" -H -m "$mode" > $out/stdout 2> $out/stderr || { echo "| $label | $mode | failed: $(tail -1 $out/stderr) |||"; return; }
		pkts=$(awk '/^BENCH_MEASURED_PKTS/ {print $2}' $out/stdout)
		# egressbench -H zeroes the statistics after its warm-up and dumps them after the pass.
		callgrind_annotate $(ls $out/cg.out.* | head -1) 2>/dev/null | awk -v p=$pkts '
			/PROGRAM TOTALS/ { gsub(",", ""); printf "%.1f\n", $1 / p }' >> $out/ir
	done
	sort -n $out/ir | awk -v l="$label" -v m="$mode" -v r="$R" '{ v[NR] = $1 }
		END { printf "| %s | %s | %s / %s / %s | %d |\n", l, m, v[1], v[int((NR + 1) / 2)], v[NR], r }'
}
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) vCPUs, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "callgrind: instructions per packet inside egress_enqueue + egress_dequeue (the queues and the ring included),"
echo "${CG_PKTS:-200000} packets after as many for warm-up, bursts of 32, nothing dropped; $R runs per row:"
echo
echo "| code | path | instructions/pkt min / median / max | runs |"
echo "|---|---|---|---|"
[ -n "$base" ] && callgrind_row base "$base" direct
callgrind_row new "$new" direct
callgrind_row new "$new" hop
echo
echo "Time: ns per packet inside the two calls (TSC), the median call of each side summed, ${BENCH_PKTS:-2000000} packets per trial,"
echo "$T trials after a warm-up (min / median / max over the trials; each side at the median trial):"
echo
echo "| code | path | ns/pkt min / median / max | enqueue side | owner's dequeue side | dropped |"
echo "|---|---|---|---|---|---|"
[ -n "$base" ] && timeout 600 nice "$base" -L base -m direct -T "$T"
for m in direct hop threads; do
	timeout 600 nice "$new" -L new -m $m -T "$T"
done
