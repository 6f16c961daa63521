#!/usr/bin/env bash
# bench/coldstart.sh BIN DECK DATA RUNS [nocache]: exec of `rehearse serve` to its first /healthz,
# waiting on the "running at" line the server prints once it listens (no polling loop competing
# for the two cores), then one /healthz. Each line also gives the CPU the process used by then
# (user + system, less sensitive to a busy machine than wall time) and its VmHWM; the last line
# is the median. BIN may be several binaries separated by commas (old,new): they alternate, so a
# busy machine slows both alike. "nocache" removes an old binary's deck-cache.bin first.
set -u
BINS=$1 DECK=$2 DATA=$3 RUNS=$4 NOCACHE=${5:-}
F=$(mktemp -u /tmp/coldstart.XXXXXX)
mkfifo "$F"
exec 3<>"$F" # held open read-write, so the server's stdout never meets a closed pipe
TICK=$(getconf CLK_TCK)
declare -A walls
for _ in $(seq "$RUNS"); do
	for BIN in ${BINS//,/ }; do
		[ -n "$NOCACHE" ] && rm -f "$DATA/deck-cache.bin"
		t0=$(date +%s%N)
		"$BIN" serve --addr 127.0.0.1:18802 --data "$DATA" --content "$DECK" >"$F" 2>"$F.log" &
		pid=$!
		read -r -u 3 _
		curl -sf -o /dev/null http://127.0.0.1:18802/healthz || echo "healthz failed"
		t1=$(date +%s%N)
		ms=$(((t1 - t0) / 1000000))
		cpu=$(awk -v t="$TICK" '{print ($14 + $15) * 1000 / t}' "/proc/$pid/stat")
		hwm=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
		walls[$BIN]+="$ms "
		echo "$BIN: $ms ms (CPU $cpu ms, VmHWM $hwm MiB, $(grep -o 'startup=[^ ]*' "$F.log"))"
		kill "$pid"; wait "$pid" 2>/dev/null
	done
done
for BIN in ${BINS//,/ }; do
	echo "$BIN: median $(printf '%s\n' ${walls[$BIN]} | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') ms of ${walls[$BIN]}"
done
exec 3>&-
rm -f "$F" "$F.log"
