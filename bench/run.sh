#!/usr/bin/env bash
# bench/run.sh: the team load of docs/performance.md, measured on the real binary. It builds
# rehearse, generates a 1,000-card deck (bench/gendeck), creates 20 users with 1,000 card
# states and one answer each, measures cold starts (bundled deck and the 1,000 cards), then
# offers the mix of bench/load open-loop at RATE requests/s for DUR and checks every
# acknowledged rating is in the database. Peak RSS is sampled every 100 ms during the load.
#
#   bench/run.sh                         # RATE=300 DUR=60s USERS=20 CARDS=1000 COLD_RUNS=5
#   RATE=1000 DUR=20s bench/run.sh
#
# Needs: go, curl, sqlite3. Everything lives in a temp dir removed at exit (KEEP=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."

RATE=${RATE:-300}
DUR=${DUR:-60s}
USERS=${USERS:-20}
CARDS=${CARDS:-1000}
COLD_RUNS=${COLD_RUNS:-5}
PORT=${PORT:-18093}
URL=http://127.0.0.1:$PORT

TMP=$(mktemp -d /tmp/rehearse-bench.XXXXXX)
PID= SAMPLER=
cleanup() {
	[[ -n $SAMPLER ]] && kill "$SAMPLER" 2>/dev/null || true
	[[ -n $PID ]] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true
	if [[ -n ${KEEP:-} ]]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
log() { echo "# $*" >&2; }

BIN=$TMP/rehearse
log "build"
export CGO_ENABLED=0 # as the Dockerfile builds it: pure Go, static
go build -trimpath -ldflags="-s -w" -o "$BIN" ./cmd/rehearse
go build -trimpath -o "$TMP/load" ./bench/load
go build -trimpath -o "$TMP/coldstart" ./bench/coldstart
log "generate $CARDS cards"
go run ./bench/gendeck -n "$CARDS" -o "$TMP/deck"
"$BIN" check "$TMP/deck" >&2

log "create $USERS users with $CARDS card states each"
for i in $(seq -w 1 "$USERS"); do
	printf 'bench-password-%s\n' "$i" | "$BIN" user add --data "$TMP/data" "bench$i"
done
NOW=$(($(date +%s) * 1000))
# Review cards, about 5 % due today, each with the answer that put it there.
sqlite3 "$TMP/data/rehearse.db" <<SQL
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $CARDS - 1)
INSERT INTO card_states (user_id, card_id, state, step, stability, difficulty, due, last_review, reps, lapses)
SELECT u.id, printf('gen-%04d', n.i), 2, 0, 1 + (n.i * 7 + u.id) % 60, 5.0,
	$NOW + ((n.i * 13 + u.id * 7) % 400 - 20) * 3600000, $NOW - 3 * 86400000, 1, 0
FROM users u, n;
INSERT INTO review_log (user_id, card_id, rating, reviewed_at, state_before, step_before, stability_before,
	difficulty_before, due_before, last_review_before, reps_before, lapses_before, state_after,
	stability_after, difficulty_after, elapsed_days, scheduled_days, duration_ms, mode)
SELECT user_id, card_id, 3, last_review, 0, 0, 0, 0, 0, 0, 0, 0, 2, stability, 5.0, 0,
	(due - last_review) / 86400000.0, 8000, 'study' FROM card_states;
SQL

start() { # start [--content DIR]: the server in the background, PID its process id
	"$BIN" serve --addr "127.0.0.1:$PORT" --data "$TMP/data" "$@" >"$TMP/stdout" 2>"$TMP/server.log" &
	PID=$!
}
healthy() { curl -sf -o /dev/null "$URL/healthz"; }
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }

# coldstart ARGS...: exec to the first answered /healthz, COLD_RUNS times (bench/coldstart polls
# in-process; a curl per attempt would take a core from the server it times).
coldstart() {
	"$TMP/coldstart" -runs "$COLD_RUNS" -- "$BIN" serve --addr "127.0.0.1:$PORT" --data "$TMP/data" "$@"
}
log "cold start x$COLD_RUNS"
COLD_BUNDLED=$(coldstart)
COLD_DECK=$(coldstart --content "$TMP/deck")

# Sessions: each user logs in once, on a server then stopped, so the password hashing's memory
# (argon2id, 64 MiB a hash) is not part of the load run's peak.
log "log $USERS users in"
start --content "$TMP/deck"
until healthy; do sleep 0.01; done
: >"$TMP/cookies"
for i in $(seq -w 1 "$USERS"); do
	curl -sf -o /dev/null -c "$TMP/jar" --data-urlencode "username=bench$i" \
		--data-urlencode "password=bench-password-$i" "$URL/login"
	awk '$6 == "rehearse_session" {print $7}' "$TMP/jar" >>"$TMP/cookies"
	rm -f "$TMP/jar"
done
stop
[[ $(wc -l <"$TMP/cookies") -eq $USERS ]] || { echo "login failed" >&2; exit 1; }

log "offer $RATE req/s for $DUR"
start --content "$TMP/deck"
until healthy; do sleep 0.01; done
(while [[ -r /proc/$PID/status ]]; do
	awk '/^VmRSS/ {print $2}' /proc/$PID/status >>"$TMP/rss" 2>/dev/null
	sleep 0.1
done) &
SAMPLER=$!
before=$(sqlite3 "$TMP/data/rehearse.db" 'SELECT count(*) FROM review_log')
"$TMP/load" -url "$URL" -cookies "$TMP/cookies" -rate "$RATE" -d "$DUR" -cards "$CARDS" -acked "$TMP/acked" | tee "$TMP/load.txt"
HWM=$(awk '/VmHWM/ {print $2}' /proc/$PID/status)
kill "$SAMPLER" 2>/dev/null || true
SAMPLER=
PEAK=$(sort -n "$TMP/rss" | tail -1)
stop

# Every acknowledged rating must be stored: its log row exists, and the log grew by exactly the
# acknowledged ones (a refused rating writes nothing).
sqlite3 "$TMP/data/rehearse.db" "CREATE TABLE bench_acked (id INTEGER);"
sqlite3 "$TMP/data/rehearse.db" ".import $TMP/acked bench_acked"
ACKED=$(wc -l <"$TMP/acked")
MISSING=$(sqlite3 "$TMP/data/rehearse.db" 'SELECT count(*) FROM bench_acked WHERE id NOT IN (SELECT id FROM review_log)')
after=$(sqlite3 "$TMP/data/rehearse.db" 'SELECT count(*) FROM review_log')

mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
echo
echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo); load average before the summary: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ratings: $ACKED acknowledged, $MISSING of them missing from review_log; the log grew by $((after - before))"
echo "peak RSS during the load: sampled $(mib "$PEAK") MiB, VmHWM $(mib "$HWM") MiB (target ≤ 150 MiB)"
echo "cold start, exec to first /healthz: bundled deck $COLD_BUNDLED (target ≤ 200 ms); $CARDS cards $COLD_DECK (target ≤ 1000 ms)"
