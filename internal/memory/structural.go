package memory

import (
	"net/netip"
	"regexp"
	"strings"
)

// IsStructural reports whether an entry names something the agent must not
// forget just because nobody asked about it lately: a host or IP address, a
// URL, an email address or phone number, a @handle, a person introduced with
// their role, or a reference to where a credential is kept (DESIGN 5.1).
// Structural entries never decay below the structural floor.
//
// It is deliberately conservative, because a false positive keeps clutter
// alive forever: hostnames need a dot and a real top-level domain (so
// "notes.md" and "Node.js" are not hosts) or a host-like name such as
// "nuc-01"; a person needs "Name is my/the <role>" or "my <role> is Name";
// a credential reference needs both a credential word and a place
// ("the NAS password is in 1Password").
func IsStructural(text string) bool {
	folded := fold(text)
	return hasIP(text) || reURL.match(text, folded) || reEmail.match(text, folded) ||
		hasHostname(text, folded) || reHostLike.match(text, folded) || reSSHTarget.match(text, folded) ||
		hasPhone(text) || hasHandle(text) || isPerson(text, folded) || isCredentialReference(text, folded)
}

// The patterns below are compiled once and never modified. Each guard's
// literals are read off its pattern (see guarded).
var (
	reIPv4 = guard(`(?:^|[^\w.])((?:\d{1,3}\.){3}\d{1,3})(?:$|[^\w.]|\.(?:$|\s))`,
		[][]string{joined(joined(digits, "."), digits...)})
	// Candidate IPv6 addresses, checked by netip: hex groups with at least
	// two colons, optionally bracketed or with a zone or prefix length.
	reIPv6 = regexp.MustCompile(`(?i)(?:^|[^\w:.])\[?([0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?:%[\w.]+)?)\]?`)
	reURL  = guard(`(?i)\b[a-z][a-z0-9+.-]*://[^\s/$.?#][^\s]*|\bwww\.[a-z0-9-]+\.[a-z]{2,}`,
		[][]string{{"://", "www."}})
	// reEmail needs a dot in the domain, so "npm i foo@1.2.3" is not one.
	reEmail = guard(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`,
		[][]string{{"@"}})
	// reHostname finds dotted names; hasHostname then checks the TLD.
	reHostname = guard(`(?i)\b((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+)([a-z][a-z0-9-]{0,62}[a-z0-9])\b`,
		[][]string{joined([]string{"."}, letters...)})
	// reHostLike matches machine names: a device word with a number
	// ("nuc-01", "pi4", "srv2"), or any name ending in a zero-padded number
	// ("web-01", "db-prod-02").
	reHostLike = guard(`(?i)\b(?:(?:nuc|nas|rpi|pi|srv|vm|gw|router|proxmox|pve|esxi|mbp|macmini|server|host)-?\d{1,3}|[a-z][a-z0-9]*(?:-[a-z0-9]+)*-0\d)\b`,
		// A device word before "-" or a digit, or "-0".
		[][]string{digits, append(joined([]string{"nuc", "nas", "pi", "srv", "vm", "gw", "router", "proxmox",
			"pve", "esxi", "mbp", "macmini", "server", "host"}, append(digits, "-")...), "-0")})
	// reSSHTarget is "ssh [flags] user@host" even when host has no dot.
	reSSHTarget = guard(`\bssh\s+(?:-\S+\s+(?:\S+\s+)?)*[\w.-]+@[\w.-]+`,
		[][]string{{"@"}, {"ssh"}})
	rePhone = guard(`(?:^|[^\w+])(\+\d[\d\s().-]{6,20}\d)|\(\d{3}\)\s?\d{3}-\d{4}\b|\b\d{3}[-.]\d{3}[-.]\d{4}\b`,
		// "+", or a digit before "-" or ".".
		[][]string{digits, append(joined(digits, "-", "."), "+")})
	reHandle = guard(`(?:^|[\s(,;:])@([A-Za-z0-9_][A-Za-z0-9_.-]{1,38})`,
		[][]string{{"@"}})
	// rePersonIs is "Sam is my manager", "Alice Chen is the new PM".
	rePersonIs = guard(`^(?:[-*+]\s+)?(?:\*\*)?([A-Z][a-z]+(?:\s[A-Z][a-z]+){0,2})(?:\*\*)?\s+(?:is|was)\s+(?:my|our|the|a|an|his|her|their|user's|the user's)\s+(?:[\w-]+\s+){0,2}?(`+roles+`)\b`,
		[][]string{joined(blanks, "is", "was")})
	// reMyRoleIs is "my manager is Sam", "User's wife: Anna".
	reMyRoleIs = guard(`(?i:\b(?:my|our|user's|the user's)\s+(?:[\w-]+\s+)?(`+roles+`)(?:\s+is|:))\s+(?:\*\*)?[A-Z][a-z]+`,
		[][]string{joined([]string{"my", "our", "user's"}, blanks...), append(joined(blanks, "is"), ":")})
)

// roles are the nouns that introduce a person.
const roles = `(?i:manager|boss|wife|husband|partner|spouse|friend|best friend|colleague|co-?worker|sister|brother|mother|father|mom|mum|dad|son|daughter|teammate|lead|tech lead|team lead|pm|product manager|cto|ceo|cfo|founder|co-?founder|engineer|designer|developer|owner|contact|accountant|doctor|dentist|lawyer|landlord|neighbou?r|mentor|client|customer|girlfriend|boyfriend|fianc[eé]e?|cousin|uncle|aunt|grandmother|grandfather|grandma|grandpa|kid|child|assistant|maintainer|reviewer|recruiter|therapist|coach|teacher|professor|advisor|adviser|investor|roommate|flatmate|manager's)`

// notNames are capitalised words that start sentences but are not people.
var notNames = map[string]bool{
	"The": true, "This": true, "That": true, "It": true, "He": true, "She": true,
	"They": true, "There": true, "Here": true, "What": true, "Who": true,
	"Which": true, "Our": true, "My": true, "Your": true, "Their": true,
	"His": true, "Her": true, "We": true, "You": true, "Everyone": true,
	"Nobody": true, "Someone": true, "Today": true, "Tomorrow": true,
}

func hasIP(text string) bool {
	if reIPv4.may(text, "") {
		for _, m := range reIPv4.re.FindAllStringSubmatch(text, -1) {
			if a, err := netip.ParseAddr(m[1]); err == nil && a.Is4() {
				return true
			}
		}
	}
	if strings.Count(text, ":") < 2 {
		return false
	}
	for _, m := range reIPv6.FindAllStringSubmatch(text, -1) {
		s := m[1]
		if !strings.ContainsAny(s, "0123456789abcdefABCDEF") {
			continue // "::" alone, or C++ scope operators
		}
		if a, err := netip.ParseAddr(s); err == nil && a.Is6() {
			return true
		}
	}
	return false
}

// hostTLDs are top-level domains accepted for a name with a single dot, plus
// the private suffixes used on home and office networks.
var hostTLDs = map[string]bool{
	"com": true, "net": true, "org": true, "io": true, "dev": true, "app": true,
	"ai": true, "co": true, "me": true, "info": true, "biz": true, "us": true,
	"uk": true, "de": true, "fr": true, "nl": true, "eu": true, "ch": true,
	"at": true, "cn": true, "jp": true, "kr": true, "in": true, "au": true,
	"ca": true, "br": true, "ru": true, "es": true, "it": true, "se": true,
	"no": true, "fi": true, "dk": true, "pl": true, "cz": true, "be": true,
	"tv": true, "xyz": true, "cloud": true, "tech": true, "site": true,
	"online": true, "edu": true, "gov": true, "local": true, "lan": true,
	"internal": true, "home": true, "arpa": true, "localdomain": true,
	"corp": true, "intranet": true, "test": true, "example": true,
	"localhost": true, "onion": true,
}

// fileExts are name endings that are far more often file extensions than
// domains in notes, even where a country uses them (.md, .sh, .py, .rs).
var fileExts = map[string]bool{
	"md": true, "txt": true, "json": true, "jsonl": true, "yaml": true,
	"yml": true, "toml": true, "go": true, "js": true, "mjs": true, "ts": true,
	"tsx": true, "jsx": true, "py": true, "rb": true, "rs": true, "java": true,
	"c": true, "h": true, "cpp": true, "hpp": true, "cs": true, "sh": true,
	"bash": true, "zsh": true, "html": true, "htm": true, "css": true,
	"scss": true, "png": true, "jpg": true, "jpeg": true, "gif": true,
	"svg": true, "webp": true, "pdf": true, "doc": true, "docx": true,
	"xls": true, "xlsx": true, "csv": true, "log": true, "lock": true,
	"zip": true, "gz": true, "tar": true, "tgz": true, "bz2": true, "xz": true,
	"mod": true, "sum": true, "conf": true, "cfg": true, "ini": true,
	"env": true, "bak": true, "tmp": true, "out": true, "exe": true,
	"dll": true, "so": true, "dylib": true, "wasm": true, "heic": true,
	"mov": true, "mp4": true, "mp3": true, "wav": true, "sql": true,
	"db": true, "sqlite": true, "xml": true, "ipynb": true, "vue": true,
	"svelte": true, "lua": true, "php": true, "kt": true,
	"swift": true, "dart": true, "ex": true, "exs": true, "erl": true,
	"tf": true, "hcl": true, "proto": true, "pem": true, "crt": true,
	"key": true, "pub": true, "gpg": true, "asc": true,
}

func hasHostname(text, folded string) bool {
	if !reHostname.may(text, folded) {
		return false
	}
	for _, m := range reHostname.re.FindAllStringSubmatchIndex(text, -1) {
		labels, tld := text[m[2]:m[3]], text[m[4]:m[5]]
		if tld != strings.ToLower(tld) || fileExts[tld] {
			continue // "ASP.NET", "notes.md"
		}
		// "e.g." and "i.e." have one-letter labels; real hosts rarely do.
		if strings.Count(labels, ".") == 1 && len(labels) <= 2 {
			continue
		}
		if hostTLDs[tld] || strings.Count(labels, ".") >= 2 && len(tld) >= 2 && !isDigits(tld) {
			return true
		}
	}
	return false
}

func hasPhone(text string) bool {
	if !rePhone.may(text, "") {
		return false
	}
	for _, m := range rePhone.re.FindAllStringSubmatch(text, -1) {
		if m[1] == "" {
			return true // (555) 010-2030 or 555-010-2030
		}
		n := 0
		for _, r := range m[1] {
			if r >= '0' && r <= '9' {
				n++
			}
		}
		if n >= 8 && n <= 15 {
			return true
		}
	}
	return false
}

func hasHandle(text string) bool {
	if !reHandle.may(text, "") {
		return false
	}
	for _, m := range reHandle.re.FindAllStringSubmatchIndex(text, -1) {
		end := m[1]
		if end < len(text) && text[end] == '/' {
			continue // an npm scope such as @types/node
		}
		if strings.HasSuffix(text[m[2]:m[3]], ".") {
			continue
		}
		return true
	}
	return false
}

func isPerson(text, folded string) bool {
	if t := strings.TrimSpace(text); rePersonIs.may(t, folded) {
		if m := rePersonIs.re.FindStringSubmatch(t); m != nil {
			first, _, _ := strings.Cut(m[1], " ")
			if !notNames[first] {
				return true
			}
		}
	}
	return reMyRoleIs.match(text, folded)
}

var (
	reCredWord = guard(`(?i)\b(?:password|passphrase|passcode|api[ _-]?key|api[ _-]?token|access[ _-]?token|token|ssh[ _-]?key|private[ _-]?key|deploy[ _-]?key|credentials?|secret|2fa|otp|recovery codes?|pin)\b|密码|パスワード`,
		[][]string{{"pass", "api", "token", "key", "credential", "secret", "2fa", "otp", "recovery", "pin",
			"密码", "パスワード"}})
	reCredPlace = guard(`(?i)1password|bitwarden|lastpass|keepass(?:xc)?|keychain|\bvault\b|password manager|secrets? manager|\.env\b|env(?:ironment)? var|~/\.ssh|\bssm\b|\bstored in\b|\blives in\b|\bkept in\b|\bsaved in\b|\[REDACTED:`,
		[][]string{{"1password", "bitwarden", "lastpass", "keepass", "keychain", "vault", "password manager",
			"secret manager", "secrets manager", ".env", "env var", "environment var", "~/.ssh", "ssm",
			"stored in", "lives in", "kept in", "saved in", "[redacted:"}})
)

// isCredentialReference reports an entry that says where a credential is
// kept, without (after redaction) holding it: "NAS password is in
// 1Password", "deploy key lives in ~/.ssh", "password: [REDACTED:password]".
func isCredentialReference(text, folded string) bool {
	// The place is tested first: its literals are the rarer ones.
	return strings.Contains(text, "[REDACTED:") || reCredPlace.match(text, folded) && reCredWord.match(text, folded)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
