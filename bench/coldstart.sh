#!/usr/bin/env bash
# bench/coldstart.sh BIN DECK DATA RUNS [nocache]: exec of `rehearse serve` to its first /healthz,
# waiting on the "running at" line the server prints once it listens (no polling loop competing
# for the two cores), then one /healthz. "nocache" removes an old binary's deck-cache.bin first.
set -u
BIN=$1 DECK=$2 DATA=$3 RUNS=$4 NOCACHE=${5:-}
F=$(mktemp -u /tmp/coldstart.XXXXXX)
mkfifo "$F"
exec 3<>"$F" # held open read-write, so the server's stdout never meets a closed pipe
for _ in $(seq "$RUNS"); do
	[ -n "$NOCACHE" ] && rm -f "$DATA/deck-cache.bin"
	t0=$(date +%s%N)
	"$BIN" serve --addr 127.0.0.1:18802 --data "$DATA" --content "$DECK" >"$F" 2>"$F.log" &
	pid=$!
	read -r -u 3 _
	curl -sf -o /dev/null http://127.0.0.1:18802/healthz || echo "healthz failed"
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000000)) ms ($(grep -o 'startup=[^ ]*' "$F.log"))"
	kill "$pid"; wait "$pid" 2>/dev/null
done
exec 3>&-
rm -f "$F" "$F.log"
