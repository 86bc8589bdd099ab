package secrets

import "strings"

// urlTriggers registers the URL credentials detector.
func urlTriggers() []trigger {
	return []trigger{{"://", func(s *scanner, at, _ int) bool {
		start, end := urlCredentials(s.t, at)
		return end > 0 && s.add(start, end, KindURLCredentials, "url-credentials")
	}}}
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
	if p == "%s" || strings.HasPrefix(p, "%(") || maskOnly(p) || redacted(p) {
		return true
	}
	switch strings.ToLower(p) {
	case "password", "pass", "passwd", "pwd", "token", "pw":
		return true
	}
	return false
}
