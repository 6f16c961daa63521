#!/usr/bin/env bash
# bench/run.sh builds the real rehearse binary, generates a deck and a seeded database, starts
# the server and drives it with wrk, then prints one table of figures (docs/performance.md).
# Three baselines run on the same machine in the same run: nginx serving the very bytes of the
# card page (gzip on), Go's net/http serving them with nothing else (bench/nethttp: the floor
# under any handler of ours), and raw SQLite review transactions (bench/rawsqlite) for ratings.
#
#   bench/run.sh                     # 3 rounds of 5 s per load run
#   DUR=10s ROUNDS=5 USERS=50 CARDS=1000 bench/run.sh
#   SERVER_ENV="GOMEMLIMIT=40MiB" bench/run.sh   # extra environment for the load-run server
#
# Needs: go, wrk, curl, sqlite3, nginx. Everything lives in a temp dir removed at exit (KEEP=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."

DUR=${DUR:-5s}           # length of each wrk run
ROUNDS=${ROUNDS:-3}      # each baseline and the runs measured against it alternate this many times
USERS=${USERS:-50}       # distinct signed-in users = concurrent connections for the user runs
CARDS=${CARDS:-1000}     # cards in the generated deck
THREADS=${THREADS:-2}    # wrk threads (the machine has 2 cores; wrk competes with the server)
CONNS=${CONNS:-50}       # connections for the anonymous page runs
PORT=${PORT:-18093}
NGINX_PORT=${NGINX_PORT:-18094}
NETHTTP_PORT=${NETHTTP_PORT:-18095}
COLD_RUNS=${COLD_RUNS:-5}
CARD=${CARD:-gen-0000}   # the card page measured (has a simulation, like most real cards)
URL=http://127.0.0.1:$PORT

TMP=$(mktemp -d /tmp/rehearse-bench.XXXXXX)
PID=
cleanup() {
	[[ -n $PID ]] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true
	[[ -n ${SAMPLER:-} ]] && kill "$SAMPLER" 2>/dev/null || true
	[[ -n ${NGINX:-} ]] && kill "$NGINX" 2>/dev/null || true
	[[ -n ${NETHTTP:-} ]] && kill "$NETHTTP" 2>/dev/null || true
	if [[ -n ${KEEP:-} ]]; then echo "kept $TMP" >&2; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
log() { echo "# $*" >&2; }

BIN=$TMP/rehearse
log "build"
# As the Dockerfile builds it: pure Go, static. A default build on a machine with a C compiler
# links libc for net's resolver, and maps 1.4 MiB of it that the shipped binary does not have.
export CGO_ENABLED=0
go build -trimpath -ldflags="-s -w" -o "$BIN" ./cmd/rehearse
go build -trimpath -o "$TMP/rateload" ./bench/rateload
go build -trimpath -o "$TMP/rawsqlite" ./bench/rawsqlite
go build -trimpath -ldflags="-s -w" -o "$TMP/nethttp" ./bench/nethttp
log "generate $CARDS cards"
go run ./bench/gendeck -n "$CARDS" -o "$TMP/deck"
"$BIN" check "$TMP/deck" >&2

log "create $USERS users"
for i in $(seq -w 1 "$USERS"); do
	printf 'bench-password-%s\n' "$i" | "$BIN" user add --data "$TMP/data" "bench$i"
done

# start [ENV=VALUE...]: run the server in the background; PID is its process id.
start() {
	env "$@" "$BIN" serve --addr "127.0.0.1:$PORT" --data "$TMP/data" --content "$TMP/deck" \
		>"$TMP/stdout" 2>"$TMP/server.log" &
	PID=$!
}
healthy() { curl -sf -o /dev/null "$URL/healthz"; }
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }

# Cold start: exec to the first successful /healthz, and the "startup" the server logs.
log "cold start x$COLD_RUNS"
cold=() logged=() cpu=()
TICK=$(getconf CLK_TCK)
for _ in $(seq "$COLD_RUNS"); do
	t0=$(date +%s%N)
	start
	until healthy; do sleep 0.002; done
	t1=$(date +%s%N)
	cold+=($(((t1 - t0) / 1000000)))
	# CPU the process used to get there (user + system), less sensitive to a busy machine.
	cpu+=("$(awk -v t="$TICK" '{print ($14 + $15) * 1000 / t}' "/proc/$PID/stat")")
	logged+=("$(grep -o 'startup=[^ ]*' "$TMP/server.log" | cut -d= -f2)")
	stop
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
COLD_MS=$(median "${cold[@]}")

# Sessions: log every user in once, on a server that is then stopped, so the argon2 memory of
# 50 password checks (64 MiB each) does not count in the load run's peak.
log "log $USERS users in"
start
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

