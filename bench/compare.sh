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
#   SHAPES="uniform keys" bench/compare.sh 1000
#                                         # each size in each bench/gen
#                                         # shape ("keys": topic entries
#                                         # under "Decision:"/"Next:"), and
#                                         # each shape's time per note
#                                         # against the uniform one's
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
read -r -a SHAPE_LIST <<< "${SHAPES:-uniform}"
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
 for S in "${SHAPE_LIST[@]}"; do
  K="$N-$S" # a size in a shape
  ws="$WORK/ws-$K"
  [ -d "$ws" ] || go run ./bench/gen -n "$N" -shape "$S" -out "$ws"
  hugo=0
  if [ "$N" -le "$HUGO_MAX" ]; then hugo=1; hugo_site "$WORK/hugo-$K" "$ws"; fi
  : > "$WORK/dw-$K.txt"; : > "$WORK/hugo-$K.txt"
  for i in $(seq "$RUNS"); do
    aside "$OUTS/out-$K"
    measure "$WORK/dreamwiki" build "$ws" --out "$OUTS/out-$K" --quiet >> "$WORK/dw-$K.txt"
    if [ "$hugo" = 1 ]; then
      aside "$OUTS/hugo-public-$K"
      measure hugo --source "$WORK/hugo-$K" --destination "$OUTS/hugo-public-$K" --quiet >> "$WORK/hugo-$K.txt"
    fi
  done
  files=$(find "$OUTS/out-$K" -type f | wc -l)
  echo "$N $(col 1 "$WORK/dw-$K.txt") $(col 2 "$WORK/dw-$K.txt") $(col 3 "$WORK/dw-$K.txt") $files" \
    "$( [ "$hugo" = 1 ] && echo "$(col 1 "$WORK/hugo-$K.txt") $(col 2 "$WORK/hugo-$K.txt") $(col 3 "$WORK/hugo-$K.txt") $(find "$OUTS/hugo-public-$K" -type f | wc -l)" || echo "- - - -") $S" >> "$summary"
  if [ "$FLOOR" = 1 ] && [ "$hugo" = 1 ]; then
    # Once per run, right after Hugo's runs, on the output just built.
    for i in $(seq "$RUNS"); do
      aside "$OUTS/floor-$K"; mkdir -p "$OUTS/floor-$K"
      "$WORK/floor" "$OUTS/out-$K" "$OUTS/floor-$K" | awk '$1 == "floor" { print $2, $5 }'
    done > "$WORK/floor-$K.txt"
    aside "$OUTS/floor-$K"
    echo "$N $(col 1 "$WORK/floor-$K.txt") $(col 2 "$WORK/floor-$K.txt") $S" >> "$WORK/floor.txt"
  fi
  # Outputs of big sizes are large; keep the disk for the next size.
  [ "$N" -gt "$HUGO_MAX" ] && aside "$OUTS/out-$K"
 done
done

printf '\nmedian of %s runs; wall s / cpu s / peak MB / files written (%s)\n' "$RUNS" "$WORK"
awk '
  function mb(kb) { return kb / 1024 }
  { n[NR]=$1; dw[NR]=$2; dwc[NR]=$3; dwm[NR]=$4; dwf[NR]=$5; hu[NR]=$6; huc[NR]=$7; hum[NR]=$8; huf[NR]=$9; sh[NR]=$10
    if ($1 == 10000 && $10 == "uniform") ten = $2
    if ($10 == "uniform") { uni[$1] = $2; unic[$1] = $3 } }
  END {
    printf "%8s  %-8s  %-32s  %-32s  %s\n", "notes", "shape", "dreamwiki", "hugo", "ratio time (cpu) / memory"
    for (i = 1; i <= NR; i++) {
      d = sprintf("%7.2f %7.2f %6.0f %8d", dw[i], dwc[i], mb(dwm[i]), dwf[i])
      if (hu[i] == "-") {
        h = sprintf("%32s", "(not run)")
        r = (ten > 0 && n[i] > 10000) ? sprintf("%.1fx the 10,000-note time (target <= %.0fx)", dw[i] / ten, 1.1 * n[i] / 10000) : ""
      } else {
        h = sprintf("%7.2f %7.2f %6.0f %8d", hu[i], huc[i], mb(hum[i]), huf[i])
        r = sprintf("%.2f (%.2f) / %.2f", dw[i] / hu[i], dwc[i] / huc[i], dwm[i] / hum[i])
      }
      if (sh[i] != "uniform" && uni[n[i]] > 0)
        r = r sprintf("; %.2f (%.2f) of uniform", dw[i] / uni[n[i]], dwc[i] / unic[n[i]])
      printf "%8d  %-8s  %s  %s  %s\n", n[i], sh[i], d, h, r
    }
    print "(target: ratio <= 1.0 for time and memory; another shape within 1.3x of uniform, same size)"
  }' "$summary"
if [ -s "$WORK/floor.txt" ]; then
  printf '\nfloor (bench/floor: markdown, a one-line template and writing the same files, nothing else)\n'
  awk 'NR == FNR { hw[$1 " " $10] = $6; hc[$1 " " $10] = $7; next }
    { k = $1 " " $4; printf "%8d  %-8s  floor %6.2f s wall %6.2f s cpu = %.2f (%.2f) of hugo\n", $1, $4, $2, $3, $2 / hw[k], $3 / hc[k] }' "$summary" "$WORK/floor.txt"
fi
