#!/usr/bin/env bash
# The live path for real: ringlab-viz listens (under Xvfb when xvfb-run is there, else
# --headless), lesson 05 runs with --viz against it and also writes a trace file, and the
# visualizer's summary must hold every rank's events: as many as the file has.
#   live_test.sh RINGLAB_VIZ MPIRUN LESSON_05 OUTDIR [unix|tcp]
# unix: the default transport, a Unix socket (here in OUTDIR, so tests never meet a real
# visualizer of this user); the lesson finds it through RINGLAB_VIZ=unix:PATH.
# tcp: --port 0 and the token the visualizer prints, which the lesson sends in its header.
set -euo pipefail
viz="$1" mpirun="$2" lesson="$3" out="$4" transport="${5:-unix}"
log="$out/live_viz_$transport.out" trace="$out/live4_$transport.trace" sock="$out/live_viz.sock"
rm -f "$log" "$trace"
listen=(--socket "$sock")
[[ "$transport" == tcp ]] && listen=(--port 0)
wrap=()
if command -v xvfb-run >/dev/null; then wrap=(xvfb-run -a -s '-screen 0 1280x720x24'); else extra=--headless; fi
"${wrap[@]}" "$viz" --listen "${listen[@]}" --quit-when-done --summary-on-exit --max-seconds 60 ${extra:-} >"$log" 2>&1 &
viz_pid=$!
address=""
for _ in $(seq 100); do
  address="$(grep -o 'listening on [^ ]*' "$log" | sed 's/listening on //' || true)"
  [[ -n "$address" ]] && break
  sleep 0.1
done
[[ -n "$address" ]] || { echo "the visualizer did not start:"; cat "$log"; kill "$viz_pid"; exit 1; }
token="$(grep -o 'token [0-9a-f]*' "$log" | sed 's/token //' || true)"
echo "visualizer listening on $address${token:+ with token $token}"
if [[ "$transport" == tcp ]]; then
  [[ "$address" =~ ^127\.0\.0\.1:[0-9]+$ && ${#token} == 32 ]] || { echo "no TCP address and token"; exit 1; }
else
  [[ "$address" == "unix:$sock" && -z "$token" && -S "$sock" ]] || { echo "not on the Unix socket"; exit 1; }
  [[ "$(stat -c %a "$sock")" == 600 ]] || { echo "the socket is not private to this user"; exit 1; }
fi
RINGLAB_VIZ="$address" RINGLAB_VIZ_TOKEN="$token" \
  "$mpirun" -np 4 "$lesson" --schedule --count 8 --type int32 --trace "$trace" >/dev/null
wait "$viz_pid"
cat "$log"
fail=0
for r in 0 1 2 3; do
  expected="$(grep -c "\"rank\":$r[,}]" "$trace" || true)"
  got="$(grep -o "  rank $r: [0-9]* events" "$log" | grep -o '[0-9]* events' | grep -o '[0-9]*' || true)"
  echo "rank $r: trace file has $expected events, the visualizer received ${got:-none}"
  [[ "$expected" -gt 0 && "$got" == "$expected" ]] || fail=1
done
grep -q "rank 3 disconnected" "$log" || { echo "no disconnect note for rank 3"; fail=1; }
[[ "$transport" == tcp || ! -e "$sock" ]] || { echo "the socket file was left behind"; fail=1; }
exit $fail
