package secrets

import "strings"

// Each detector below is called at a trigger position i and returns the byte
// offsets of the secret value, or end == 0 when there is none. Detectors
// only look forward from i, except for the short look-behinds documented on
// bearer and urlCredentials.

// awsOrGoogle matches an AWS access key id (AKIA/ASIA + 16 of [A-Z0-9]) or a
// Google API key (AIza + 35 of [A-Za-z0-9_-]) at i.
func awsOrGoogle(t string, i int) (start, end int, k Kind) {
	r := t[i:]
	switch {
	case strings.HasPrefix(r, "AKIA") || strings.HasPrefix(r, "ASIA"):
		e := span(t, i+4, func(c byte) bool { return isUpper(c) || isDigit(c) })
		if e-(i+4) == 16 && (e == len(t) || !isAlnum(t[e]) && t[e] != '_') {
			return i, e, KindAWSKey
		}
	case strings.HasPrefix(r, "AIza"):
		e := span(t, i+4, isURLSafe)
		if e-(i+4) == 35 {
			return i, e, KindGoogleKey
		}
	}
	return 0, 0, ""
}

// awsSecret matches "aws_secret_access_key" (any case) followed by ':' or
// '=' and a 40-character base64 value, as written in ~/.aws/credentials,
// environment files, YAML and JSON.
func awsSecret(t string, i int) (start, end int) {
	const label = "aws_secret_access_key"
	if !hasPrefixFold(t[i:], label) {
		return 0, 0
	}
	j := i + len(label)
	if j < len(t) && t[j] == '"' || j < len(t) && t[j] == '\'' {
		j++
	}
	j = skipBlanks(t, j)
	switch {
	case strings.HasPrefix(t[j:], ":="), strings.HasPrefix(t[j:], "=>"):
		j += 2
	case j < len(t) && (t[j] == ':' || t[j] == '='):
		j++
	default:
		return 0, 0
	}
	j = skipBlanks(t, j)
	if j < len(t) && (t[j] == '"' || t[j] == '\'') {
		j++
	}
	e := span(t, j, isBase64)
	if e-j != 40 {
		return 0, 0
	}
	return j, e
}

// openAIKey matches "sk-" followed by a random-looking body of at least 20
// characters ("sk-proj-…", "sk-ant-…" included). The body test keeps
// hyphenated words such as "sk-learn-tutorial-2" out.
func openAIKey(t string, i int) (start, end int) {
	if !strings.HasPrefix(t[i:], "sk-") {
		return 0, 0
	}
	e := span(t, i+3, isURLSafe)
	body := t[i+3 : e]
	if len(body) < 20 || !looksRandom(body) {
		return 0, 0
	}
	return i, e
}

// gitHubToken matches ghp_/gho_/ghu_/ghs_/ghr_ + exactly 36 alphanumerics, and
// fine-grained "github_pat_" tokens.
func gitHubToken(t string, i int) (start, end int) {
	r := t[i:]
	if strings.HasPrefix(r, "github_pat_") {
		e := span(t, i+11, func(c byte) bool { return isAlnum(c) || c == '_' })
		if e-(i+11) >= 30 && (e == len(t) || t[e] != '-') {
			return i, e
		}
		return 0, 0
	}
	if len(r) < 4 || r[0] != 'g' || r[1] != 'h' || r[3] != '_' || !strings.ContainsRune("pousr", rune(r[2])) {
		return 0, 0
	}
	e := span(t, i+4, isAlnum)
	if e-(i+4) != 36 || e < len(t) && (t[e] == '_' || t[e] == '-') {
		return 0, 0
	}
	return i, e
}

// slackToken matches xoxa-, xoxb-, xoxp-, xoxr- and xoxs- tokens: the prefix
// and at least ten characters of digits, letters and dashes, with a digit.
func slackToken(t string, i int) (start, end int) {
	r := t[i:]
	if len(r) < 5 || !strings.HasPrefix(r, "xox") || !strings.ContainsRune("abprs", rune(r[3])) || r[4] != '-' {
		return 0, 0
	}
	e := span(t, i+5, func(c byte) bool { return isAlnum(c) || c == '-' })
	for e > i+5 && t[e-1] == '-' {
		e--
	}
	body := t[i+5 : e]
	if len(body) < 10 || !strings.ContainsAny(body, "0123456789") {
		return 0, 0
	}
	return i, e
}

