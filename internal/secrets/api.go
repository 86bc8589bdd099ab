package secrets

import (
	"fmt"
	"strings"
)

// Kind names one kind of authentication material. The value is what appears
// inside a redaction placeholder ("[REDACTED:github-token]") and in reports.
type Kind string

// The kinds of secret the guard knows. The list is exhaustive: nothing else
// is ever reported. A kind is a family; the rule that found a secret
// (Finding.Rule) names its exact format.
const (
	// KindPrivateKey is a PEM, OpenSSH or PGP private key block
	// ("-----BEGIN … PRIVATE KEY-----" through its END line), including
	// OPENSSH, RSA, EC, DSA, ENCRYPTED and PGP keys, inside list items,
	// quotes, comments and JSON strings too.
	KindPrivateKey Kind = "private-key"
	// KindAWSKey is an AWS access key id: AKIA, ASIA, ABIA, ACCA or A3T and
	// 16 characters.
	KindAWSKey Kind = "aws-key"
	// KindAWSSecretKey is a 40-character AWS secret access key, reported
	// when labelled aws_secret_access_key or written near its access key id
	// (the bare value is indistinguishable from any other base64 string).
	KindAWSSecretKey Kind = "aws-secret-key"
	// KindGitHubToken is a GitHub token: ghp_, gho_, ghu_, ghs_ or ghr_ and 36
	// characters, or a fine-grained github_pat_….
	KindGitHubToken Kind = "github-token"
	// KindSlackToken is a Slack token: xoxa-, xoxb-, xoxp-, xoxr-, xoxs-,
	// xoxe- or xapp-….
	KindSlackToken Kind = "slack-token"
	// KindGoogleKey is a Google API key: AIza and 35 characters.
	KindGoogleKey Kind = "google-key"
	// KindAPIKey is an API key or access token of a known service: OpenAI
	// and Anthropic "sk-…" keys and every service of gitleaks' rule set
	// (Stripe, Twilio, SendGrid, Hugging Face, npm, PyPI, Azure, Telegram …).
	KindAPIKey Kind = "api-key"
	// KindJWT is a JSON Web Token: eyJ….eyJ….signature.
	KindJWT Kind = "jwt"
	// KindBearer is the token after "Bearer" in an Authorization header, or
	// after "Bearer" in text when it is long and random enough to be one;
	// also the credentials of an Authorization header in any other scheme
	// (Basic, token, Bot …) or with none.
	KindBearer Kind = "bearer"
	// KindWebhookURL is the secret part of an incoming-webhook URL (Slack,
	// Discord, Microsoft Teams), which anyone can post with.
	KindWebhookURL Kind = "webhook-url"
	// KindURLCredentials is the password in scheme://user:password@host.
	KindURLCredentials Kind = "url-credentials"
	// KindPassword is a password: the value of a "password: x"-style line
	// (password, passwd, passphrase, passcode, pass, pwd, 密码, パスワード …
	// as the key) or of a command's password flag (mysql -pSECRET,
	// sshpass -p SECRET).
	KindPassword Kind = "password"
	// KindSecret is a random-looking value assigned to a key that names a
	// credential ("API token: …", "client_secret = …", SESSION_SECRET=… in
	// a .env file): gitleaks' generic-api-key rule.
	KindSecret Kind = "secret"
)

// kinds is every kind, most specific first.
var kinds = [...]Kind{
	KindPrivateKey, KindAWSKey, KindAWSSecretKey, KindGitHubToken,
	KindSlackToken, KindGoogleKey, KindAPIKey, KindJWT, KindBearer,
	KindWebhookURL, KindURLCredentials, KindPassword, KindSecret,
}

// Kinds returns every kind, most specific first. When two detectors report
// the same bytes, the kind earlier in this list wins, so a GitHub token
// written as "password: ghp_…" is reported as a github-token.
func Kinds() []Kind { return append([]Kind(nil), kinds[:]...) }

// Placeholder returns the text a secret of kind k is replaced with:
// "[REDACTED:k]". The placeholder itself never matches any detector, which is
// what makes Redact idempotent.
func Placeholder(k Kind) string { return "[REDACTED:" + string(k) + "]" }

