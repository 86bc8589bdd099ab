package secrets

import (
	"fmt"
	"strings"
)

// Kind names one kind of authentication material. The value is what appears
// inside a redaction placeholder ("[REDACTED:github-token]") and in reports.
type Kind string

// The kinds of secret the guard knows. The list is exhaustive: nothing else
// is ever reported.
const (
	// KindPrivateKey is a PEM or PGP private key block
	// ("-----BEGIN … PRIVATE KEY-----" through its END line), including
	// OPENSSH, RSA, EC, DSA, ENCRYPTED and PGP keys.
	KindPrivateKey Kind = "private-key"
	// KindAWSKey is an AWS access key id: AKIA or ASIA and 16 characters.
	KindAWSKey Kind = "aws-key"
	// KindAWSSecretKey is a 40-character AWS secret access key, reported only
	// when labelled aws_secret_access_key (the bare value is indistinguishable
	// from any other base64 string).
	KindAWSSecretKey Kind = "aws-secret-key"
	// KindAPIKey is an OpenAI-style key: "sk-…", including "sk-proj-…" and
	// other "sk-<scope>-…" forms.
	KindAPIKey Kind = "api-key"
	// KindGitHubToken is a GitHub token: ghp_, gho_, ghu_, ghs_ or ghr_ and 36
	// characters, or a fine-grained github_pat_….
	KindGitHubToken Kind = "github-token"
	// KindSlackToken is a Slack token: xoxa-, xoxb-, xoxp-, xoxr- or xoxs-….
	KindSlackToken Kind = "slack-token"
	// KindGoogleKey is a Google API key: AIza and 35 characters.
	KindGoogleKey Kind = "google-key"
	// KindJWT is a JSON Web Token: eyJ….eyJ….signature.
	KindJWT Kind = "jwt"
	// KindBearer is the token after "Bearer" in an Authorization header, or
	// after "Bearer" in text when it is long and random enough to be one.
	KindBearer Kind = "bearer"
	// KindURLCredentials is the password in scheme://user:password@host.
	KindURLCredentials Kind = "url-credentials"
	// KindPassword is the value of a "password: x"-style line (password,
	// passwd, passphrase, passcode, pass, pwd, 密码, パスワード as the key).
	KindPassword Kind = "password"
)

// Kinds returns every kind, most specific first. When two detectors report
// the same bytes, the kind earlier in this list wins, so a GitHub token
// written as "password: ghp_…" is reported as a github-token.
func Kinds() []Kind {
	return []Kind{
		KindPrivateKey, KindAWSKey, KindAWSSecretKey, KindGitHubToken,
		KindSlackToken, KindGoogleKey, KindAPIKey, KindJWT, KindBearer,
		KindURLCredentials, KindPassword,
	}
}

// Placeholder returns the text a secret of kind k is replaced with:
// "[REDACTED:k]". The placeholder itself never matches any detector, which is
// what makes Redact idempotent.
func Placeholder(k Kind) string { return "[REDACTED:" + string(k) + "]" }

// Finding is one secret found in a text. It deliberately holds no part of
// the secret beyond a masked Preview, so findings can be printed, logged and
// written to JSON reports safely.
type Finding struct {
	Kind Kind `json:"kind"`
	// Line and Col are 1-based. Col counts characters (Unicode code points),
	// not bytes, so it matches what an editor shows on lines with CJK text.
	Line int `json:"line"`
	Col  int `json:"col"`
	// Start and End are the byte offsets of the secret value only: for a
	// password line they cover "hunter2", not "password: hunter2"; for a URL
	// they cover the password between "user:" and "@host".
	Start int `json:"start"`
	End   int `json:"end"`
	// Preview is a masked hint such as "ghp_…a1b2": the public prefix of the
	// format and, for values of 20 characters or more, the last four. It is
	// "…" for passwords, URL credentials, AWS secret keys and private keys.
	Preview string `json:"preview"`
}

// String formats the finding as "line:col kind preview", e.g.
// "3:7 github-token ghp_…a1b2". It never contains the secret.
func (f Finding) String() string {
	return fmt.Sprintf("%d:%d %s %s", f.Line, f.Col, f.Kind, f.Preview)
}

// Scan returns the secrets in text, sorted by offset and non-overlapping.
// When two detections overlap they are merged into one finding covering both,
// so redacting the findings never leaves part of a secret behind.
func Scan(text string) []Finding {
	s := scanner{t: text}
	s.run()
	return s.findings()
}

// Contains reports whether text holds at least one secret. It stops at the
// first one, so it is the cheap check for "is there anything to redact".
func Contains(text string) bool {
	s := scanner{t: text, first: true}
	s.run()
	return len(s.found) > 0
}

// Redact returns text with every secret value replaced by Placeholder(kind),
// and the findings (offsets refer to the original text). Labels stay in
// place: "password: hunter2" becomes "password: [REDACTED:password]" and
// "https://ann:pw@host" becomes "https://ann:[REDACTED:url-credentials]@host".
//
// The output never holds a detectable secret, so redacting it again changes
// nothing. To guarantee that, Redact scans its own output: secrets glued
// together can hide each other ("AIza…-" directly followed by a GitHub
// token is too long to be a Google key until the token is replaced), so
// anything found in the output is mapped back onto the original text and
// redacted too. Redact may therefore report a finding that Scan does not.
func Redact(text string) (string, []Finding) {
	s := scanner{t: text}
	s.run()
	if len(s.found) == 0 {
		return text, nil
	}
	found := s.found
	fs := resolve(text, found)
	out := render(text, fs)
	// Each round covers more of the text, so this ends; the bound is a
	// guard, not a limit any real text reaches.
	for round := 0; round < 8; round++ {
		again := scanner{t: out}
		again.run()
		if len(again.found) == 0 {
			break
		}
		before := coverage(fs)
		for _, c := range again.found {
			found = append(found, candidate{mapBack(fs, c.start, false), mapBack(fs, c.end, true), c.kind})
		}
		fs = resolve(text, found)
		if coverage(fs) == before {
			break
		}
		out = render(text, fs)
	}
	return out, fs
}

// render replaces each finding's bytes with its placeholder.
func render(text string, fs []Finding) string {
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, f := range fs {
		b.WriteString(text[last:f.Start])
		b.WriteString(Placeholder(f.Kind))
		last = f.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// mapBack turns an offset in render(text, fs) into an offset in text. An
// offset inside a placeholder maps to the start of the secret it replaced,
// or to its end when end is set.
func mapBack(fs []Finding, pos int, end bool) int {
	delta := 0 // how much longer the output is than the text so far
	for _, f := range fs {
		ph := len(Placeholder(f.Kind))
		at := f.Start + delta
		if pos < at || end && pos == at {
			return pos - delta
		}
		if pos < at+ph || end && pos == at+ph {
			if end {
				return f.End
			}
			return f.Start
		}
		delta += ph - (f.End - f.Start)
	}
	return pos - delta
}

// coverage is the number of bytes the findings cover.
func coverage(fs []Finding) int {
	n := 0
	for _, f := range fs {
		n += f.End - f.Start
	}
	return n
}
