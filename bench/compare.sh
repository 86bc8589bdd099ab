#!/usr/bin/env bash
# Times `dreamwiki build` against Hugo building the same Markdown files,
# side by side in one run, and prints the ratios.
#
#   bench/compare.sh 10000          # N notes, 3 runs each (median)
#   RUNS=5 bench/compare.sh 1000
#
# Hugo comes from Debian (apt-get install hugo). Both tools get the same
# generated workspace; Hugo gets it as content/ with a minimal theme that
# renders each page with its content, table of contents and tags, which is
# the least a wiki page shows.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
RUNS=${RUNS:-3}
WORK=${WORK:-$(mktemp -d /tmp/dreamwiki-bench-XXXX)}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
command -v hugo >/dev/null || { as_root apt-get update -qq; as_root apt-get install -y -qq --no-install-recommends hugo >/dev/null; }
command -v /usr/bin/time >/dev/null || as_root apt-get install -y -qq --no-install-recommends time >/dev/null

go build -o "$WORK/dreamwiki" ./cmd/dreamwiki
go run ./bench/gen -n "$N" -out "$WORK/ws"

# The same files as a Hugo site.
mkdir -p "$WORK/hugo/layouts/_default"
cp -r "$WORK/ws" "$WORK/hugo/content"
cat > "$WORK/hugo/hugo.toml" <<'TOML'
baseURL = "https://example.org/"
title = "bench"
disableKinds = ["RSS"]
[markup.goldmark.renderer]
  unsafe = false
[taxonomies]
  tag = "tags"
TOML
cat > "$WORK/hugo/layouts/_default/baseof.html" <<'HTML'
<!doctype html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body><nav><a href="{{ "/" | relURL }}">Home</a></nav><main>{{ block "main" . }}{{ end }}</main></body></html>
HTML
cat > "$WORK/hugo/layouts/_default/single.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><aside>{{ .TableOfContents }}</aside>{{ .Content }}
<ul>{{ range .Params.tags }}<li>{{ . }}</li>{{ end }}</ul>{{ end }}
HTML
cat > "$WORK/hugo/layouts/_default/list.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
HTML

# measure CMD...: prints "seconds maxrss_kb" of one run.
measure() {
  /usr/bin/time -f '%e %M' -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" || { cat "$WORK/stderr.txt"; exit 1; }
  cat "$WORK/time.txt"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: > "$WORK/dw.txt"; : > "$WORK/hugo.txt"
for i in $(seq "$RUNS"); do
  rm -rf "$WORK/out" "$WORK/hugo/public"
  measure "$WORK/dreamwiki" build "$WORK/ws" --out "$WORK/out" --quiet >> "$WORK/dw.txt"
  measure hugo --source "$WORK/hugo" --quiet >> "$WORK/hugo.txt"
done
dw_t=$(cut -d' ' -f1 "$WORK/dw.txt" | median);  dw_m=$(cut -d' ' -f2 "$WORK/dw.txt" | median)
hu_t=$(cut -d' ' -f1 "$WORK/hugo.txt" | median); hu_m=$(cut -d' ' -f2 "$WORK/hugo.txt" | median)
printf '%s notes, median of %s runs\n' "$N" "$RUNS"
printf '  dreamwiki build  %6.2f s  %7d KB peak\n' "$dw_t" "$dw_m"
printf '  hugo             %6.2f s  %7d KB peak\n' "$hu_t" "$hu_m"
awk -v a="$dw_t" -v b="$hu_t" -v c="$dw_m" -v d="$hu_m" 'BEGIN { printf "  ratio time %.2f  memory %.2f  (dreamwiki / hugo; <= 1.0 is the target)\n", a/b, c/d }'