// Finding is one secret found in a text. It deliberately holds no part of
// the secret beyond a masked Preview, so findings can be printed, logged and
// written to JSON reports safely.
type Finding struct {
	Kind Kind `json:"kind"`
	// Rule names the detector that found the secret: a gitleaks rule id
	// such as "stripe-access-token" for the rules carried over from
	// gitleaks, or one of the guard's own ("password", "keyword-secret" …).
	Rule string `json:"rule"`
	// Line and Col are 1-based. Col counts characters (Unicode code points),
	// not bytes, so it matches what an editor shows on lines with CJK text.
	Line int `json:"line"`
	Col  int `json:"col"`
	// Start and End are the byte offsets of the secret value only: for a
	// password line they cover "hunter2", not "password: hunter2"; for a URL
	// they cover the password between "user:" and "@host". A private key
	// or a secret split over two lines spans several lines.
	Start int `json:"start"`
	End   int `json:"end"`
	// Preview is a masked hint such as "ghp_…a1b2": the public prefix of the
	// format and, for values of 20 characters or more, the last four. It is
	// "…" for passwords, generic secrets, URL credentials, AWS secret keys
	// and private keys.
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
// Redaction keeps the text's lines: the output has exactly as many lines as
// the input, so line numbers and citations (path#L10-L12) stay valid. A
// secret spanning lines (a private key block, a token split over two list
// items) becomes its placeholder on its first line; each following line it
// covered keeps only its indentation, quote and list markers.
//
// The output never holds a detectable secret, so redacting it again changes
// nothing. To guarantee that, Redact scans its own output: secrets glued
// together can hide each other ("AIza…-" directly followed by a GitHub
// token is too long to be a Google key until the token is replaced), so
// anything found in the output is mapped back onto the original text and
// redacted too. Redact may therefore report a finding that Scan does not.
func Redact(text string) (string, []Finding) { return Guard{}.Redact(text) }

// Guard says what a redaction covers: credentials always, and personal
// data (phone numbers, e-mail addresses, street addresses; see
// ScanPersonal) when Personal is set. The zero Guard is what Redact and
// RedactName use.
type Guard struct {
	Personal bool
}

// Redact is the package's Redact, covering what g covers.
func (g Guard) Redact(text string) (string, []Finding) {
	return redact(text, Placeholder, g.scan(text), g)
}

// scan returns the raw detections of what g covers in t.
func (g Guard) scan(t string) []candidate {
	s := scanner{t: t}
	s.run()
	if g.Personal {
		s.found = append(s.found, scanPersonal(t)...)
	}
	return s.found
}

// RedactName redacts a short string that becomes part of a path: a file
// name, a path, a slug, a title or a URL. It runs the same detectors as
// Redact, with the dot of a file extension ending a token as a blank would
// ("sk_live_….md"), and a secret becomes NamePlaceholder(kind), since the
// brackets and colon of "[REDACTED:kind]" are not allowed in file names on
// Windows and break Obsidian links. Call it on the original name, before
// any slug is made from it: a slug lower-cases the text, and a lower-cased
// secret ("akia…") no longer has the shape the detectors know.
func RedactName(name string) (string, []Finding) { return Guard{}.RedactName(name) }

// RedactName is the package's RedactName, covering what g covers.
func (g Guard) RedactName(name string) (string, []Finding) {
	found := g.scan(name)
	// The dot of a file extension ends a token in a name as a blank does
	// in text ("sk_live_….md"), so the name is also scanned with a blank
	// there; both scans' findings are redacted.
	if dot := strings.LastIndexByte(name, '.'); dot > 0 && isExtension(name[dot+1:]) {
		found = append(found, g.scan(name[:dot]+" "+name[dot+1:])...)
	}
	return redact(name, NamePlaceholder, found, g)
}

// NamePlaceholder returns the file-name-safe form of Placeholder(k):
// "redacted-" + k, only lower-case letters and '-'. It is what dreamwiki's
// file and URL slugs (site, dream and provenance) make of Placeholder(k):
// "[REDACTED:api-key]" slugs to "redacted-api-key", so a name redacted
// before slugging and a slug made from a redacted title read the same.
// (Heading ids drop the brackets and colon without a dash:
// "redactedapi-key".) It never matches any detector.
func NamePlaceholder(k Kind) string { return "redacted-" + string(k) }
