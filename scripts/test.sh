#!/usr/bin/env bash
# Runs every test dreamwiki has: Go unit and integration tests (with the
# race detector), short fuzz runs of the parsers, browser tests in
# Debian's Chromium, and the vault read by an independent Markdown
# toolchain. Installs what it needs on a fresh Debian machine.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

step "dependencies"
go mod download
if ! command -v chromium >/dev/null 2>&1 || ! command -v strace >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium strace >/dev/null
fi
if ! command -v node >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
(cd tests/compat && npm ci --no-audit --no-fund --loglevel=error)
(cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error)

step "gofmt, go vet and go mod tidy"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then echo "gofmt wants to change: $unformatted"; exit 1; fi
go vet ./...
if ! go mod tidy -diff; then echo "go.mod/go.sum are not tidy: run go mod tidy"; exit 1; fi

step "go test (race detector on)"
go test -race -count=1 -timeout 25m ./...

step "the workflow init-ci writes passes actionlint"
ci=$(mktemp -d)
go run ./cmd/dreamwiki init-ci github -C "$ci" --workspace memory >/dev/null
go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 -color=false "$ci/.github/workflows/dreamwiki.yml"
rm -rf "$ci"

step "serve mode's random edits at full length (3 seeds x 200 steps)"
# The race detector run above shortens it to one seed of 60 steps; this
# run, without the detector, checks every step of every seed against a
# fresh build (about 25 s of CPU).
go test -count=1 -timeout 10m -run '^TestSession_RandomEditsEqualFreshBuilds$' ./internal/build

step "fuzz the parsers briefly"
# Budgets are counts of inputs (about ten seconds each here), not times:
# Go 1.26's fuzzing coordinator can report a spurious "context deadline
# exceeded" failure when a -fuzztime duration ends while a worker is busy
# (golang/go#75804, fixed in Go 1.27). FUZZTIME overrides every budget.
fuzz() { go test -run='^$' -fuzz="^$1\$" -fuzztime="${FUZZTIME:-$3}" "$2"; }
fuzz FuzzParse ./internal/markdown 8000x
fuzz FuzzFrontMatter ./internal/markdown 40000x
fuzz FuzzParseEntries ./internal/workspace 20000x
fuzz FuzzRedact ./internal/secrets 200000x
fuzz FuzzParseQuery ./internal/search/memsearch 10000x
fuzz FuzzWords_AreTermsOfAnalyze ./internal/analysis 20000x
fuzz FuzzCandidate ./internal/dream 10000x
fuzz FuzzStateFiles ./internal/memory 50000x
fuzz FuzzClean ./internal/safesvg 50000x

step "browser tests (Chromium + playwright-core)"
go build -o tests/browser/.bin/dreamwiki ./cmd/dreamwiki
(cd tests/browser && node --test --test-concurrency=1 --test-timeout=300000 ./*.test.mjs)

step "vault compatibility (unified/remark, remark-wiki-link, @r4ai/remark-callout)"
# The demo's vault and a generated 1,000-note one, read by a toolchain
# that shares no code with dreamwiki (tests/compat/vault.test.mjs).
compat=$(mktemp -d)
tests/browser/.bin/dreamwiki build --demo --out "$compat/demo" --quiet
go run ./bench/gen -n 1000 -out "$compat/ws"
tests/browser/.bin/dreamwiki build "$compat/ws" --out "$compat/gen" --quiet
(cd tests/compat && COMPAT_VAULTS="$compat/demo/vault:$compat/gen/vault" node --test --test-timeout=300000 ./*.test.mjs)
rm -rf "$compat"

step "MCP: an independent client (the TypeScript SDK) against dreamwiki mcp --demo"
(cd tests/mcp && node --test --test-timeout=300000 ./*.test.mjs)

step "all tests passed"