log "start the server for the load runs"
# shellcheck disable=SC2086 # SERVER_ENV is a list of VAR=value words, e.g. GOMEMLIMIT=40MiB
start ${SERVER_ENV:-}
until healthy; do sleep 0.01; done
: >"$TMP/rss"
# Each sample: VmRSS, then its anonymous (heap, stacks, SQLite's pages) and file-backed (the
# binary's own pages) parts, in KiB.
(while [[ -r /proc/$PID/status ]]; do
	awk '/^VmRSS/ {r=$2} /^RssAnon/ {a=$2} /^RssFile/ {f=$2} END {print r, a, f}' /proc/$PID/status >>"$TMP/rss" 2>/dev/null
	sleep 0.1
done) &
SAMPLER=$!
# Warm up: the first card view runs its simulation (then cached), the first requests grow pools.
for _ in 1 2 3; do curl -sf -o /dev/null "$URL/cards/$CARD"; done
PAGE_BYTES=$(curl -sf "$URL/cards/$CARD" | wc -c)
GZ_BYTES=$(curl -sf -H 'Accept-Encoding: gzip' "$URL/cards/$CARD" | wc -c)

# Baseline: nginx serves the same page bytes, gzip on (the page pre-compressed once, as rehearse
# keeps its anonymous pages), with as many workers as cores.
mkdir -p "$TMP/nginx/www" "$TMP/nginx/logs"
curl -sf "$URL/cards/$CARD" >"$TMP/nginx/www/card.html"
# nginx's workers run as an unprivileged user: let them read the page (mktemp made TMP 0700).
chmod 755 "$TMP" "$TMP/nginx" "$TMP/nginx/www"
gzip -5 -k "$TMP/nginx/www/card.html" # served as is (gzip_static), as rehearse keeps its page gzipped
chmod 644 "$TMP/nginx/www/card.html" "$TMP/nginx/www/card.html.gz"
cat >"$TMP/nginx/nginx.conf" <<CONF
daemon off;
worker_processes auto;
error_log $TMP/nginx/logs/error.log;
pid $TMP/nginx/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $TMP/nginx; proxy_temp_path $TMP/nginx; fastcgi_temp_path $TMP/nginx;
  uwsgi_temp_path $TMP/nginx; scgi_temp_path $TMP/nginx;
  gzip on; gzip_static on; gzip_comp_level 5; gzip_min_length 256;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location = /card { default_type text/html; alias $TMP/nginx/www/card.html; }
  }
}
CONF
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
"$NGINX_BIN" -c "$TMP/nginx/nginx.conf" -p "$TMP/nginx" &
NGINX=$!
for i in $(seq 500); do curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/card" && break; sleep 0.01; done
curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/card" || { echo "nginx did not serve the page; see $TMP/nginx/logs/error.log" >&2; exit 1; }
NGINX_GZ=$(curl -sf -H 'Accept-Encoding: gzip' "http://127.0.0.1:$NGINX_PORT/card" | wc -c)
# The floor: net/http alone, on rehearse's own gzipped bytes of the page.
curl -sf -H 'Accept-Encoding: gzip' "$URL/cards/$CARD" >"$TMP/card.rehearse.gz"
"$TMP/nethttp" -addr "127.0.0.1:$NETHTTP_PORT" -gz "$TMP/card.rehearse.gz" &
NETHTTP=$!
for i in $(seq 500); do curl -sf -o /dev/null "http://127.0.0.1:$NETHTTP_PORT/" && break; sleep 0.01; done
curl -sf -o /dev/null "http://127.0.0.1:$NETHTTP_PORT/" || { echo "bench/nethttp did not serve the page" >&2; exit 1; }