// jwt matches header.payload.signature where header and payload are
// base64url JSON objects (so both start "eyJ", the encoding of `{"`) of at
// least ten characters. The signature may be empty (unsigned tokens).
func jwt(t string, i int) (start, end int) {
	if !strings.HasPrefix(t[i:], "eyJ") {
		return 0, 0
	}
	p1 := span(t, i, isURLSafe)
	if p1-i < 10 || p1 >= len(t) || t[p1] != '.' || !strings.HasPrefix(t[p1+1:], "eyJ") {
		return 0, 0
	}
	p2 := span(t, p1+1, isURLSafe)
	if p2-(p1+1) < 10 || p2 >= len(t) || t[p2] != '.' {
		return 0, 0
	}
	return i, span(t, p2+1, isURLSafe)
}

// isTokenChar is the token68 alphabet of RFC 6750 bearer tokens.
func isTokenChar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("-._~+/=", c) >= 0
}

// bearer matches "Bearer <token>" (any case). After "Authorization:" on the
// same line any non-placeholder token of 8 or more characters counts; in
// running text the token must also look random, so "the bearer of bad news"
// and "Bearer token" never match. The look-behind is bounded to the line.
func bearer(t string, i int) (start, end int) {
	if !hasPrefixFold(t[i:], "bearer") {
		return 0, 0
	}
	j := i + len("bearer")
	if j >= len(t) || t[j] != ' ' && t[j] != '\t' {
		return 0, 0
	}
	j = skipBlanks(t, j)
	e := span(t, j, isTokenChar)
	for e > j && (t[e-1] == '.' || t[e-1] == ',') {
		e--
	}
	tok := t[j:e]
	if len(tok) < 8 || placeholderToken(tok) {
		return 0, 0
	}
	ls, _ := lineStart(t, i, 256)
	if !containsFold(t[ls:i], "authorization") && (len(tok) < 20 || !looksRandom(tok)) {
		return 0, 0
	}
	return j, e
}

