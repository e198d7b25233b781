#!/bin/sh
# P4Runtime insert rate of hupf-backend binaries side by side (markdown rows): each
# run starts a fresh backend (no ports: its forwarding lcore idles), writes N sessions
# (4 exact entries each) with hupf-p4rt-bench, and stops it; binaries alternate
# within each round so that load on a shared machine hits them alike.
#   inserts.sh P4RT_BENCH P4INFO PORT SESSIONS ROUNDS BATCH LABEL=BACKEND...
cli=$1 info=$2 port=$3 n=$4 rounds=$5 batch=$6
shift 6
out=$(mktemp -d)
for r in $(seq "$rounds"); do
	for lb in "$@"; do
		label=${lb%%=*} bin=${lb#*=}
		$bin --grpc-addr 127.0.0.1:$port --sessions $((n > 1000000 ? n : 1000000)) --log-level warn &
		be=$!
		sleep 2
		timeout 600 $cli --addr 127.0.0.1:$port --p4info $info --sessions $n --batch $batch |
			awk -F'|' '/^\|/ {gsub(/ /, "", $7); print $7}' >> "$out/$label"
		kill $be; wait $be
	done
done
for lb in "$@"; do
	label=${lb%%=*}
	sort -n "$out/$label" | awk -v l="$label" -v n="$n" -v b="$batch" \
		'{v[NR] = $1} END {printf "| %s | %d | %d | %d | %.0f / %.0f / %.0f |\n", l, n, b, NR, v[1], v[int((NR + 1) / 2)], v[NR]}'
done
rm -rf "$out"
