package secrets

import (
	"encoding/json"
	"strings"
	"testing"
)

const (
	fakeGitHub = "ghp_OhbVrpoiVgRV5IfLBcbfnoGMbJmTPSIAoCLr"
	fakeAWS    = "AKIA5E8II49KQ71N8MTZ"
)

func TestScan_OffsetsCoverTheValueOnly(t *testing.T) {
	tests := []struct {
		name, text, value string
		kind              Kind
	}{
		{"password keeps its label", "password: hunter2", "hunter2", KindPassword},
		{"quoted password excludes quotes", `"password": "S3cure!Pass"`, "S3cure!Pass", KindPassword},
		{"backquoted password", "pwd: `Zq8!mN2x`", "Zq8!mN2x", KindPassword},
		{"bold label and value", "**Password:** **Tr0ub4dor**", "Tr0ub4dor", KindPassword},
		{"trailing sentence dot", "The wifi password is GuestNet2026.", "GuestNet2026", KindPassword},
		{"query string value", "?user=a&password=Qwerty123&next=/", "Qwerty123", KindPassword},
		{"ampersand inside a value", "DB_PASS=Tr0ub4dor&3", "Tr0ub4dor&3", KindPassword},
		{"flag with blank", "mysql --password Zq8mN2xy -h db", "Zq8mN2xy", KindPassword},
		{"url password only", "https://ann:Gh7!kq2@files.example.org/x", "Gh7!kq2", KindURLCredentials},
		{"url with empty user", "redis://:p4ssw0rd@10.0.0.5:6379", "p4ssw0rd", KindURLCredentials},
		{"url password with @", "ftp://u:p@ss@host/x", "p@ss", KindURLCredentials},
		{"bearer token only", "Authorization: Bearer abc123def456", "abc123def456", KindBearer},
		{"github token whole", "token " + fakeGitHub + ".", fakeGitHub, KindGitHubToken},
		{"aws key whole", "id=" + fakeAWS, fakeAWS, KindAWSKey},
		{"aws secret value", "aws_secret_access_key=eQjEJ/Bq8F80ymm3T207gmhZRnFyy5r2xJ7Fj4mg", "eQjEJ/Bq8F80ymm3T207gmhZRnFyy5r2xJ7Fj4mg", KindAWSSecretKey},
		{"chinese label", "密码：hunter2，记得改", "hunter2", KindPassword},
		{"japanese copula", "パスワードは Sakura2026!", "Sakura2026!", KindPassword},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Scan(tt.text)
			if len(fs) != 1 {
				t.Fatalf("Scan(%q) = %v, want one finding", tt.text, fs)
			}
			f := fs[0]
			if got := tt.text[f.Start:f.End]; got != tt.value || f.Kind != tt.kind {
				t.Errorf("Scan(%q) = %s %q, want %s %q", tt.text, f.Kind, got, tt.kind, tt.value)
			}
		})
	}
}

func TestScan_LineAndColumnAreOneBasedAndCountCharacters(t *testing.T) {
	text := "first line\n数据 password: hunter2\n\n  token " + fakeGitHub + "\n"
	fs := Scan(text)
	if len(fs) != 2 {
		t.Fatalf("Scan = %v, want 2 findings", fs)
	}
	// "数据 password: " is 2 CJK characters + 11 ASCII = 13 characters before.
	if fs[0].Line != 2 || fs[0].Col != 14 {
		t.Errorf("password at %d:%d, want 2:14", fs[0].Line, fs[0].Col)
	}
	if fs[1].Line != 4 || fs[1].Col != 9 {
		t.Errorf("token at %d:%d, want 4:9", fs[1].Line, fs[1].Col)
	}
}

func TestScan_SameSpanTakesTheMostSpecificKind(t *testing.T) {
	for text, want := range map[string]Kind{
		"password: " + fakeGitHub: KindGitHubToken,
		"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig": KindJWT,
		"https://x-access-token:" + fakeGitHub + "@github.com/a/b":                   KindGitHubToken,
	} {
		fs := Scan(text)
		if len(fs) != 1 || fs[0].Kind != want {
			t.Errorf("Scan(%q) = %v, want one %s", text, fs, want)
		}
	}
}

