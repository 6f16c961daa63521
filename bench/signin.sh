#!/usr/bin/env bash
# bench/signin.sh: how long a sign-in takes on the real binary with production password hashing.
# It builds rehearse, creates one user, and sends N rounds of wrong-password logins from one
# address (the fifth failure on an account from an address is throttled, so N*CONC <= 4), one
# at a time or CONC=2 at once, then prints each answer's time and the server's CPU and page
# faults over them.
#
#   bench/signin.sh            # N=4: four logins one after another
#   N=2 CONC=2 bench/signin.sh # two rounds of two at once
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-4} CONC=${CONC:-1} PORT=${PORT:-18555}
TMP=$(mktemp -d /tmp/rehearse-signin.XXXXXX)
PID=
cleanup() {
	[[ -n $PID ]] && kill "$PID" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT

CGO_ENABLED=0 go build -o "$TMP/rehearse" ./cmd/rehearse
echo "sign-in-bench-password" | "$TMP/rehearse" user add --data "$TMP/data" --admin ada >/dev/null
"$TMP/rehearse" serve --data "$TMP/data" --addr "127.0.0.1:$PORT" >"$TMP/log" 2>&1 &
PID=$!
until curl -s -o /dev/null "127.0.0.1:$PORT/healthz"; do sleep 0.05; done
curl -s -o /dev/null "127.0.0.1:$PORT/" # the first response sets the memory limit
sleep 1

login() { curl -s -o /dev/null -w '%{time_total} s, HTTP %{http_code}\n' "127.0.0.1:$PORT/login" -d "username=ada&password=wrong"; }
sample() { awk '{print $14+$15, $10}' "/proc/$PID/stat"; } # CPU ticks (user+system), minor faults
read -r cpu0 flt0 < <(sample)
for ((i = 0; i < N; i++)); do
	for ((c = 0; c < CONC; c++)); do login & done
	wait $(jobs -p | grep -v "^$PID$")
done
read -r cpu1 flt1 < <(sample)
echo "server: $(((cpu1 - cpu0) * 1000 / $(getconf CLK_TCK))) ms of CPU, $((flt1 - flt0)) page faults, peak RSS $(awk '/VmHWM/ {print int($2/1024)}' "/proc/$PID/status") MiB"
