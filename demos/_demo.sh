# Shared by the demo scripts (sourced, not run): where things are, and `step`, which prints
# the command it is about to run (so the audience sees it) and runs it.
# With a visualizer listening (./ringlab viz --listen), export RINGLAB_VIZ=auto and
# every lesson in a demo streams its events to it live.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RINGLAB="$ROOT/ringlab"
[[ -x "$ROOT/build/bin/lesson_01" ]] || "$RINGLAB" build

step() {
  printf '\n\033[1m$ %s\033[0m\n' "$*"
  "$@"
}
