#!/usr/bin/env bash
# Prints what a built site weighs: its files (apparent bytes and disk
# use), its HTML pages (total, median, mean, largest) and the home page.
# The figures of issue #24's page-weight target.
#
#   dreamwiki build WORKSPACE --out /tmp/out && bench/sitesize.sh /tmp/out/site
set -euo pipefail
site=${1:?usage: bench/sitesize.sh SITE_DIR}
sizes=$(mktemp)
trap 'rm -f "$sizes"' EXIT
find "$site" -name '*.html' -printf '%s\n' | sort -n >"$sizes"
n=$(wc -l <"$sizes")
awk -v n="$n" -v all="$(du -sb "$site" | cut -f1)" -v disk="$(du -sk "$site" | cut -f1)" \
  -v home="$(stat -c %s "$site/index.html")" '
  { s += $1; v[NR] = $1 }
  END {
    printf "site       %.1f MB (%.1f MB on disk)\n", all / 1e6, disk * 1024 / 1e6
    printf "html       %d pages, %.1f MB\n", n, s / 1e6
    printf "page html  median %.1f KB, mean %.1f KB, largest %.1f KB\n", v[int((n + 1) / 2)] / 1e3, s / n / 1e3, v[n] / 1e3
    printf "home       %.1f KB\n", home / 1e3
  }' "$sizes"
