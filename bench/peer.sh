#!/usr/bin/env bash
# bench/peer.sh KNOLHASH_BIN: rehearse beside knolhash (github.com/conorfennell/knolhash, the
# closest open-source peer: Go, modernc SQLite, goldmark) at saturation, in one run, on the
# same 1,000 questions, each with 1,000 cards due: the study page (the next due card) and a
# rating whose response is the next card's page. The two servers take turns, ROUNDS times, with
# wrk -t2 -cCONNS for DUR each. How the peer was built is in docs/performance.md.
#
#   bench/peer.sh /tmp/knolhash/knolhash-bin          # DUR=10s ROUNDS=2 CONNS=20
#
# Needs: go, wrk, curl, sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
KNOLHASH=$(realpath "$1")
DUR=${DUR:-10s} ROUNDS=${ROUNDS:-2} CONNS=${CONNS:-20} CARDS=1000
RPORT=18191 KPORT=18192
TMP=$(mktemp -d /tmp/rehearse-peer.XXXXXX)
RPID= KPID=
cleanup() {
	[[ -n $RPID ]] && kill "$RPID" 2>/dev/null || true
	[[ -n $KPID ]] && kill "$KPID" 2>/dev/null || true
	wait 2>/dev/null || true
	if [[ -n ${KEEP:-} ]]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
log() { echo "# $*" >&2; }

log "build rehearse, generate $CARDS cards"
CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "$TMP/rehearse" ./cmd/rehearse
go run ./bench/gendeck -n "$CARDS" -o "$TMP/deck"
# The same questions and answers for knolhash, in its Q:/A: format.
mkdir -p "$TMP/kdeck" "$TMP/kdata"
for f in "$TMP"/deck/*/*.md; do
	q=$(awk -F': ' '/^question:/ {sub(/^question: /, ""); print; exit}' "$f")
	a=$(awk '/^## Basics/ {on=1; next} /^## / {on=0} on && NF' "$f" | tr '\n' ' ')
	printf 'Q: %s\nA: %s\nC:\n\n' "$q" "$a"
done >"$TMP/kdeck/deck.md"

# rehearse: two users, one per wrk thread (knolhash has no accounts), each with every card due.
for u in peer1 peer2; do printf 'peer-password\n' | "$TMP/rehearse" user add --data "$TMP/rdata" "$u" >/dev/null; done
NOW=$(($(date +%s) * 1000))
sqlite3 "$TMP/rdata/rehearse.db" "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $CARDS - 1)
	INSERT INTO card_states (user_id, card_id, state, step, stability, difficulty, due, last_review, reps, lapses)
	SELECT u.id, printf('gen-%04d', i), 2, 0, 3, 5, $NOW - 86400000 - i, $NOW - 4 * 86400000, 1, 0 FROM users u, n"
start() { # both servers on the data in $TMP/rdata and $TMP/kdata, answering when it returns
	"$TMP/rehearse" serve --addr "127.0.0.1:$RPORT" --data "$TMP/rdata" --content "$TMP/deck" >/dev/null 2>&1 &
	RPID=$!
	(cd "$TMP/kdata" && exec "$KNOLHASH" >>"$TMP/knolhash.log" 2>&1) &
	KPID=$!
	for _ in $(seq 300); do curl -sf -o /dev/null "http://127.0.0.1:$RPORT/healthz" && curl -sf -o /dev/null "http://127.0.0.1:$KPORT/deck" && break; sleep 0.05; done
}
stop() { kill "$RPID" "$KPID"; wait "$RPID" "$KPID" 2>/dev/null || true; RPID= KPID=; }
printf 'db_path: %s\nserve: true\nlisten_addr: "127.0.0.1:%s"\nsync_interval: 30m\n' "$TMP/kdata/knolhash.db" "$KPORT" >"$TMP/kdata/config.yaml"
start
: >"$TMP/cookies"
for u in peer1 peer2; do
	curl -sf -o /dev/null -c "$TMP/jar" --data-urlencode "username=$u" --data-urlencode password=peer-password "http://127.0.0.1:$RPORT/login"
	awk '$6 == "rehearse_session" {print $7}' "$TMP/jar" >>"$TMP/cookies"
	rm -f "$TMP/jar"
done
curl -sf -o /dev/null --data-urlencode "path=$TMP/kdeck" "http://127.0.0.1:$KPORT/sources"
curl -sf -o /dev/null -X POST "http://127.0.0.1:$KPORT/sync"
for _ in $(seq 600); do
	[[ $(sqlite3 "$TMP/kdata/knolhash.db" 'SELECT count(*) FROM cards' 2>/dev/null || echo 0) -ge $CARDS ]] && break
	sleep 0.1
done
sqlite3 "$TMP/kdata/knolhash.db" 'SELECT hash FROM cards ORDER BY rowid' >"$TMP/hashes"
log "knolhash holds $(wc -l <"$TMP/hashes") cards"

run() { # NAME ARGS...: wrk -t2 -cCONNS, or -t1 -c1 with C1=1
	local name=$1 conc=(-t2 -c"$CONNS")
	shift
	[[ -n ${C1:-} ]] && conc=(-t1 -c1)
	log "wrk $name ${conc[*]}"
	wrk "${conc[@]}" -d"$DUR" --latency "$@" >"$TMP/$name.txt"
}
# Requests answered 2xx per second: knolhash answers many ratings 500 (SQLITE_BUSY) when two
# arrive at once, and a fast failure is not a rating.
rps() { awk '/requests in/ {n=$1; s=$4+0} /Non-2xx or 3xx/ {b=$5} END {printf "%.0f", (n-b)/s}' "$TMP/$1.txt"; }
p99() { awk '$1 == "99%" {print $2}' "$TMP/$1.txt"; }
bad() { awk '/Non-2xx or 3xx/ {n=$5} END {print n+0}' "$TMP/$1.txt"; }
GZ=(-H 'Accept-Encoding: gzip')
# Every round starts from the same data: each server with all 1,000 cards due. Ratings take cards
# off the queue, and a study page with fewer due cards is cheaper (knolhash's reads every due
# card), so a later round on the rated data would compare two different workloads.
stop
cp -a "$TMP/rdata" "$TMP/rdata.start" && cp -a "$TMP/kdata" "$TMP/kdata.start"
for r in $(seq "$ROUNDS"); do
	rm -rf "$TMP/rdata" "$TMP/kdata" && cp -a "$TMP/rdata.start" "$TMP/rdata" && cp -a "$TMP/kdata.start" "$TMP/kdata"
	start
	curl -sf -o /dev/null "http://127.0.0.1:$KPORT/review/next"
	curl -sf -o /dev/null -b "rehearse_session=$(head -1 "$TMP/cookies")" "http://127.0.0.1:$RPORT/study"
	run "k_study.$r" "http://127.0.0.1:$KPORT/review/next"
	run "r_study.$r" "${GZ[@]}" -s bench/signedin.lua "http://127.0.0.1:$RPORT/study" -- "$TMP/cookies" 2
	# knolhash's ratings are correct only one at a time (see rps), so its rating is measured on one
	# connection, its best case; the same at CONNS is printed beside it.
	C1=1 run "k_rate.$r" -s bench/knolhash.lua "http://127.0.0.1:$KPORT" -- "$TMP/hashes"
	run "k_rateN.$r" -s bench/knolhash.lua "http://127.0.0.1:$KPORT" -- "$TMP/hashes"
	run "r_rate.$r" "${GZ[@]}" -s bench/rate.lua "http://127.0.0.1:$RPORT" -- "$TMP/cookies" "$CARDS" 2 swap
	stop
done
echo
echo "machine: $(nproc) cores; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); wrk -t2 -c$CONNS -d$DUR, $ROUNDS rounds, turns alternating"
printf '%-42s %-22s %-22s %s\n' "measure" "knolhash 2xx/s (p99)" "rehearse 2xx/s (p99)" "rehearse ÷ knolhash, each round"
for m in study rate; do
	ks=() rs=() ratios=()
	for r in $(seq "$ROUNDS"); do
		ks+=("$(rps "k_$m.$r") ($(p99 "k_$m.$r"), $(bad "k_$m.$r") bad)")
		rs+=("$(rps "r_$m.$r") ($(p99 "r_$m.$r"), $(bad "r_$m.$r") bad)")
		ratios+=("$(awk -v a="$(rps "r_$m.$r")" -v b="$(rps "k_$m.$r")" 'BEGIN {printf "%.2f", a / b}')")
	done
	label="study page (next due card)"
	[[ $m == rate ]] && label="rating, answered with the next card's page (knolhash on 1 connection)"
	for r in $(seq "$ROUNDS"); do
		printf '%-42s %-22s %-22s %s\n' "$label, round $r" "${ks[$((r - 1))]}" "${rs[$((r - 1))]}" "${ratios[$((r - 1))]}"
	done
done
for r in $(seq "$ROUNDS"); do
	echo "knolhash ratings on $CONNS connections, round $r: $(rps "k_rateN.$r") answered 2xx/s, $(bad "k_rateN.$r") answered otherwise"
done
