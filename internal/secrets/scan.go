package secrets

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// candidate is one raw detection before overlaps are resolved.
type candidate struct {
	start, end int
	kind       Kind
}

// scanner holds the state of one pass over a text. It is created per call,
// so Scan, Redact and Contains are safe for concurrent use.
type scanner struct {
	t     string
	first bool // stop at the first detection (Contains)
	found []candidate
}

// add records a detection and reports whether the scan should stop.
func (s *scanner) add(start, end int, k Kind) bool {
	s.found = append(s.found, candidate{start, end, k})
	return s.first
}

// triggers marks the bytes that can begin a detection: the first bytes of
// every prefix and label below. It is computed once and never written.
var triggers = func() (tab [256]bool) {
	for _, c := range []byte("-:AasgxBbepP\xE5\xE3") {
		tab[c] = true
	}
	return tab
}()

// run is the single pass. Every byte costs one table lookup; only the bytes
// that can begin a known format go further, and most of those are rejected
// by a word-boundary test and a short prefix comparison.
func (s *scanner) run() {
	t := s.t
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !triggers[c] {
			continue
		}
		switch c {
		case '-':
			// Private key blocks are looked for at any position: the
			// dashes may follow a quote, a "\n" escape or anything else.
			if strings.HasPrefix(t[i:], "-----BEGIN ") {
				if start, end := privateKey(t, i); end > 0 {
					if s.add(start, end, KindPrivateKey) {
						return
					}
					i = end - 1
				}
			}
			continue
		case ':':
			if i+2 < len(t) && t[i+1] == '/' && t[i+2] == '/' {
				if start, end := urlCredentials(t, i); end > 0 && s.add(start, end, KindURLCredentials) {
					return
				}
			}
			continue
		case 0xE5, 0xE3: // first bytes of 密 (密码) and パ (パスワード)
			if start, end := cjkPassword(t, i); end > 0 && s.add(start, end, KindPassword) {
				return
			}
			continue
		case 'A', 'a', 's', 'g', 'x', 'B', 'b', 'e', 'p', 'P':
		default:
			continue
		}
		// Everything below must start a word: "task-list" holds "sk-" but
		// not at a word start, and a hash never starts with "AKIA" mid-run.
		// camelCase keys ("dbPassword") are the one exception.
		if i > 0 && isAlnum(t[i-1]) && (c != 'P' || !isLower(t[i-1])) {
			continue
		}
		var start, end int
		var k Kind
		switch c {
		case 'A':
			if start, end, k = awsOrGoogle(t, i); end == 0 {
				start, end = awsSecret(t, i)
				k = KindAWSSecretKey
			}
		case 'a':
			start, end = awsSecret(t, i)
			k = KindAWSSecretKey
		case 's':
			start, end = openAIKey(t, i)
			k = KindAPIKey
		case 'g':
			start, end = gitHubToken(t, i)
			k = KindGitHubToken
		case 'x':
			start, end = slackToken(t, i)
			k = KindSlackToken
		case 'e':
			start, end = jwt(t, i)
			k = KindJWT
		case 'B', 'b':
			start, end = bearer(t, i)
			k = KindBearer
		case 'p', 'P':
			start, end = password(t, i)
			k = KindPassword
		}
		if end == 0 {
			continue
		}
		// The scan goes on at i+1 rather than after the value: a token
		// glued to the next secret ("…-----BEGIN") must not hide it.
		// Tokens are rare, so re-reading their bytes costs nothing.
		if s.add(start, end, k) {
			return
		}
	}
}

// findings resolves overlaps and turns candidates into Findings.
func (s *scanner) findings() []Finding { return resolve(s.t, s.found) }

// resolve sorts candidates (in place), merges overlaps and turns them into
// Findings with line, column and preview.
func resolve(t string, c []candidate) []Finding {
	if len(c) == 0 {
		return nil
	}
	slices.SortFunc(c, func(a, b candidate) int {
		if a.start != b.start {
			return a.start - b.start
		}
		if a.end != b.end {
			return b.end - a.end // longer first
		}
		return priority(a.kind) - priority(b.kind)
	})
	merged := []candidate{c[0]}
	for _, x := range c[1:] {
		last := &merged[len(merged)-1]
		if x.start >= last.end {
			merged = append(merged, x)
			continue
		}
		// Overlap: keep one finding covering both so that no byte of
		// either secret survives redaction.
		last.end = max(last.end, x.end)
	}
	out := make([]Finding, 0, len(merged))
	line, lineStart, pos := 1, 0, 0
	for _, m := range merged {
		// Findings are sorted, so line numbers are counted incrementally.
		seg := t[pos:m.start]
		if n := strings.Count(seg, "\n"); n > 0 {
			line += n
			lineStart = pos + strings.LastIndexByte(seg, '\n') + 1
		}
		pos = m.start
		out = append(out, Finding{
			Kind:    m.kind,
			Line:    line,
			Col:     utf8.RuneCountInString(t[lineStart:m.start]) + 1,
			Start:   m.start,
			End:     m.end,
			Preview: preview(m.kind, t[m.start:m.end]),
		})
	}
	return out
}

