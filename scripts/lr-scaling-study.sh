#!/usr/bin/env bash
# Lesson 07's punch line: train the same model with 1, 2 and 4 workers (fixed batch per worker,
# so the global batch grows) under each learning-rate scaling rule, write every step of every
# run to ONE CSV, and print a summary table made from that CSV: final test accuracy and the
# first epoch that reached 0.85, per configuration.
#   scripts/lr-scaling-study.sh [--np "1 2 4"] [--epochs 10] [--data DIR|synthetic] [--lr 0.02]
#                               [--warmup-epochs 1] [--out DIR] [--bin PATH] [--device cpu|cuda|auto]
#   scripts/lr-scaling-study.sh --table CSV       only print the table of an earlier run's CSV
# Output: OUT/lr-scaling.csv (np,scaling,epoch,step,rank,loss,accuracy,lr), OUT/summary.txt,
#         OUT/lr-scaling.png: test accuracy per epoch, a line per rule, a panel per np (gnuplot).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nps="1 2 4" epochs=10 data="" warmup=1 out="$ROOT/build/lr-scaling-study" bin="$ROOT/build/bin/lesson_07"
scalings="none linear sqrt" target=0.85 lr_args=() table_only="" device_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --np) nps="$2"; shift 2 ;;
    --epochs) epochs="$2"; shift 2 ;;
    --data) data="$2"; shift 2 ;;
    --warmup-epochs) warmup="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --lr) lr_args=(--lr "$2"); shift 2 ;;
    --device) device_args=(--device "$2"); shift 2 ;;  # cuda: every worker's model on its GPU
    --table) table_only="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
# The table, from a CSV's per-epoch rows (rank "all").
table() {
awk -F, -v target="$target" '
  NR > 1 && $5 == "all" {
    key = $1 "," $2
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    if ($3 + 0 >= last[key]) { last[key] = $3 + 0; final[key] = $7; lr[key] = $8 }
    if ($3 == 1) first[key] = $7
    if ($7 + 0 >= target && !(key in reached)) reached[key] = $3
  }
  END {
    printf "%-4s %-8s %-10s %-12s %-10s %s\n", "np", "scaling", "lr (end)", "acc epoch 1", "final acc", "epochs to " target
    for (i = 1; i <= n; ++i) {
      split(order[i], k, ",")
      printf "%-4s %-8s %-10s %-12s %-10s %s\n", k[1], k[2], lr[order[i]], first[order[i]], final[order[i]],
             (order[i] in reached) ? reached[order[i]] : "not reached"
    }
  }' "$1"
}
if [[ -n "$table_only" ]]; then table "$table_only"; exit 0; fi
[[ -x "$bin" ]] || { echo "error: $bin not built (run ./ringlab build)" >&2; exit 2; }
mkdir -p "$out"
csv="$out/lr-scaling.csv"
rm -f "$csv"
data_args=()
[[ -n "$data" ]] && data_args=(--data "$data")

echo "load before: $(uptime)"
for np in $nps; do
  for scaling in $scalings; do
    echo "--- np $np, scaling $scaling"
    # --batch is global: 64 per worker, so the global batch grows with the workers.
    "$ROOT/scripts/ringlab-mpirun" -np "$np" "$bin" "${data_args[@]}" --batch $((64 * np)) --epochs "$epochs" --lr-scaling "$scaling" \
      --warmup-epochs "$warmup" --target "$target" "${lr_args[@]}" "${device_args[@]}" --csv "$csv" | grep --line-buffered -E '^(lesson 07|epoch|np )'
  done
done
echo "load after: $(uptime)"
table "$csv" | tee "$out/summary.txt"
echo "CSV: $csv"

# The plot: accuracy per epoch, a line per scaling rule (same colour in every panel), a panel per np.
if ! command -v gnuplot >/dev/null; then
  echo "no plot: gnuplot not found (apt-get install gnuplot-nox; ./ringlab installs it)" >&2
  exit 0
fi
dat="$out/lr-scaling.dat"
: >"$dat"
for np in $nps; do
  for scaling in $scalings; do
    awk -F, -v np="$np" -v s="$scaling" 'NR > 1 && $5 == "all" && $1 == np && $2 == s { print $3, $7 }' "$csv" >>"$dat"
    printf '\n\n' >>"$dat"
  done
done
panels=$(wc -w <<<"$nps")
gnuplot <<EOF
set terminal pngcairo size $((380 * panels + 100)),420 font "Sans,10"
set output "$out/lr-scaling.png"
set grid
set key bottom right
set xlabel "epoch"
set ylabel "test accuracy"
set xtics 1
set style line 1 lc rgb "#d62728" lw 2 pt 7
set style line 2 lc rgb "#1f77b4" lw 2 pt 5
set style line 3 lc rgb "#2ca02c" lw 2 pt 9
set multiplot layout 1,$panels title "learning-rate scaling: test accuracy per epoch (fixed batch per worker)"
nps = "$nps"
do for [p = 1:$panels] {
  set title sprintf("np %s", word(nps, p))
  plot "$dat" index 3*(p-1)+0 using 1:2 with linespoints ls 1 title "none", \
       "" index 3*(p-1)+1 using 1:2 with linespoints ls 2 title "linear", \
       "" index 3*(p-1)+2 using 1:2 with linespoints ls 3 title "sqrt"
}
unset multiplot
EOF
rm -f "$dat"
echo "plot: $out/lr-scaling.png"
