#!/bin/sh
# Load-independent per-packet counts: instructions and last-level-cache misses of
# dp_process_burst (callees included) under callgrind's cache simulator, with the
# LL sized like this machine's last-level cache.
#   callgrind.sh BENCH_BINARY LABEL TRAFFIC SESSIONS   (prints one markdown row; CG_ARGS: more bench flags, e.g. -P hw)
set -e
bin=$1 label=$2 traffic=$3 n=$4
idx=/sys/devices/system/cpu/cpu0/cache/index3
[ -d $idx ] || idx=/sys/devices/system/cpu/cpu0/cache/index2
size=$(($(sed 's/K$//' $idx/size) * 1024)) ways=$(cat $idx/ways_of_associativity) line=$(cat $idx/coherency_line_size)
out=$(mktemp -d)
trap 'rm -rf $out' EXIT
BENCH_PKTS=${CG_PKTS:-100000} timeout ${CG_TIMEOUT:-1500} valgrind --tool=callgrind --cache-sim=yes \
	--LL=$size,$ways,$line --toggle-collect=dp_process_burst --callgrind-out-file=$out/cg.out \
	$bin -H -t $traffic $CG_ARGS $n > $out/stdout 2> $out/stderr || { tail -3 $out/stderr; exit 1; }
pkts=$(awk '/^BENCH_MEASURED_PKTS/ {print $2}' $out/stdout)
# bench -H zeroes the statistics after its warm-up and dumps them after the measured pass.
callgrind_annotate $(ls $out/cg.out.* | head -1) 2>/dev/null | awk -v p=$pkts -v l="$label" -v t="$traffic" -v n=$n -v ll="$((size >> 20)) MiB/$ways-way" '
	/^Ir / && !h { h = 1; split($0, hdr, " +"); next }
	/PROGRAM TOTALS/ && h { gsub(",", ""); gsub(/\([^)]*\)/, ""); split($0, v, " +");
		for (i in hdr) c[hdr[i]] = v[i];
		printf "| %s | %s | %d | %.0f | %.3f | %.3f | %.3f | %s |\n", l, t, n, c["Ir"] / p,
			(c["DLmr"] + c["DLmw"] + c["ILmr"]) / p, c["DLmr"] / p, c["DLmw"] / p, ll }'
