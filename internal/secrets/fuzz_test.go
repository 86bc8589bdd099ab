package secrets

import (
	"os"
	"strings"
	"testing"
)

// FuzzRedact checks the guard's promises on arbitrary input: it never
// panics, findings are sorted, in bounds and non-overlapping, Contains agrees
// with Scan, redacted text keeps every line, holds no detectable secret and
// is stable, and RedactName's output is as safe.
func FuzzRedact(f *testing.F) {
	for _, c := range readCorpus(f) {
		f.Add(c.text)
	}
	for _, c := range readCases(f, "testdata/shapes.txt") {
		f.Add(c.text)
	}
	for _, c := range readCases(f, "testdata/personal.txt") {
		f.Add(c.text)
	}
	if b, err := os.ReadFile("testdata/ordinary.txt"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			f.Add(l)
		}
	}
	f.Add("password: a password: hunter2")
	f.Add("https://a:b@c https://d:e@f")
	f.Add("https://" + fakeAWS + ":pw123456@host")
	f.Add("-----BEGIN PRIVATE KEY-----\n-----BEGIN PRIVATE KEY-----")
	f.Fuzz(func(t *testing.T, text string) {
		red, fs := Redact(text)
		last := 0
		for _, x := range fs {
			if x.Start < last || x.End <= x.Start || x.End > len(text) || x.Line < 1 || x.Col < 1 {
				t.Fatalf("bad finding %+v (previous end %d) in %q", x, last, text)
			}
			last = x.End
		}
		if Contains(text) != (len(fs) > 0) {
			t.Fatalf("Contains = %v with %d findings in %q", Contains(text), len(fs), text)
		}
		if strings.Count(red, "\n") != strings.Count(text, "\n") {
			t.Fatalf("redaction changed the number of lines\ninput:    %q\nredacted: %q", text, red)
		}
		if again := Scan(red); len(again) != 0 {
			t.Fatalf("redacted text still has %v\ninput:    %q\nredacted: %q", again, text, red)
		}
		if twice, _ := Redact(red); twice != red {
			t.Fatalf("second Redact changed %q to %q", red, twice)
		}
		name, _ := RedactName(text)
		if again := Scan(name); len(again) != 0 {
			t.Fatalf("redacted name still has %v\ninput: %q\nname:  %q", again, text, name)
		}
		// With personal data: the same promises, for both classes.
		g := Guard{Personal: true}
		pred, pfs := g.Redact(text)
		last = 0
		for _, x := range pfs {
			if x.Start < last || x.End <= x.Start || x.End > len(text) {
				t.Fatalf("bad finding %+v (previous end %d) in %q", x, last, text)
			}
			last = x.End
		}
		if strings.Count(pred, "\n") != strings.Count(text, "\n") {
			t.Fatalf("personal redaction changed the number of lines\ninput:    %q\nredacted: %q", text, pred)
		}
		if again := append(Scan(pred), ScanPersonal(pred)...); len(again) != 0 {
			t.Fatalf("personal redaction left %v\ninput:    %q\nredacted: %q", again, text, pred)
		}
		if twice, _ := g.Redact(pred); twice != pred {
			t.Fatalf("second personal Redact changed %q to %q", pred, twice)
		}
	})
}

// pieces are fragments that byte-level mutation rarely assembles: whole
// secrets, labels, placeholders and the punctuation that joins them.
var pieces = []string{
	fakeGitHub, fakeAWS, "AIzaB6PRWJ1Gk8cgSCifdFzctEq8oB7GVvouNnd",
	"sk-proj-MbMnrHontIKARAH_Ggl2JfaQqHu42bojteVs3qfNUfTAFnT0tEuw0dwQ0FIunWe8",
	"xoxb-917693676320-1632870831727-QHJMu8W5CN0U5GB16JC5kV3E",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
	"eQjEJ/Bq8F80ymm3T207gmhZRnFyy5r2xJ7Fj4mg", "hunter2", "Tr0ub4dor&3", "pw",
	"password", "pass", "pwd", "Password", "DB_", "密码", "パスワード", "是", "は",
	"aws_secret_access_key", "Authorization", "Bearer", "https", "redis", "user",
	"-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
	"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB",
	"[REDACTED:password]", "[REDACTED:aws-key]", "[REDACTED:url-credentials]",
	"redacted-secret", "API token", "token", "secret", "key", "auth", "令牌", "：",
	"sk_live_", "glpat-", "hf_", "npm_", "SG.", "dop_v1_", "xoxb-", "AccountKey=",
	"&sig=", ":AA", "1234567890", "q3nrM9LYZQlqw0U7wxo0IUxNMIvEjX", "0123456789abcdef",
	"mysql", "-p", "sshpass", "redis-cli", "-a", "curl", "-H", "Authorization: ",
	"hooks.slack.com/services/", "discord", "| ", "\r\n",
	"://", ":", "：", "=", "@", " ", "\n", "\"", "'", "`", "*", "**", "-", "--",
	"_", ".", ",", "&", "?", "[", "]", "(", ")", "{", "}", "$", "<", ">", "/",
	"is", "x", "1", "a", "\\n", "\t", "> ", "- ", "export ",
}

// FuzzRedactPieces runs the FuzzRedact checks on texts assembled from
// pieces, one byte choosing each piece, so the fuzzer explores how secrets,
// labels and placeholders interact next to each other.
func FuzzRedactPieces(f *testing.F) {
	f.Add([]byte{8, 59, 2})
	f.Add([]byte{28, 32, 0, 32, 60, 35, 60, 22})
	f.Add([]byte{39, 58, 18, 38, 1})
	f.Fuzz(func(t *testing.T, choice []byte) {
		var b strings.Builder
		for _, c := range choice {
			b.WriteString(pieces[int(c)%len(pieces)])
		}
		text := b.String()
		red, fs := Redact(text)
		if Contains(text) != (len(fs) > 0) {
			t.Fatalf("Contains disagrees with Scan on %q", text)
		}
		if strings.Count(red, "\n") != strings.Count(text, "\n") {
			t.Fatalf("redaction changed the number of lines\ninput:    %q\nredacted: %q", text, red)
		}
		if again := Scan(red); len(again) != 0 {
			t.Fatalf("redacted text still has %v\ninput:    %q\nredacted: %q", again, text, red)
		}
	})
}