// placeholderToken reports tokens that stand for a secret without being one:
// environment variable names (YOUR_API_TOKEN), masks (xxxxxxxx, ********) and
// the word "token" itself.
func placeholderToken(v string) bool {
	if maskOnly(v) {
		return true
	}
	envLike := strings.IndexByte(v, '_') >= 0
	for i := 0; i < len(v) && envLike; i++ {
		envLike = isUpper(v[i]) || isDigit(v[i]) || v[i] == '_'
	}
	if envLike {
		return true
	}
	switch strings.ToLower(v) {
	case "token", "tokens", "<token>", "access_token", "accesstoken", "your-token", "your_token", "yourtoken":
		return true
	}
	return false
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

// containsFold is strings.Contains ignoring ASCII case; sub must be lower-case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// skipBlanks skips spaces and tabs (never newlines).
func skipBlanks(t string, j int) int {
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	return j
}

// urlCredentials matches the password in scheme://user:password@host. i is
// the ':' of "://". The look-behind walks back over the scheme only; the
// look-ahead is bounded to the authority (at most 512 bytes) so a long run of
// text after "://" cannot make the scan quadratic.
func urlCredentials(t string, i int) (start, end int) {
	k := i
	for k > 0 && (isAlnum(t[k-1]) || t[k-1] == '+' || t[k-1] == '.' || t[k-1] == '-') {
		k--
	}
	if k == i || !isLower(t[k]) && !isUpper(t[k]) {
		return 0, 0
	}
	a := i + 3
	ae := a
	for ae < len(t) && ae-a <= 512 && strings.IndexByte("/?# \t\r\n<>\"'`\\", t[ae]) < 0 {
		ae++
	}
	if ae-a > 512 {
		return 0, 0
	}
	at := strings.LastIndexByte(t[a:ae], '@')
	if at < 0 || a+at+1 == ae {
		return 0, 0
	}
	colon := userColon(t[a : a+at])
	if colon < 0 {
		return 0, 0 // user@host: no password
	}
	ps, pe := a+colon+1, a+at
	if ps == pe || placeholderURLPassword(t[ps:pe]) {
		return 0, 0
	}
	return ps, pe
}

// userColon returns the offset of the ':' that separates user from password
// in a URL's userinfo, skipping colons inside [...] so that a user name that
// was itself redacted ("[REDACTED:aws-key]") is not split in two.
func userColon(userinfo string) int {
	depth := 0
	for i := 0; i < len(userinfo); i++ {
		switch userinfo[i] {
		case '[':
			depth++
		case ']':
			depth = max(0, depth-1)
		case ':':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// placeholderURLPassword reports passwords in URLs that are documentation
// placeholders or already redacted: $PASS, ${PASS}, <password>, {password},
// %s, ****, the words password/pass/token themselves, and anything holding
// a redaction placeholder.
func placeholderURLPassword(p string) bool {
	switch p[0] {
	case '$', '<', '{', '[':
		return true
	}
	if p == "%s" || strings.HasPrefix(p, "%(") || maskOnly(p) || strings.Contains(p, "[REDACTED:") {
		return true
	}
	switch strings.ToLower(p) {
	case "password", "pass", "passwd", "pwd", "token", "pw":
		return true
	}
	return false
}

// privateKey matches a private key block starting at i ("-----BEGIN ").
// The block runs to its END line; when the END line is missing (a truncated
// paste) it runs to the end of the base64 body. Lines may carry a blockquote
// or comment prefix ("> ", "# ", "// "), and a key written on one line with
// literal "\n" escapes (as in a JSON service-account file) is handled too.
// A header with no body (a mention in prose) is not a secret.
func privateKey(t string, i int) (start, end int) {
	const begin = "-----BEGIN "
	hdr := t[i+len(begin) : min(len(t), i+len(begin)+64)]
	closeAt := strings.Index(hdr, "-----")
	if closeAt < 0 || !strings.Contains(hdr[:closeAt], "PRIVATE KEY") || strings.IndexByte(hdr[:closeAt], '\n') >= 0 {
		return 0, 0
	}
	bodyStart := i + len(begin) + closeAt + len("-----")
	const minBody = 32 // base64 characters; real keys have hundreds
	he := skipBlanks(t, bodyStart)
	if he < len(t) && t[he] == '\r' {
		he++
	}
	if he < len(t) && t[he] != '\n' {
		// One-line form: the body runs on ("\nMIIE…\n-----END …-----").
		e := span(t, bodyStart, func(c byte) bool { return isBase64(c) || c == '\\' })
		if base64Count(t[bodyStart:e]) < minBody {
			return 0, 0
		}
		if tail := t[e:min(len(t), e+64)]; strings.HasPrefix(tail, "-----END ") {
			rest := tail[len("-----END "):]
			if c := strings.Index(rest, "-----"); c >= 0 && strings.Contains(rest[:c], "PRIVATE KEY") {
				return i, e + len("-----END ") + c + len("-----")
			}
		}
		return i, e
	}
	// PEM bodies are lines of equal length with a shorter last line; once a
	// short line is seen only the END line may follow, which keeps a
	// truncated key from swallowing the next line of prose.
	body, lastBody, blanks, width, closed := 0, he, 0, 0, false
	for pos := he + 1; pos < len(t); {
		le := strings.IndexByte(t[pos:], '\n')
		if le < 0 {
			le = len(t)
		} else {
			le += pos
		}
		line := t[pos:le]
		lead := len(line) - len(strings.TrimLeft(line, " \t>#/*"))
		trimmed := strings.TrimRight(line[lead:], " \t\r")
		switch {
		case strings.HasPrefix(trimmed, "-----END "):
			tail := trimmed[len("-----END "):]
			c := strings.Index(tail, "-----")
			if c < 0 || !strings.Contains(tail[:c], "PRIVATE KEY") || body < minBody {
				return 0, 0
			}
			return i, pos + lead + len("-----END ") + c + len("-----")
		case trimmed == "":
			if blanks++; blanks > 1 {
				pos = len(t)
				continue
			}
		case !closed && allBase64(trimmed) && (width == 0 || len(trimmed) <= width):
			if width == 0 {
				width = len(trimmed)
			} else if len(trimmed) < width {
				closed = true
			}
			body += len(trimmed)
			lastBody, blanks = le, 0
		case body == 0 && isArmorHeader(trimmed):
			lastBody, blanks = le, 0
		default:
			pos = len(t)
			continue
		}
		pos = le + 1
	}
	if body < minBody {
		return 0, 0
	}
	return i, lastBody
}

func allBase64(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isBase64(s[i]) {
			return false
		}
	}
	return true
}

func base64Count(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isBase64(s[i]) {
			n++
		}
	}
	return n
}

// isArmorHeader matches PEM and PGP armor headers ("Proc-Type: 4,ENCRYPTED",
// "DEK-Info: …", "Version: GnuPG v2", "Comment: …").
func isArmorHeader(s string) bool {
	c := strings.Index(s, ": ")
	if c <= 0 {
		return false
	}
	for i := 0; i < c; i++ {
		if !isAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}
