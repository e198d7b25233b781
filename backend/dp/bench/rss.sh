#!/bin/sh
# Whole-process memory of hupf-backend holding N sessions written over P4Runtime
# (4 entries each, every termination its own counter cells, resident from the pipeline
# push on: the RSS is that of traffic on every session), one markdown row per N.
#   rss.sh LABEL BACKEND P4RT_BENCH P4INFO PORT N...
label=$1 be_bin=$2 cli=$3 info=$4 port=$5
shift 5
for n in "$@"; do
	mem=$((n / 1000000 * 320 + 1024))  # MiB of EAL memory: the tables and counters need ~280 B/session
	$be_bin --grpc-addr 127.0.0.1:$port --sessions $n --mem $mem --log-level warn &
	be=$!
	sleep 3
	row=$(timeout 1800 $cli --addr 127.0.0.1:$port --p4info $info --sessions $n --batch 1000 | grep '^|')
	rss=$(awk '/^VmRSS/ {print $2}' /proc/$be/status) hwm=$(awk '/^VmHWM/ {print $2}' /proc/$be/status)
	kill $be; wait $be
	rate=$(echo "$row" | awk -F'|' '{print $7}')
	echo "| $label | $n | $mem | $((rss / 1024)) | $((hwm / 1024)) | $((rss * 1024 / n)) | $rate |"
done
