#!/usr/bin/env bash
# Times a team site of two workspaces against one workspace of as many
# notes (issue 20's target: within 1.1x), side by side in one run:
#
#   bench/team.sh            # 2 x 5,000 notes against 10,000, 3 runs each
#   RUNS=5 bench/team.sh 2000  # 2 x 2,000 against 4,000, 5 runs each
#
# The workspaces come from bench/gen: the 10,000-note one with seed 1, the
# two halves with seeds 1 and 2. Runs alternate (one, team, one, team…) so
# that a busy neighbour weighs on both alike. Wall time, CPU time (user +
# system) and peak resident memory are printed per run, then the medians
# and their ratios. Outputs are moved aside between runs, not deleted (see
# bench/compare.sh: on these disks a build right after a large rm -rf
# pays for the freed inodes).
#
# Measured 2026-12-02 (2 shared cores, load 9-16; 8 runs each over two
# invocations): CPU time team/one 0.99 (median 31.2 s against 31.4 s),
# peak memory 0.95 (~530 MB against ~556 MB), wall time 1.06 (74 s
# against 70 s, each between 33 and 106 s as the neighbours came and
# went). The team's search index is 17.62 MB against 17.61 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
HALF=${1:-5000}
RUNS=${RUNS:-3}
WORK=${WORK:-$(mktemp -d /tmp/dreamwiki-team-bench-XXXX)}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

go build -o "$WORK/dreamwiki" ./cmd/dreamwiki
[ -d "$WORK/one" ] || go run ./bench/gen -n $((2 * HALF)) -seed 1 -out "$WORK/one" >/dev/null
[ -d "$WORK/team/a" ] || go run ./bench/gen -n "$HALF" -seed 1 -out "$WORK/team/a" >/dev/null
[ -d "$WORK/team/b" ] || go run ./bench/gen -n "$HALF" -seed 2 -out "$WORK/team/b" >/dev/null

# run NAME ARGS...: one build, its figures appended to $WORK/NAME.tsv.
run() {
  local name=$1; shift
  local out="$WORK/out-$name"
  [ -d "$out" ] && mv "$out" "$WORK/aside-$name-$RANDOM$RANDOM"
  /usr/bin/time -f "%e\t%U\t%S\t%M" -o "$WORK/time" "$WORK/dreamwiki" build "$@" --out "$out" --quiet || true
  awk -v OFS='\t' '{print $1, $2 + $3, $4 / 1024}' "$WORK/time" >> "$WORK/$name.tsv"
  printf '%-5s wall %6.2fs  cpu %6.2fs  peak %5.0f MB\n' "$name" $(tail -1 "$WORK/$name.tsv")
}
rm -f "$WORK/one.tsv" "$WORK/team.tsv"
for _ in $(seq "$RUNS"); do
  run one "$WORK/one"
  run team "$WORK/team/a" "$WORK/team/b"
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
col() { cut -f"$2" "$WORK/$1.tsv" | median; }
printf '\nmedians of %d runs: one workspace of %d notes, a team of two of %d\n' "$RUNS" $((2 * HALF)) "$HALF"
for c in 1:wall 2:cpu 3:peak; do
  i=${c%%:*}; what=${c#*:}
  o=$(col one "$i"); t=$(col team "$i")
  printf '%-5s one %8.2f  team %8.2f  team/one %.3f\n' "$what" "$o" "$t" "$(echo "$t / $o" | bc -l)"
done
rm -rf "$WORK"/aside-*