// priority orders kinds for identical spans, as listed in Kinds.
func priority(k Kind) int {
	switch k {
	case KindPrivateKey:
		return 0
	case KindAWSKey:
		return 1
	case KindAWSSecretKey:
		return 2
	case KindGitHubToken:
		return 3
	case KindSlackToken:
		return 4
	case KindGoogleKey:
		return 5
	case KindAPIKey:
		return 6
	case KindJWT:
		return 7
	case KindBearer:
		return 8
	case KindURLCredentials:
		return 9
	default:
		return 10
	}
}

// preview masks a secret value for display.
func preview(k Kind, v string) string {
	const ell = "…"
	var prefix string
	switch k {
	case KindPassword, KindURLCredentials, KindAWSSecretKey, KindPrivateKey:
		return ell
	case KindAWSKey, KindGoogleKey:
		prefix = v[:4]
	case KindGitHubToken:
		prefix = v[:4]
		if strings.HasPrefix(v, "github_pat_") {
			prefix = "github_pat_"
		}
	case KindSlackToken:
		prefix = v[:5]
	case KindJWT:
		prefix = "eyJ"
	case KindAPIKey:
		// "sk-" plus a short scope such as "proj-" or "ant-".
		prefix = "sk-"
		if j := strings.IndexByte(v[3:], '-'); j > 0 && j <= 8 {
			prefix = v[:3+j+1]
		}
	}
	if len(v) >= 20 && utf8.ValidString(v[len(v)-4:]) {
		return prefix + ell + v[len(v)-4:]
	}
	return prefix + ell
}

// Character classes. ASCII only: every format in the list is ASCII, and a
// byte >= 0x80 (part of a multi-byte character) counts as a separator.

func isAlnum(c byte) bool { return isLower(c) || isUpper(c) || isDigit(c) }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isURLSafe is the base64url alphabet, used by JWTs, OpenAI and Google keys.
func isURLSafe(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

// isBase64 is the standard base64 alphabet with padding.
func isBase64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' }

// span returns the end of the run of bytes from i that satisfy ok.
func span(t string, i int, ok func(byte) bool) int {
	for i < len(t) && ok(t[i]) {
		i++
	}
	return i
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// lineEnd returns the offset of the first newline at or after i, looking at
// most limit bytes ahead (or the end of that window). Bounding every
// look-around keeps a text that is one enormous line linear to scan.
func lineEnd(t string, i, limit int) int {
	w := t[i:min(len(t), i+limit)]
	if e := strings.IndexByte(w, '\n'); e >= 0 {
		return i + e
	}
	return i + len(w)
}

// lineStart returns the offset just after the last newline before i, looking
// at most limit bytes back. ok is false when the window holds no newline and
// does not reach the start of the text.
func lineStart(t string, i, limit int) (start int, ok bool) {
	w := max(0, i-limit)
	if b := strings.LastIndexByte(t[w:i], '\n'); b >= 0 {
		return w + b + 1, true
	}
	return w, w == 0
}

// maxLine bounds how far a detector looks along a line.
const maxLine = 4096

// looksRandom reports whether a token is plausibly machine-generated rather
// than words joined by punctuation ("2024-annual-report-v2"): it needs letters
// and digits and one unbroken alphanumeric run of 12 or more, and either all
// three character classes or a length of 32 or more (hex ids, for example).
func looksRandom(v string) bool {
	var lower, upper, digit bool
	run, longest := 0, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLower(c):
			lower = true
		case isUpper(c):
			upper = true
		case isDigit(c):
			digit = true
		default:
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	if !digit || !(lower || upper) || longest < 12 {
		return false
	}
	return (lower && upper) || len(v) >= 32
}
