#!/usr/bin/env bash
# The launch panel's path: ringlab-viz --listen --launch 5 starts lesson 05 itself (mpirun from
# an argument vector, --viz pointing back at it), and every rank's events stream in.
#   launch_test.sh RINGLAB_VIZ OUTDIR [tcp]
# (on a Unix socket in OUTDIR; with tcp, on a free port, the token passed on by the environment)
set -euo pipefail
viz="$1" dir="$2"
listen=(--socket "$dir/launch_viz.sock")
[[ "${3:-}" == tcp ]] && listen=(--port 0)
wrap=() extra=()
if command -v xvfb-run >/dev/null; then wrap=(xvfb-run -a -s '-screen 0 1280x720x24'); else extra=(--headless); fi
out="$("${wrap[@]}" "$viz" --listen "${listen[@]}" --launch 5 --launch-np 3 --launch-flags "--schedule --count 8 --type int32" \
        --quit-when-done --summary-on-exit --max-seconds 60 "${extra[@]}" 2>&1)"
echo "$out"
fail=0
grep -q "exited with code 0" <<<"$out" || { echo "the launched lesson did not finish well"; fail=1; }
for r in 0 1 2; do
  grep -Eq "^  rank $r: [1-9][0-9]* events" <<<"$out" || { echo "no events from rank $r"; fail=1; }
done
exit $fail
