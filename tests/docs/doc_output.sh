#!/usr/bin/env bash
# doc_output.sh DOC NAME REGEX -- COMMAND...
# Runs COMMAND and keeps the lines of its stdout that match REGEX (grep -E): they must be what DOC
# quotes between
#   <!-- BEGIN output: NAME -->
#   ```
#   ...
#   ```
#   <!-- END output -->
# so that the output a doc shows is never typed by hand. RINGLAB_UPDATE_DOCS=1 writes
# the block instead of comparing. Only deterministic lines belong there (sizes, not timings).
set -uo pipefail
doc="$1" name="$2" regex="$3"
shift 3
[[ "${1:-}" == "--" ]] || { echo "usage: doc_output.sh DOC NAME REGEX -- COMMAND..." >&2; exit 2; }
shift
got="$("$@" 2>/dev/null | grep -E -- "$regex")"
begin="<!-- BEGIN output: $name -->" end="<!-- END output -->"
grep -qxF -- "$begin" "$doc" || { echo "$doc has no block '$begin'"; exit 1; }
want="$(awk -v b="$begin" -v e="$end" '$0 == b {on = 1; next} on && $0 == e {exit} on' "$doc" | sed '1d;$d')"
if [[ "${RINGLAB_UPDATE_DOCS:-}" == 1 ]]; then
  tmp="$(mktemp)"
  awk -v b="$begin" -v e="$end" -v text="$got" '
    $0 == b {print; print "```"; print text; print "```"; skip = 1; next}
    skip && $0 == e {skip = 0}
    !skip' "$doc" >"$tmp" && mv "$tmp" "$doc"
  echo "$doc: block $name written"
  exit 0
fi
if [[ "$got" != "$want" ]]; then
  echo "$doc: block $name is not what the command prints now (RINGLAB_UPDATE_DOCS=1 rewrites it)"
  diff <(printf '%s\n' "$want") <(printf '%s\n' "$got")
  exit 1
fi
printf '%s\n' "$got"
echo "$doc: block $name matches the command's output"
