#!/usr/bin/env bash
# bench/cardab.sh OLD NEW: the anonymous card page of two rehearse binaries, alternating three
# times on the bundled deck with fresh data dirs (wrk -t2 -c50, gzip). Used for issue 13's
# budget ("card page throughput within 10 % of today's").
#   go build -o /tmp/new ./cmd/rehearse && bench/cardab.sh /tmp/old /tmp/new
#   CARD=eager-vs-cooperative DUR=8s (defaults)
set -u
OLD=$1 NEW=$2 CARD=${CARD:-eager-vs-cooperative} DUR=${DUR:-8s}
run() { # BIN PORT
	local dir
	dir=$(mktemp -d /tmp/cardab.XXXXXX)
	"$1" serve --addr "127.0.0.1:$2" --data "$dir" >/dev/null 2>&1 &
	local pid=$! url="http://127.0.0.1:$2"
	for _ in $(seq 200); do curl -sf -o /dev/null "$url/healthz" && break; sleep 0.05; done
	for _ in 1 2 3; do curl -sf -o /dev/null -H 'Accept-Encoding: gzip' "$url/cards/$CARD"; done
	local bytes rps
	bytes=$(curl -sf -H 'Accept-Encoding: gzip' "$url/cards/$CARD" | wc -c)
	rps=$(wrk -t2 -c50 -d"$DUR" -H 'Accept-Encoding: gzip' "$url/cards/$CARD" | awk '/Requests\/sec/ {print $2}')
	kill "$pid"; wait "$pid" 2>/dev/null
	rm -rf "$dir"
	echo "$1 $rps req/s ($bytes bytes gzip)"
}
for _ in 1 2 3; do run "$OLD" 18711; run "$NEW" 18712; done
