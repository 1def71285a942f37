#!/usr/bin/env bash
# The live path for real: ringlab-viz listens on a free port (under Xvfb when xvfb-run is
# there, else --headless), lesson 05 runs with --viz against it and also writes a trace file,
# and the visualizer's summary must hold every rank's events: as many as the file has.
#   live_test.sh RINGLAB_VIZ MPIRUN LESSON_05 OUTDIR
set -euo pipefail
viz="$1" mpirun="$2" lesson="$3" out="$4"
log="$out/live_viz.out" trace="$out/live4.trace"
rm -f "$log" "$trace"
wrap=()
if command -v xvfb-run >/dev/null; then wrap=(xvfb-run -a -s '-screen 0 1280x720x24'); else extra=--headless; fi
"${wrap[@]}" "$viz" --listen --port 0 --quit-when-done --summary-on-exit --max-seconds 60 ${extra:-} >"$log" 2>&1 &
viz_pid=$!
port=""
for _ in $(seq 100); do
  port="$(grep -o 'listening on 127.0.0.1:[0-9]*' "$log" | sed 's/.*://' || true)"
  [[ -n "$port" ]] && break
  sleep 0.1
done
[[ -n "$port" ]] || { echo "the visualizer did not start:"; cat "$log"; kill "$viz_pid"; exit 1; }
echo "visualizer listening on port $port"
"$mpirun" -np 4 "$lesson" --schedule --count 8 --type int32 --viz "127.0.0.1:$port" --trace "$trace" >/dev/null
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
exit $fail
