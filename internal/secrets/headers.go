package secrets

import "strings"

// HTTP headers that carry a credential, as notes keep them from curl
// commands, browser dev tools and API docs: the credentials of an
// Authorization header in every scheme (bearer.go's "Bearer" aside), and
// cookie values, which are session tokens.

// headerTriggers registers the header detectors.
func headerTriggers() []trigger {
	return []trigger{
		{"authorization", authorizationHeader},
		{"cookie", cookieHeader},
	}
}

// headerValue returns where the value of the header or key whose name
// ends at end starts: after an optional closing quote, ':' or '=', blanks
// and an opening quote; -1 when no separator follows.
func headerValue(t string, end int) int {
	j := end
	if j < len(t) && (t[j] == '"' || t[j] == '\'') {
		j++
	}
	j = skipBlanks(t, j)
	if j >= len(t) || t[j] != ':' && t[j] != '=' {
		return -1
	}
	j = skipBlanks(t, j+1)
	if j < len(t) && (t[j] == '"' || t[j] == '\'') {
		j++
	}
	return skipBlanks(t, j)
}

// authorizationHeader finds the credentials of "Authorization: <scheme>
// <credentials>": Basic (base64 of user:password), token, Bot, ApiKey,
// sso-key and the like, and a bare key with no scheme when it looks
// random. "Bearer" is the bearer detector's.
func authorizationHeader(s *scanner, at, end int) bool {
	t := s.t
	if at > 0 && isAlnum(t[at-1]) {
		return false
	}
	j := headerValue(t, end)
	if j < 0 {
		return false
	}
	w := span(t, j, func(c byte) bool { return isAlnum(c) || c == '-' })
	scheme := strings.ToLower(t[j:w])
	switch scheme {
	case "bearer", "digest", "negotiate", "ntlm":
		return false
	case "basic":
		vs := skipBlanks(t, w)
		if vs == w {
			return false
		}
		ve := span(t[:min(len(t), vs+1024)], vs, isBase64)
		v := t[vs:ve]
		if len(v) < 8 || !valueEnd(t, ve) || placeholderToken(v) || allowed(v) || lettersOnly(v) {
			return false // "Basic realm=…" is a challenge, not credentials
		}
		return s.add(vs, ve, KindBearer, "authorization-basic")
	case "token", "bot", "apikey", "api-key", "key", "sso-key", "otoken", "splunk", "ssws", "klaviyo-api-key":
		vs := skipBlanks(t, w)
		if vs == w {
			return false
		}
		ve := span(t[:min(len(t), vs+1024)], vs, func(c byte) bool { return isTokenChar(c) || c == ':' })
		for ve > vs && strings.IndexByte(".,:", t[ve-1]) >= 0 {
			ve--
		}
		v := t[vs:ve]
		if len(v) < 8 || placeholderToken(v) || allowed(v) || lettersOnly(v) {
			return false
		}
		return s.add(vs, ve, KindBearer, "authorization-token")
	}
	// No scheme: the header holds the key itself.
	ve := span(t[:min(len(t), j+1024)], j, isTokenChar)
	v := t[j:ve]
	if len(v) < 16 || !looksRandom(v) || placeholderToken(v) || allowed(v) {
		return false
	}
	return s.add(j, ve, KindBearer, "authorization-token")
}

// cookieAttributes are the attributes of a Set-Cookie header, which hold
// no secret.
var cookieAttributes = map[string]bool{
	"path": true, "domain": true, "expires": true, "max-age": true, "secure": true,
	"httponly": true, "samesite": true, "partitioned": true, "priority": true,
}

// cookieHeader finds cookie values in "Set-Cookie: name=value; …" (the
// first pair; the rest are attributes) and "Cookie: a=1; b=2" (every
// pair). A value counts when it could be a session token: 12 or more
// characters, two character classes, entropy above 3.5.
func cookieHeader(s *scanner, at, end int) bool {
	t := s.t
	set := at >= 4 && hasPrefixFold(t[at-4:at], "set-")
	switch {
	case set:
		if at > 4 && isAlnum(t[at-5]) {
			return false
		}
	case at > 0 && (isAlnum(t[at-1]) || t[at-1] == '-' || t[at-1] == '_'):
		return false
	case !keyContext(t, at) && !strings.HasSuffix(strings.TrimRight(t[max(0, at-8):at], " "), "-H"):
		return false // "the session cookie: …" in prose
	}
	j := end
	if j < len(t) && (t[j] == '"' || t[j] == '\'') {
		j++
	}
	j = skipBlanks(t, j)
	if j >= len(t) || t[j] != ':' {
		return false
	}
	j++
	le := lineEnd(t, j, maxLine)
	for n := 0; n < 32 && j < le; n++ {
		j = skipBlanks(t, j)
		ne := j
		for ne < le && t[ne] != '=' && t[ne] != ';' && !isSpace(t[ne]) && t[ne] != '"' && t[ne] != '\'' {
			ne++
		}
		if ne >= le || t[ne] != '=' || ne == j {
			return false
		}
		name := strings.ToLower(t[j:ne])
		vs := ne + 1
		quoted := vs < le && t[vs] == '"'
		if quoted {
			vs++
		}
		ve := vs
		for ve < le && t[ve] != ';' && !isSpace(t[ve]) && t[ve] != '"' && t[ve] != '\'' && t[ve] != '`' {
			ve++
		}
		v := t[vs:ve]
		if !cookieAttributes[name] && len(v) >= 12 && charClasses(v) >= 2 && entropy(v) > 3.5 &&
			!placeholderToken(v) && !allowed(v) && !notAPassword(v, quoted) {
			if s.add(vs, ve, KindSecret, "cookie") {
				return true
			}
		}
		if set {
			return false
		}
		j = ve
		if quoted && j < le && t[j] == '"' {
			j++
		}
		if j >= le || t[j] != ';' {
			return false
		}
		j++
	}
	return false
}
