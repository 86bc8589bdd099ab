package secrets

import (
	"regexp"
	"strings"
	"sync"
)

// generic-api-key is gitleaks' catch-all rule: a key naming a credential
// (access, api, auth, credential, creds, key, secret, token; passwords are
// password.go's), an operator, and a value of 10 to 150 bytes whose
// Shannon entropy exceeds 3.5, unless an allowlist recognises a name made
// of words, a reference or an example. It is ported by hand rather than
// run as gitleaks' regular expression, which would run on every line that
// mentions a token: assignment (assign.go) reads the same shape, and
// Markdown labels ("**API token:** …", table cells, CJK labels such as
// 令牌：…) come with it.
//
// envSecret is the one place the guard is laxer than gitleaks: a .env
// line says what it holds, so SESSION_SECRET=… needs less entropy.

// genericKeywords are generic-api-key's keywords, less the password ones.
var genericKeywords = []string{"access", "api", "auth", "credential", "creds", "key", "secret", "token"}

// cjkSecretLabels name tokens and keys in Chinese, Japanese and Korean
// notes ("令牌：…", "API密钥：…").
var cjkSecretLabels = []string{"令牌", "密钥", "密鑰", "秘钥", "秘鑰", "トークン", "토큰"}

// genericTriggers registers generic-api-key and envSecret.
func genericTriggers() []trigger {
	var ts []trigger
	for _, k := range genericKeywords {
		ts = append(ts, trigger{k, genericSecret})
	}
	for _, k := range cjkSecretLabels {
		ts = append(ts, trigger{k, genericSecret})
	}
	return ts
}

// genericSecret finds the value assigned to a key holding the keyword at
// [at, end).
func genericSecret(s *scanner, at, end int) bool {
	t := s.t
	if kw := t[at:end]; end-at == 3 && kw[1]|0x20 == 'p' && kw != "api" && kw != "Api" && kw != "API" {
		return false // gitleaks: (?-i:[Aa]pi|API)
	}
	if vs, ve := envSecret(t, at, end); ve > 0 {
		return s.add(vs, ve, KindSecret, "env-secret")
	}
	_, vs := assignment(t, end)
	if vs < 0 {
		return false
	}
	ve := genericValue(t, vs)
	if ve < 0 {
		return false
	}
	v := t[vs:ve]
	if lettersOnly(v) || entropy(v) <= 3.5 || genericStopwordsAuto().contains(v) || allowed(v) {
		return false
	}
	ks := at
	for ks > 0 && at-ks < 50 && (isWord(t[ks-1]) || t[ks-1] == '.' || t[ks-1] == '-') {
		ks--
	}
	if genericAllow().MatchString(t[ks:ve]) {
		return false
	}
	ls, _ := lineStart(t, at, maxLine)
	if genericLineAllow().MatchString(t[ls:lineEnd(t, ve, maxLine)]) {
		return false
	}
	return s.add(vs, ve, KindSecret, "generic-api-key")
}

// genericValue returns the end of the value starting at vs, or -1. As in
// gitleaks the value is [\w.=-]{10,150} or base64 of 12 or more
// characters; a full stop ending a sentence is not part of it.
func genericValue(t string, vs int) int {
	// Bounded reads: a value longer than these is not one, and an
	// unbounded span would make a long line of keywords quadratic.
	e := span(t[:min(len(t), vs+152)], vs, func(c byte) bool { return isWord(c) || c == '.' || c == '=' || c == '-' })
	for e > vs && t[e-1] == '.' && (e == len(t) || isSpace(t[e])) {
		e--
	}
	if n := e - vs; n >= 10 && n <= 150 && valueEnd(t, e) {
		return e
	}
	if vs < len(t) && isAlnum(t[vs]) {
		e = span(t[:min(len(t), vs+maxLine)], vs, func(c byte) bool { return isAlnum(c) || c == '+' || c == '/' })
		for p := 0; p < 3 && e < len(t) && t[e] == '='; p++ {
			e++
		}
		if e-vs >= 12 && valueEnd(t, e) {
			return e
		}
	}
	return -1
}

