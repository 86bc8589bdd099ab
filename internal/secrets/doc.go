// Package secrets finds authentication material in text and redacts it, so
// that credentials that reached an agent's memory are never published in the
// vault, the site or the search index, and never promoted by a dream
// (DESIGN 5.6).
//
// What counts as a secret is a closed list of kinds (Kinds): private key
// blocks, cloud and API keys and tokens of known formats, JWTs, bearer
// tokens, webhook URLs, credentials in URLs, passwords, and random-looking
// values assigned to keys that name a credential. The list covers gitleaks'
// default rule set and what a line scanner misses in notes.
//
// Personal data is a second, separate class (personal.go): phone numbers,
// e-mail addresses and street addresses, found by ScanPersonal and
// redacted by a Guard with Personal set, never by Scan or Redact. Beyond
// these two closed lists (names, hostnames, IP addresses, hashes …)
// nothing raises a finding, because an alert about ordinary content has
// nowhere to go and teaches people to skim past the alert that matters.
//
// Detection is one pass over the bytes. A keyword automaton (automaton.go)
// finds every place worth a closer look, as gitleaks' keyword prefilter
// does, and each detector registers its keywords as triggers (scan.go):
//
//   - rules_gitleaks.go: gitleaks v8.30.1's default rules, carried over with
//     their ids, patterns, keywords, entropy thresholds and allowlists; each
//     pattern runs only on the few bytes around its keyword. Their own true
//     and false positives run in gitleaks_test.go.
//   - rules_extra.go: the guard's own pattern rules (Telegram, Azure, Discord).
//   - generic.go: gitleaks' generic-api-key rule, ported by hand, plus .env
//     lines, Markdown and CJK labels ("**API token:** …", "令牌：…").
//   - tokens.go, privatekey.go, url.go, password.go, cmdline.go: formats
//     and structures read by hand: key blocks inside list items, quotes and
//     JSON strings, passwords after labels and command-line flags
//     (mysql -pSECRET), credentials in URLs, an AWS secret key next to its
//     key id.
//   - split.go: a secret split over two lines of a list is found by joining
//     the lines.
//   - table.go: a value named by its table column's header ("App Secret",
//     密钥, password) rather than on its own row.
//   - headers.go: Authorization credentials in every scheme, cookies.
//   - escape.go: a text with Markdown escapes inside words ("ghp\_…", as
//     web clippers write them) is scanned again without them, and what is
//     found there is redacted over the escaped span.
//
// Why carried-over rules rather than gitleaks as a library, measured with
// gitleaks v8.30.1 on the benchmark texts of bench_test.go: its detector
// ran at 0.3 MB/s on one 4 MiB text and 0.9 to 1.9 MB/s note by note,
// against this package's 165 MB/s on the keyword-dense ordinary.txt and
// 300 MB/s on the demo workspace's notes, since it runs every rule whose
// keyword occurs anywhere in a text over the whole text; building it takes
// 100 ms and 26 MB; it added 64 requirements to go.mod (173 modules to the
// build list) and 9.0 MB (21%) to the dreamwiki binary; it reports a
// secret's text and line, not its byte offsets; and it missed 36 of the 64
// cases of testdata/secrets.txt as it was then (passwords, URL credentials,
// bearer tokens, keys in quotes).
//
// Redaction keeps every line of the text (multi-line secrets keep their
// line breaks and container markup), so line numbers and citations stay
// valid, and it is idempotent: a placeholder is never detected.
//
// The package never stores, logs or prints a secret value: a Finding carries
// byte offsets, the rule's name and a masked preview only. It never panics
// on any input.
package secrets