func TestScan_OverlapsAreMergedSoNothingLeaks(t *testing.T) {
	s := scanner{t: "0123456789abcdef"}
	s.found = []candidate{{2, 8, KindPassword, "password"}, {5, 12, KindAPIKey, "sk-api-key"}, {12, 14, KindJWT, "jwt"}}
	fs := s.findings()
	if len(fs) != 2 || fs[0].Start != 2 || fs[0].End != 12 || fs[1].Start != 12 {
		t.Errorf("findings = %+v, want [2,12) and [12,14)", fs)
	}
}

func TestFinding_StringAndJSONNeverHoldTheSecret(t *testing.T) {
	text := "password: hunter2-Long-Enough-To-Preview\n" + fakeGitHub + "\nhttps://u:pw12345678901234567890@h"
	for _, f := range Scan(text) {
		secret := text[f.Start:f.End]
		j, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f.String(), secret) || strings.Contains(string(j), secret) {
			t.Errorf("%s finding prints its secret: %s %s", f.Kind, f, j)
		}
	}
	fs := Scan(fakeGitHub)
	if got, want := fs[0].String(), "1:1 github-token ghp_…oCLr"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	fs = Scan("password: hunter2")
	if got, want := fs[0].Preview, "…"; got != want {
		t.Errorf("password preview = %q, want %q (no characters of a password)", got, want)
	}
}

func TestRedact_ReplacesEachValueWithItsPlaceholder(t *testing.T) {
	in := "user: ann\npassword: hunter2\nkey " + fakeAWS + " and " + fakeGitHub
	want := "user: ann\npassword: [REDACTED:password]\nkey [REDACTED:aws-key] and [REDACTED:github-token]"
	got, fs := Redact(in)
	if got != want || len(fs) != 3 {
		t.Errorf("Redact =\n%q (%d findings)\nwant\n%q", got, len(fs), want)
	}
}

func TestRedact_SecretsInBothHalvesOfURLUserinfoStayRedacted(t *testing.T) {
	in := "https://" + fakeAWS + ":pw123456@host/x"
	want := "https://[REDACTED:aws-key]:[REDACTED:url-credentials]@host/x"
	got, _ := Redact(in)
	if got != want {
		t.Fatalf("Redact = %q, want %q", got, want)
	}
	if fs := Scan(got); len(fs) != 0 {
		t.Errorf("redacted URL still has %v", fs)
	}
}

func TestRedact_TextWithoutSecretsIsReturnedUnchanged(t *testing.T) {
	in := "Gateway host is the Mac mini. ssh user@10.0.0.2"
	got, fs := Redact(in)
	if got != in || fs != nil {
		t.Errorf("Redact(%q) = %q, %v", in, got, fs)
	}
}

func TestPlaceholder_IsNeverDetected(t *testing.T) {
	for _, k := range Kinds() {
		p := Placeholder(k)
		for _, ctx := range []string{"%s", "password: %s", "Authorization: Bearer %s", "https://u:%s@h", "aws_secret_access_key=%s"} {
			text := strings.Replace(ctx, "%s", p, 1)
			if Contains(text) {
				t.Errorf("placeholder detected in %q", text)
			}
		}
	}
}

