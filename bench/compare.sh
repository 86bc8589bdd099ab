#!/usr/bin/env bash
# Times `dreamwiki build` (vault + site + search data) against Hugo building
# the same Markdown files, side by side in one run, and prints the ratios.
#
#   bench/compare.sh 10000                # N notes, 3 runs each (median)
#   RUNS=5 bench/compare.sh 1000 10000    # several sizes, one table
#   OUTS=/dev/shm/bench bench/compare.sh 10000  # both write to a RAM disk:
#                                         # the same comparison without
#                                         # the disk's cost of files
#   FLOOR=1 bench/compare.sh 10000        # also time bench/floor on the
#                                         # output: the least any build of
#                                         # that output could cost
#   bench/compare.sh 1000 10000 100000    # sizes above HUGO_MAX (20,000)
#                                         # time dreamwiki alone, and the
#                                         # table gives their scaling
#                                         # against the 10,000-note build
#
# Wall time is what a user waits; on a shared or busy machine it also
# measures the neighbours, so CPU time (user + system, all cores) is
# printed too. Peak memory is the maximum resident set size.
#
# Outputs are moved aside between runs, not deleted, and removed at the
# end. On ext4 without a journal (these machines' disks), creating a file
# skips over every inode freed in the last minute or so (six, while the
# inode table is dirty): a run started right after `rm -rf` of a 75,000-file
# output spends most of its time in the kernel, and the tool that writes
# more files pays more. Moving aside keeps both tools on an equal footing.
# For the same reason, wait a few minutes after deleting large trees
# before running this script.
#
# Hugo comes from Debian (apt-get install hugo). Both tools get the same
# generated workspace; Hugo gets it as content/ with a minimal theme that
# renders each page with its content, table of contents and tags, which is
# the least a wiki page shows.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("${@:-1000}")
RUNS=${RUNS:-3}
HUGO_MAX=${HUGO_MAX:-20000}
WORK=${WORK:-$(mktemp -d /tmp/dreamwiki-bench-XXXX)}
OUTS=${OUTS:-$WORK} # where both tools write their output

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
command -v hugo >/dev/null || { as_root apt-get update -qq; as_root apt-get install -y -qq --no-install-recommends hugo >/dev/null; }
command -v /usr/bin/time >/dev/null || as_root apt-get install -y -qq --no-install-recommends time >/dev/null

go build -o "$WORK/dreamwiki" ./cmd/dreamwiki
FLOOR=${FLOOR:-0}
[ "$FLOOR" = 1 ] && go build -o "$WORK/floor" ./bench/floor

# hugo_site DIR WS: the files of WS as a Hugo site in DIR.
hugo_site() {
  [ -d "$1" ] && return
  mkdir -p "$1/layouts/_default"
  cp -r "$2" "$1/content"
  cat > "$1/hugo.toml" <<'TOML'
baseURL = "https://example.org/"
title = "bench"
disableKinds = ["RSS"]
[markup.goldmark.renderer]
  unsafe = false
[taxonomies]
  tag = "tags"
TOML
  cat > "$1/layouts/_default/baseof.html" <<'HTML'
<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><nav><a href="{{ "/" | relURL }}">Home</a></nav><main>{{ block "main" . }}{{ end }}</main></body></html>
HTML
  cat > "$1/layouts/_default/single.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><aside>{{ .TableOfContents }}</aside>{{ .Content }}
<ul>{{ range .Params.tags }}<li>{{ . }}</li>{{ end }}</ul>{{ end }}
HTML
  cat > "$1/layouts/_default/list.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
HTML
}

# measure CMD...: prints "seconds cpu_seconds maxrss_kb" of one run.
measure() {
  /usr/bin/time -f '%e %U %S %M' -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" || { cat "$WORK/stderr.txt"; exit 1; }
  awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$WORK/time.txt"
}
# aside DIR: moves DIR out of the way, to be deleted when the script ends.
aside() { if [ -e "$1" ]; then mkdir -p "$OUTS/trash"; mv "$1" "$(mktemp -d "$OUTS/trash/XXXXXX")/"; fi; }
mkdir -p "$OUTS"
trap 'rm -rf "$OUTS/trash"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
col() { cut -d' ' -f"$1" "$2" | median; }

