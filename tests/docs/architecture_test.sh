#!/usr/bin/env bash
# docs/architecture.md must name every core header under its layer and every file of
# lessons/shared/, and every file it names must exist: the map stays true as files come and go.
set -euo pipefail
root="$1"
doc="$root/docs/architecture.md"
bad=0
for f in "$root"/core/include/ringlab/*/*; do
  rel="${f#"$root"/core/include/ringlab/}"  # e.g. comm/comm.hpp
  grep -q "\`$rel\`" "$doc" || { echo "docs/architecture.md does not list core header $rel"; bad=1; }
done
for f in "$root"/lessons/shared/*; do
  rel="shared/${f##*/}"
  grep -q "\`$rel\`" "$doc" || { echo "docs/architecture.md does not list $rel"; bad=1; }
done
# Every name in backticks that looks like a file: a core header (layer/name), or a path.
while read -r name; do
  case "$name" in
    base/*|trace/*|comm/*|check/*|ml/*) path="$root/core/include/ringlab/$name" ;;
    shared/*) path="$root/lessons/$name" ;;
    core/*|lessons/*|solutions/*|exercises/*|docs/*) path="$root/$name" ;;
    *) continue ;;
  esac
  [[ $name == *NN_topic* || -e "$path" ]] || { echo "docs/architecture.md names $name, which does not exist"; bad=1; }
done < <(grep -o '`[^` ]*`' "$doc" | tr -d '`' | grep -E '\.(hpp|cuh|cpp|txt|md)$|/$' | sort -u)
[[ $bad == 0 ]] && echo "docs/architecture.md: every core header and lessons/shared file listed, every file it names exists"
exit "$bad"