# wrkrun NAME ARGS...: run wrk, keep its output in $TMP/NAME.txt.
wrkrun() {
	local name=$1
	shift
	log "wrk $name"
	wrk -t"$THREADS" -d"$DUR" --latency "$@" >"$TMP/$name.txt"
}
rps() { awk '/^Requests\/sec/ {printf "%.0f", $2}' "$TMP/$1.txt"; }
p99() { # wrk prints 812.00us, 4.20ms or 1.02s
	awk '$1 == "99%" {v=$2; u=v; gsub(/[0-9.]/, "", u); sub(/[a-z]+$/, "", v);
		f = (u == "us") ? 0.001 : (u == "s") ? 1000 : 1; printf "%.2f", v * f}' "$TMP/$1.txt"
}
bad() { awk '/Non-2xx or 3xx/ {n=$5} /Socket errors/ {n+=0} END {print n+0}' "$TMP/$1.txt"; }
total() { awk '/requests in/ {print $1}' "$TMP/$1.txt"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# The speed of this shared machine drifts by a quarter within a minute, so one baseline run
# followed by the measured runs compares different machines. Each round runs the baseline and
# then its measures back to back, the ratios are taken within a round, and the table gives the
# median of the rounds with every round's ratio beside it.
GZ=(-H 'Accept-Encoding: gzip')
for r in $(seq "$ROUNDS"); do
	wrkrun "nginx.$r" -c"$CONNS" "${GZ[@]}" "http://127.0.0.1:$NGINX_PORT/card"
	# The signed-in runs' wrk runs a Lua script per request, on the same two cores: nginx driven
	# by that script too (it ignores the cookie) shows what the client's own cost takes away.
	wrkrun "nginx_lua.$r" -c"$USERS" "${GZ[@]}" -s bench/signedin.lua "http://127.0.0.1:$NGINX_PORT/card" -- "$TMP/cookies" "$THREADS"
	wrkrun "nethttp.$r" -c"$CONNS" "${GZ[@]}" "http://127.0.0.1:$NETHTTP_PORT/card"
	wrkrun "nethttp_lua.$r" -c"$USERS" "${GZ[@]}" -s bench/signedin.lua "http://127.0.0.1:$NETHTTP_PORT/card" -- "$TMP/cookies" "$THREADS"
	wrkrun "card.$r" -c"$CONNS" "${GZ[@]}" "$URL/cards/$CARD"
	wrkrun "card_user.$r" -c"$USERS" "${GZ[@]}" -s bench/signedin.lua "$URL/cards/$CARD" -- "$TMP/cookies" "$THREADS"
	wrkrun "study_user.$r" -c"$USERS" "${GZ[@]}" -s bench/signedin.lua "$URL/study" -- "$TMP/cookies" "$THREADS"
done
kill "$NGINX" "$NETHTTP"; wait "$NGINX" "$NETHTTP" 2>/dev/null || true; NGINX= NETHTTP=
before=$(sqlite3 "$TMP/data/rehearse.db" 'SELECT count(*) FROM review_log')
# Ratings, against the same three statements per rating as raw transactions with no server
# around them (the server sits idle meanwhile), on a fresh database each round.
for r in $(seq "$ROUNDS"); do
	log "raw SQLite transactions $r"
	RAW=$("$TMP/rawsqlite" -db "$TMP/raw.$r.db" -d "$DUR" -cards "$CARDS")
	echo "${RAW%% *}" >"$TMP/raw.$r"
	wrkrun "rate.$r" -c"$USERS" -s bench/rate.lua "$URL" -- "$TMP/cookies" "$CARDS" "$THREADS"
	wrkrun "rate_json.$r" -c"$USERS" -H 'Accept: application/json' -s bench/rate.lua "$URL" -- "$TMP/cookies" "$CARDS" "$THREADS"
done
after=$(sqlite3 "$TMP/data/rehearse.db" 'SELECT count(*) FROM review_log')
# The same answers offered at a fixed rate (open loop): the target's own terms.
log "rateload ${RATE:=2000}/s"
OPEN=$("$TMP/rateload" -url "$URL" -cookies "$TMP/cookies" -rate "$RATE" -d "$DUR" -cards "$CARDS")

HWM=$(awk '/VmHWM/ {print $2}' /proc/$PID/status)
PEAK_LINE=$(sort -n "$TMP/rss" | tail -1)
PEAK_RSS=${PEAK_LINE%% *}
# Answers as the browser sends them (X-Rehearse-Swap: the response is the next card's page), after
# the peak above is read: each shows a card body the server then keeps compressed, so these runs
# fill the page caches to their bounds. Their memory is reported on its own line.
for r in $(seq "$ROUNDS"); do
	wrkrun "rate_swap.$r" -c"$USERS" "${GZ[@]}" -s bench/rate.lua "$URL" -- "$TMP/cookies" "$CARDS" "$THREADS" swap
done
SWAP_RSS=$(sort -n "$TMP/rss" | tail -1 | cut -d' ' -f1)
# /study again, now that every user has a history (the rating runs answered hundreds of cards each):
# the queue then sorts hundreds of due cards. Its memory is reported apart from the goal's peak.
# Its ratio is against the median nginx run, as no baseline runs beside it.
wrkrun study_hist -c"$USERS" "${GZ[@]}" -s bench/signedin.lua "$URL/study" -- "$TMP/cookies" "$THREADS"
HIST_RSS=$(sort -n "$TMP/rss" | tail -1 | cut -d' ' -f1)
HIST_STATES=$(sqlite3 "$TMP/data/rehearse.db" 'SELECT count(*) FROM card_states')
kill "$SAMPLER" 2>/dev/null || true
SAMPLER=
stop

# across FN NAME: FN's value in every round of NAME, space separated.
across() { local r out=(); for r in $(seq "$ROUNDS"); do out+=("$("$1" "$2.$r")"); done; echo "${out[*]}"; }
raws() { cat "$TMP/$1"; }
# row LABEL NAME BASE TARGET: one measure's medians over the rounds, its ratio to BASE (nginx or
# raws) within each round, and those ratios in round order.
row() {
	local r rs=()
	for r in $(seq "$ROUNDS"); do
		if [[ $3 == raw ]]; then b=$(raws "raw.$r"); else b=$(rps "$3.$r"); fi
		rs+=("$(ratio "$(rps "$2.$r")" "$b")")
	done
	local errs=0 e
	for e in $(across bad "$2"); do errs=$((errs + e)); done
	# shellcheck disable=SC2046 # the word lists are numbers
	printf '%-44s %10s %10s %8s %8s  %-16s %s\n' "$1" "$(median $(across rps "$2"))" "$(median $(across p99 "$2"))" \
		"$errs" "$(median "${rs[@]}")" "${rs[*]}" "$4"
}
# shellcheck disable=SC2046
NG=$(median $(across rps nginx))
# shellcheck disable=SC2046
RAW_TPS=$(median $(across raws raw))
sent=0
for n in $(across total rate) $(across total rate_json); do sent=$((sent + n)); done
echo
echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "deck: $CARDS cards; page $CARD = $PAGE_BYTES bytes ($GZ_BYTES gzipped by rehearse, $NGINX_GZ by nginx); wrk -t$THREADS -d$DUR × $ROUNDS rounds"
echo
printf '%-44s %10s %10s %8s %8s  %-16s %s\n' "measure (median of $ROUNDS rounds)" "req/s" "p99 ms" "errors" "ratio" "each round" "target"
printf '%-44s %10s %10s %8s %8s  %-16s %s\n' "nginx, same card bytes, gzip (-c$CONNS)" "$NG" "$(median $(across p99 nginx))" "$(median $(across bad nginx))" "1.00" "$(across rps nginx)" "baseline"
row "card page, anonymous (-c$CONNS)" card nginx "× nginx"
row "card page, $USERS signed-in users" card_user nginx "× nginx, goal ≥ 0.5"
row "/study, $USERS signed-in users" study_user nginx "× nginx, goal ≥ 0.5"
row "nginx, same bytes, the signed-in wrk script" nginx_lua nginx "× nginx (the client's own cost)"
row "card page, signed-in, × that nginx" card_user nginx_lua "× nginx under the same client"
row "/study, signed-in, × that nginx" study_user nginx_lua "× nginx under the same client"
row "net/http alone, same bytes (-c$CONNS)" nethttp nginx "× nginx: the floor for any Go handler"
row "card page, anonymous, × net/http alone" card nethttp "× the floor"
row "card page, signed-in, × net/http alone" card_user nethttp_lua "× the floor, same client script"
row "/study, signed-in, × net/http alone" study_user nethttp_lua "× the floor, same client script"
printf '%-44s %10s %10s %8s %8s  %-16s %s\n' "/study, the same users with history" "$(rps study_hist)" "$(p99 study_hist)" "$(bad study_hist)" "$(ratio "$(rps study_hist)" "$NG")" "" "× median nginx (after the rating runs)"
printf '%-44s %10s %10s %8s %8s  %-16s %s\n' "raw SQLite review transactions" "$RAW_TPS" "" "" "1.00" "$(across raws raw)" "baseline"
row "rating POST, form + redirect, $USERS users" rate raw "× raw, goal ≥ 0.8"
row "rating POST, JSON, $USERS users" rate_json raw "× raw, goal ≥ 0.8"
printf '%-44s %10s %10s %8s %8s  %-16s %s\n' "rating POST as the browser sends it" "$(median $(across rps rate_swap))" "$(median $(across p99 rate_swap))" "$(across bad rate_swap | awk '{for (i = 1; i <= NF; i++) n += $i} END {print n + 0}')" "$(ratio "$(median $(across rps rate_swap))" "$RAW_TPS")" "" "× median raw (answer + the next card's page)"
echo
echo "ratings at a fixed rate: $OPEN"
echo "ratings: wrk sent $sent, review_log grew by $((after - before)) rows"
echo "cold start with $CARDS cards, exec to first /healthz: median $COLD_MS ms of ${cold[*]} (no parse cache: cards render on first view; server-logged startup: ${logged[*]}; CPU ms: ${cpu[*]}) (goal ≤ 150 ms)"
read -r _ PEAK_ANON PEAK_FILE <<<"$PEAK_LINE"
mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; } # KiB to MiB, not rounded down to the goal
echo "memory under load: peak VmRSS sampled $(mib "$PEAK_RSS") MiB ($(mib "$PEAK_ANON") anonymous, $(mib "$PEAK_FILE") file-backed), VmHWM $(mib "$HWM") MiB (goal ≤ 50 MiB); with the browser's answers $(mib "$SWAP_RSS") MiB, and the /study-with-history run ($HIST_STATES card states) $(mib "$HIST_RSS") MiB"
