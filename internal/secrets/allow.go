package secrets

import (
	"regexp"
	"strings"
	"sync"
)

// Allowlists: values that have the shape of a secret but stand for one.
// The global list is gitleaks' (config/gitleaks.toml, [allowlist]), applied
// to every pattern rule and to generic-api-key; the placeholders after it
// are what people write in notes instead of a secret.

// gitleaksGlobalAllow holds gitleaks' global allowlist regexes, as
// written there except the first: gitleaks writes (?i)^true|false|null$,
// which allows any value containing "false"; the intent, kept here, is
// the three words alone.
var gitleaksGlobalAllow = []string{
	`(?i)^(?:true|false|null)$`,
	`^(?i:a+|b+|c+|d+|e+|f+|g+|h+|i+|j+|k+|l+|m+|n+|o+|p+|q+|r+|s+|t+|u+|v+|w+|x+|y+|z+|\*+|\.+)$`,
	`^\$(?:\d+|{\d+})$`,
	`^\$(?:[A-Z_]+|[a-z_]+)$`,
	`^\${(?:[A-Z_]+|[a-z_]+)}$`,
	`^\{\{[ \t]*[\w ().|]+[ \t]*}}$`,
	`^\$\{\{[ \t]*(?:(?:env|github|secrets|vars)(?:\.[A-Za-z]\w+)+[\w "'&./=|]*)[ \t]*}}$`,
	`^%(?:[A-Z_]+|[a-z_]+)%$`,
	`^%[+\-# 0]?[bcdeEfFgGoOpqstTUvxX]$`,
	`^\{\d{0,2}}$`,
	`^@(?:[A-Z_]+|[a-z_]+)@$`,
	`^/Users/(?i)[a-z0-9]+/[\w .-/]+$`,
	`^/(?:bin|etc|home|opt|tmp|usr|var)/[\w ./-]+$`,
}

// gitleaksGlobalStopwords are gitleaks' global stopwords.
var gitleaksGlobalStopwords = []string{"014df517-39d1-4453-b7b3-9930c563627c", "abcdefghijklmnopqrstuvwxyz"}

var globalAllow = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:` + strings.Join(gitleaksGlobalAllow, `)|(?:`) + `)`)
})

// placeholderWords are fragments that only placeholders and examples
// hold: "your-api-key-here", "<token>", "sk_test_xxxxxxxxxxxx",
// "EXAMPLEKEY". Matched ignoring case.
var placeholderWords = []string{"xxxx", "****", "your_", "your-", "yourapi", "example", "placeholder", "redacted", "<", ">", "${", "{{", "…", "..."}

var placeholders = sync.OnceValue(func() *automaton { return newAutomaton(placeholderWords) })

// allowed reports whether a secret value found by a pattern rule or by
// generic-api-key stands for a secret rather than being one.
func allowed(v string) bool {
	if placeholders().contains(v) || maskOnly(v) {
		return true
	}
	for _, w := range gitleaksGlobalStopwords {
		if strings.Contains(v, w) {
			return true
		}
	}
	// Every expression of the global list starts with one of these bytes
	// or matches true, false, null or a run of one character; the check
	// saves running it on every token.
	if v != "" && strings.IndexByte("$%{@/", v[0]) < 0 && len(v) > 5 && !oneByte(v) {
		return false
	}
	return globalAllow().MatchString(v)
}

// oneByte reports whether v repeats one byte, ignoring ASCII case.
func oneByte(v string) bool {
	for i := 1; i < len(v); i++ {
		if fold(v[i]) != fold(v[0]) {
			return false
		}
	}
	return true
}

// redacted reports whether v holds a redaction placeholder, in either form
// (Placeholder or NamePlaceholder): what is left around a redacted secret
// must never be taken for one, or redaction would not settle.
func redacted(v string) bool {
	return strings.Contains(v, "[REDACTED:") || containsFold(v, "redacted-")
}

// maskOnly reports a value made only of masking characters: "****",
// "xxxxxxxx", "••••", "...", "…".
func maskOnly(v string) bool {
	for _, r := range v {
		switch r {
		case '*', 'x', 'X', '.', '•', '…', '#', '-', '_', '?':
		default:
			return false
		}
	}
	return true
}
