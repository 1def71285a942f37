#!/usr/bin/env bash
# Runs `./ringlab check NN` on every held-out mistake, in a scratch clone (it overwrites that
# clone's exercises/ file by file and restores them with git): one line per mistake with the
# check's exit code (0 passed, 1 wrong results, 3 hang, 4 crash, 5 compile error) and its first
# diagnosis or error line. Not part of ctest: the measurement issue 20 starts from.
#   run-baseline.sh CLONE_DIR [LOG_DIR [SET_DIR]] > results.tsv   (CLONE_DIR: a clone of this
#   repository; LOG_DIR: where to keep each check's whole output, one file per mistake, for
#   judging; SET_DIR: the held-out set, this folder by default: ../heldout2 is the second set)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
clone="${1:?usage: run-baseline.sh CLONE_DIR [LOG_DIR [SET_DIR]]}" logs="${2:-}"
set_dir="$(cd "${3:-$here}" && pwd)"
[[ -z "$logs" ]] || mkdir -p "$logs"
cd "$clone" && git rev-parse --git-dir >/dev/null || { echo "error: $clone is not a clone" >&2; exit 2; }
# fill is answered by the kit's build/bin/ringlab-manifest: build the kit once before the first
# (every ./ringlab check below builds it too).
./ringlab build >&2 || { echo "error: the kit does not build in $clone" >&2; exit 2; }
printf 'exercise\tmistake\texit\tfirst diagnosis\n'
for f in "$set_dir"/[0-9][0-9]_*/*.hpp; do
  topic="$(basename "$(dirname "$f")")" name="$(basename "$f")"
  git checkout -q exercises/
  # A mistake holds only its wrong holes: the whole header is the solution with them swapped in.
  scripts/ringlab-exercise fill "solutions/$topic/${name%%.*}.hpp" "$f" "exercises/$topic/${name%%.*}.hpp" ||
    { echo "error: $f: its holes do not fit the solution" >&2; exit 2; }
  log="$(timeout 300 ./ringlab check "${topic:0:2}" 2>&1)"; rc=$?
  [[ -z "$logs" ]] || printf '%s\nexit %s\n' "$log" "$rc" > "$logs/$topic.${name%.hpp}.log"
  diag="$(grep -m1 -E 'diagnosis:|error:|hung:' <<<"$log" | sed 's/^ *//' | tr '\t' ' ')"
  printf '%s\t%s\t%s\t%s\n' "$topic" "$name" "$rc" "$diag"
  echo "$topic $name: exit $rc" >&2
done
git checkout -q exercises/