summary="$WORK/summary.txt"
: > "$summary"; : > "$WORK/floor.txt"
for N in "${SIZES[@]}"; do
  ws="$WORK/ws-$N"
  [ -d "$ws" ] || go run ./bench/gen -n "$N" -out "$ws"
  hugo=0
  if [ "$N" -le "$HUGO_MAX" ]; then hugo=1; hugo_site "$WORK/hugo-$N" "$ws"; fi
  : > "$WORK/dw-$N.txt"; : > "$WORK/hugo-$N.txt"
  for i in $(seq "$RUNS"); do
    aside "$OUTS/out-$N"
    measure "$WORK/dreamwiki" build "$ws" --out "$OUTS/out-$N" --quiet >> "$WORK/dw-$N.txt"
    if [ "$hugo" = 1 ]; then
      aside "$OUTS/hugo-public-$N"
      measure hugo --source "$WORK/hugo-$N" --destination "$OUTS/hugo-public-$N" --quiet >> "$WORK/hugo-$N.txt"
    fi
  done
  files=$(find "$OUTS/out-$N" -type f | wc -l)
  echo "$N $(col 1 "$WORK/dw-$N.txt") $(col 2 "$WORK/dw-$N.txt") $(col 3 "$WORK/dw-$N.txt") $files" \
    "$( [ "$hugo" = 1 ] && echo "$(col 1 "$WORK/hugo-$N.txt") $(col 2 "$WORK/hugo-$N.txt") $(col 3 "$WORK/hugo-$N.txt") $(find "$OUTS/hugo-public-$N" -type f | wc -l)" || echo "- - - -")" >> "$summary"
  if [ "$FLOOR" = 1 ] && [ "$hugo" = 1 ]; then
    # Once per run, right after Hugo's runs, on the output just built.
    for i in $(seq "$RUNS"); do
      aside "$OUTS/floor-$N"; mkdir -p "$OUTS/floor-$N"
      "$WORK/floor" "$OUTS/out-$N" "$OUTS/floor-$N" | awk '$1 == "floor" { print $2, $5 }'
    done > "$WORK/floor-$N.txt"
    aside "$OUTS/floor-$N"
    echo "$N $(col 1 "$WORK/floor-$N.txt") $(col 2 "$WORK/floor-$N.txt")" >> "$WORK/floor.txt"
  fi
  # Outputs of big sizes are large; keep the disk for the next size.
  [ "$N" -gt "$HUGO_MAX" ] && aside "$OUTS/out-$N"
done

printf '\nmedian of %s runs; wall s / cpu s / peak MB / files written (%s)\n' "$RUNS" "$WORK"
awk '
  function mb(kb) { return kb / 1024 }
  { n[NR]=$1; dw[NR]=$2; dwc[NR]=$3; dwm[NR]=$4; dwf[NR]=$5; hu[NR]=$6; huc[NR]=$7; hum[NR]=$8; huf[NR]=$9; if ($1 == 10000) ten = $2 }
  END {
    printf "%8s  %-32s  %-32s  %s\n", "notes", "dreamwiki", "hugo", "ratio time (cpu) / memory"
    for (i = 1; i <= NR; i++) {
      d = sprintf("%7.2f %7.2f %6.0f %8d", dw[i], dwc[i], mb(dwm[i]), dwf[i])
      if (hu[i] == "-") {
        h = sprintf("%32s", "(not run)")
        r = (ten > 0 && n[i] > 10000) ? sprintf("%.1fx the 10,000-note time (target <= %.0fx)", dw[i] / ten, 1.1 * n[i] / 10000) : ""
      } else {
        h = sprintf("%7.2f %7.2f %6.0f %8d", hu[i], huc[i], mb(hum[i]), huf[i])
        r = sprintf("%.2f (%.2f) / %.2f", dw[i] / hu[i], dwc[i] / huc[i], dwm[i] / hum[i])
      }
      printf "%8d  %s  %s  %s\n", n[i], d, h, r
    }
    print "(target: ratio <= 1.0 for time and memory)"
  }' "$summary"
if [ -s "$WORK/floor.txt" ]; then
  printf '\nfloor (bench/floor: markdown, a one-line template and writing the same files, nothing else)\n'
  join "$WORK/floor.txt" "$summary" | awk '{ printf "%8d  floor %6.2f s wall %6.2f s cpu = %.2f (%.2f) of hugo\n", $1, $2, $3, $2 / $8, $3 / $9 }'
fi