// lettersOnly is generic-api-key's first allowlist, ^[a-zA-Z_.-]+$: a
// value without a digit is a name ("my-backend-service").
func lettersOnly(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isLower(c) && !isUpper(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

var genericStopwordsAuto = sync.OnceValue(func() *automaton { return newAutomaton(genericStopwords) })

// genericAllow is generic-api-key's allowlist on the whole match, key and
// value: keys that name something other than a secret (access_id,
// api_version, keyboard, public_key, csrf_token, token_url …).
var genericAllow = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:access(?:ibility|or)|access[_.-]?id|random[_.-]?access|api[_.-]?(?:id|name|version)|rapid|capital|[a-z0-9-]*?api[a-z0-9-]*?:jar:|author|X-MS-Exchange-Organization-Auth|Authentication-Results|(?:credentials?[_.-]?id|withCredentials)|(?:bucket|foreign|hot|idx|natural|primary|pub(?:lic)?|schema|sequence)[_.-]?key|(?:turkey)|key[_.-]?(?:alias|board|code|frame|id|length|mesh|name|pair|press(?:ed)?|ring|selector|signature|size|stone|storetype|word|up|down|left|right)|key[_.-]?vault[_.-]?(?:id|name)|keyVaultToStoreSecrets|key(?:store|tab)[_.-]?(?:file|path)|issuerkeyhash|(?-i:[DdMm]onkey|[DM]ONKEY)|keying|(?:secret)[_.-]?(?:length|name|size)|UserSecretsId|(?:csrf)[_.-]?token|(?:io\.jsonwebtoken[ \t]?:[ \t]?[\w-]+)|(?:api|credentials|token)[_.-]?(?:endpoint|ur[il])|public[_.-]?token|(?:key|token)[_.-]?file|(?-i:(?:[A-Z_]+=\n[A-Z_]+=|[a-z_]+=\n[a-z_]+=)(?:\n|\z))|(?-i:(?:[A-Z.]+=\n[A-Z.]+=|[a-z.]+=\n[a-z.]+=)(?:\n|\z)))`)
})

// genericLineAllow is generic-api-key's allowlist on the line: Docker
// build secrets and JavaScript imports name secrets without holding them.
var genericLineAllow = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`--mount=type=secret,|import[ \t]+{[ \t\w,]+}[ \t]+from[ \t]+['"][^'"]+['"]`)
})

// envNotSecret are the parts of an environment variable name that say it
// holds something other than a secret: STRIPE_PUBLISHABLE_KEY,
// AWS_ACCESS_KEY_ID, API_TOKEN_TTL, JWT_SECRET_PATH.
var envNotSecret = map[string]bool{
	"ID": true, "IDS": true, "NAME": true, "URL": true, "URI": true, "PATH": true, "FILE": true,
	"DIR": true, "REGION": true, "ENDPOINT": true, "HOST": true, "PORT": true, "USER": true,
	"USERNAME": true, "EMAIL": true, "VERSION": true, "TYPE": true, "MODE": true, "ENABLED": true,
	"TTL": true, "EXPIRY": true, "EXPIRES": true, "TIMEOUT": true, "LENGTH": true, "SIZE": true,
	"COUNT": true, "LIMIT": true, "PUBLIC": true, "PUB": true, "PUBLISHABLE": true, "HEADER": true,
	"PREFIX": true, "ISSUER": true, "AUDIENCE": true, "ALGORITHM": true, "ALG": true, "FORMAT": true,
	"MAX": true, "MIN": true, "BUDGET": true, "HASH": true, "FINGERPRINT": true, "ARN": true,
}

// envSecret finds the value of a .env-style assignment whose upper-case
// key holds the keyword at [at, end): KEY=value, in a .env file, after
// "export" or "docker run -e", or quoted in prose; the value bare or quoted. The
// value must not be a placeholder or a reference (notAPassword), must
// have two character classes, 8 or more bytes and an entropy above 3.
func envSecret(t string, at, end int) (start, stop int) {
	keyByte := func(c byte) bool { return isUpper(c) || isDigit(c) || c == '_' }
	if span(t, at, keyByte) < end {
		return 0, 0 // the keyword is not upper-case
	}
	ks, ke := at, span(t, end, keyByte)
	for ks > 0 && keyByte(t[ks-1]) {
		ks--
	}
	if ke >= len(t) || t[ke] != '=' || ks == ke || isDigit(t[ks]) {
		return 0, 0
	}
	if ks > 0 && (isWord(t[ks-1]) || strings.IndexByte(".-$", t[ks-1]) >= 0) {
		return 0, 0 // part of a longer name
	}
	for key := t[ks:ke]; key != ""; {
		part, rest, _ := strings.Cut(key, "_")
		if envNotSecret[part] {
			return 0, 0
		}
		key = rest
	}
	vs, quoted := ke+1, false
	le := lineEnd(t, vs, maxLine)
	ve := vs
	if vs < le && (t[vs] == '"' || t[vs] == '\'') {
		c := strings.IndexByte(t[vs+1:le], t[vs])
		if c < 0 {
			return 0, 0
		}
		vs, ve, quoted = vs+1, vs+1+c, true
	} else {
		for ve < le && !isSpace(t[ve]) {
			ve++
		}
	}
	v := t[vs:ve]
	if len(v) < 8 || len(v) > 256 || notAPassword(v, quoted) || allowed(v) || charClasses(v) < 2 || entropy(v) <= 3 {
		return 0, 0
	}
	return vs, ve
}

// charClasses counts the classes (lower, upper, digit, other) v holds.
func charClasses(v string) int {
	var has [4]bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case isLower(c):
			has[0] = true
		case isUpper(c):
			has[1] = true
		case isDigit(c):
			has[2] = true
		default:
			has[3] = true
		}
	}
	n := 0
	for _, h := range has {
		if h {
			n++
		}
	}
	return n
}