func TestScan_WordBoundaries(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		// gitleaks' GitHub rules have no word boundaries: a token glued
		// to other text is still a token.
		{"x" + fakeGitHub, 1},
		{fakeGitHub + "x", 1},
		{"AKIA5E8II49KQ71N8MTZZ", 0}, // 17 after AKIA
		{"AKIA5E8II49KQ71N8MT", 0},   // 15 after AKIA
		{"(" + fakeAWS + ")", 1},     // punctuation is a boundary
		{"数据" + fakeAWS + "。", 1},    // so is CJK text
		{"sk-NfAQLKHu7qnQTupqziQPtDu7W7eaDNKgeInGqi7w4e4pxskC", 1},
		{"task-NfAQLKHu7qnQTupqziQPtDu7W7eaDNKgeInGqi7w4e4pxskC", 0},
		{"sk-this-is-a-very-long-hyphenated-name-2026", 0},
		{"AIzaB6PRWJ1Gk8cgSCifdFzctEq8oB7GVvouNnd", 1},
		{"AIzaB6PRWJ1Gk8cgSCifdFzctEq8oB7GVvouNndX", 0},
		{"xoxb-not-a-token", 0},
		{"-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----", 0},
	}
	for _, tt := range tests {
		if got := len(Scan(tt.text)); got != tt.want {
			t.Errorf("Scan(%q) found %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestContains_AgreesWithScan(t *testing.T) {
	for _, c := range readCorpus(t) {
		if Contains(c.text) != (len(Scan(c.text)) > 0) {
			t.Errorf("secrets.txt:%d: Contains disagrees with Scan", c.line)
		}
	}
	if Contains("") || Scan("") != nil {
		t.Error("empty text has secrets")
	}
}

func TestKinds_AreAllDistinctAndOrderedByPriority(t *testing.T) {
	seen := map[Kind]bool{}
	for i, k := range Kinds() {
		if seen[k] {
			t.Errorf("duplicate kind %s", k)
		}
		seen[k] = true
		if priority(k) != i {
			t.Errorf("priority(%s) = %d, want %d", k, priority(k), i)
		}
	}
}

// TestScan_PlaceholdersAreNotSecrets records what the guard does with
// values that stand for a secret: documentation placeholders, masks,
// variables and examples are never reported. A weak password that is the
// configured one ("POSTGRES_PASSWORD=changeme" in a compose file) is a
// password, and is reported; the same word as a token is not, since no
// service issues it.
func TestScan_PlaceholdersAreNotSecrets(t *testing.T) {
	for text, want := range map[string]int{
		"OPENAI_API_KEY=your-api-key-here":                            0,
		"API token: <token>":                                          0,
		"auth_token: xxxxxxxxxxxxxxxxxxxxxxxx":                        0,
		"API_TOKEN=${API_TOKEN}":                                      0,
		"api_key: {{ vault_api_key }}":                                0,
		"stripe: sk_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxx":                0,
		"HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx":              0,
		"aws_access_key_id = AKIAIOSFODNN7EXAMPLE":                    0,
		"JWT_SECRET=changeme":                                         0,
		"secret: ****************":                                    0,
		"token: REPLACE_WITH_YOUR_TOKEN":                              0,
		"POSTGRES_PASSWORD=changeme":                                  1,
		"password: changeme":                                          1,
		"SESSION_SECRET=kX9#mQ2$vL7pW4z":                              1,
		"auth_token: Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB":                1,
		"stripe: sk_live_51OuEMLAlTWGaDypq4P5cuDHbuKeG4tAGPYHJpEXQ7z": 1,
	} {
		if got := len(Scan(text)); got != want {
			t.Errorf("Scan(%q) found %d, want %d", text, got, want)
		}
	}
}

func TestFinding_NamesItsRuleAndShowsOnlyAMaskedPreview(t *testing.T) {
	tests := []struct{ text, rule, preview string }{
		{"stripe: sk_live_51OuEMLAlTWGaDypq4P5cuDHbuKeG4tAGPYHJpEXQ7z", "stripe-access-token", "sk_live_…XQ7z"},
		{"password: hunter2", "password", "…"},
		{"auth_token: Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB", "generic-api-key", "…"},
		{"SESSION_SECRET=kX9#mQ2$vL7pW4z", "env-secret", "…"},
		{"mysql -u root -pW1nt3r!2026", "cli-password", "…"},
		{"postgres://app:pw123456@db/app", "url-credentials", "…"},
		{"HEROKU_API_KEY=8f2c41e9-a7b3-4d5e-9c0f-1a2b3c4d5e6f", "heroku-api-key", "…5e6f"},
		{"glpat-Xk3vQ9mZp2LrT7wYb4Nc", "gitlab-pat", "glpat-…b4Nc"},
		{"xoxb-917693676320-1632870831727-QHJMu8W5CN0U5GB16JC5kV3E", "slack-bot-token", "xoxb-…kV3E"},
		{"sk-proj-MbMnrHontIKARAH_Ggl2JfaQqHu42bojteVs3qfNUfTAFnT0tEuw0dwQ0FIunWe8", "sk-api-key", "sk-proj-…nWe8"},
	}
	for _, tt := range tests {
		fs := Scan(tt.text)
		if len(fs) != 1 || fs[0].Rule != tt.rule || fs[0].Preview != tt.preview {
			t.Errorf("Scan(%q) = %+v, want one finding by %s previewed %q", tt.text, fs, tt.rule, tt.preview)
		}
	}
}
