package secrets

import "strings"

// tokenTriggers registers the hand-written token formats. They find what
// gitleaks' rules for the same services find and more: OpenAI-style keys of
// any scope, legacy Slack tokens, JWTs with short parts, bearer tokens in
// prose, and an AWS secret key written near its key id without a label.
func tokenTriggers() []trigger {
	var ts []trigger
	for _, p := range []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"} {
		ts = append(ts, trigger{p, awsKey})
	}
	ts = append(ts,
		trigger{"AIza", wordToken(KindGoogleKey, "google-api-key", googleKey)},
		trigger{"aws_secret_access_key", labelledAWSSecret},
		trigger{"sk-", wordToken(KindAPIKey, "sk-api-key", openAIKey)},
		trigger{"eyJ", wordToken(KindJWT, "jwt", jwt)},
		trigger{"bearer", wordToken(KindBearer, "bearer", bearer)},
		trigger{"github_pat_", wordToken(KindGitHubToken, "github-token", gitHubToken)},
	)
	for _, p := range []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"} {
		ts = append(ts, trigger{p, wordToken(KindGitHubToken, "github-token", gitHubToken)})
	}
	for _, p := range []string{"xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"} {
		ts = append(ts, trigger{p, wordToken(KindSlackToken, "slack-token", slackToken)})
	}
	return ts
}

// wordToken turns a format matcher into a detector for keywords that must
// start a word.
func wordToken(k Kind, rule string, match func(t string, i int) (start, end int)) func(*scanner, int, int) bool {
	return func(s *scanner, at, _ int) bool {
		if !wordStart(s.t, at) {
			return false
		}
		start, end := match(s.t, at)
		return end > 0 && s.add(start, end, k, rule)
	}
}

// awsKey finds an AWS access key id (AKIA, ASIA, ABIA or ACCA + 16, or A3T
// + 17, of [A-Z0-9]) and, near it, its secret key. An id ending in
// EXAMPLE is AWS's documentation example (AKIAIOSFODNN7EXAMPLE), as
// gitleaks' allowlist says.
func awsKey(s *scanner, at, end int) bool {
	t := s.t
	upperOrDigit := func(c byte) bool { return isUpper(c) || isDigit(c) }
	if !wordStart(t, at) || span(t, at, upperOrDigit) < end {
		return false // "Asia", "akia"
	}
	e := span(t, end, upperOrDigit)
	if e-at != 20 || e < len(t) && (isAlnum(t[e]) || t[e] == '_') || strings.HasSuffix(t[at:e], "EXAMPLE") {
		return false
	}
	if s.add(at, e, KindAWSKey, "aws-access-key-id") {
		return true
	}
	if ss, se := awsSecretNear(t, at, e); se > 0 {
		return s.add(ss, se, KindAWSSecretKey, "aws-secret-near-key-id")
	}
	return false
}

// awsSecretNear looks for the secret access key that belongs to the key
// id at [id, idEnd): a 40-character base64 word with upper- and lower-case
// letters and a digit, on the id's line or one of the two lines after it.
// People paste the pair together ("AKIA… / wJalr…", a table row, two list
// items); the same word anywhere else is just base64.
func awsSecretNear(t string, id, idEnd int) (start, end int) {
	ls, _ := lineStart(t, id, 512)
	le := idEnd
	for n := 0; n < 3 && le < len(t); n++ {
		le = lineEnd(t, le+1, 1024)
	}
	if n := lineEnd(t, idEnd, 1024); le < n {
		le = n
	}
	isSecretByte := func(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }
	for i := ls; i < le; {
		if !isSecretByte(t[i]) || i > ls && isSecretByte(t[i-1]) {
			i++
			continue
		}
		e := span(t, i, isSecretByte)
		if e-i == 40 && (e == len(t) || t[e] != '=' && !isSecretByte(t[e])) && awsSecretShape(t[i:e]) {
			return i, e
		}
		i = e
	}
	return 0, 0
}

// awsSecretShape reports whether v looks like an AWS secret access key:
// random base64 with both letter cases and a digit.
func awsSecretShape(v string) bool {
	var lower, upper, digit bool
	for i := 0; i < len(v); i++ {
		lower = lower || isLower(v[i])
		upper = upper || isUpper(v[i])
		digit = digit || isDigit(v[i])
	}
	return lower && upper && digit && entropy(v) > 4
}

// googleKey matches a Google API key: AIza and 35 of [A-Za-z0-9_-].
func googleKey(t string, i int) (start, end int) {
	if !strings.HasPrefix(t[i:], "AIza") {
		return 0, 0
	}
	e := span(t, i+4, isURLSafe)
	if e-(i+4) != 35 {
		return 0, 0
	}
	return i, e
}

// labelledAWSSecret finds the value of an aws_secret_access_key label.
func labelledAWSSecret(s *scanner, at, _ int) bool {
	if !wordStart(s.t, at) && s.t[at-1] != '_' {
		return false
	}
	start, end := awsSecret(s.t, at)
	return end > 0 && s.add(start, end, KindAWSSecretKey, "aws-secret-access-key")
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
	if maskOnly(v) || redacted(v) {
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
