package secrets

import (
	"strings"
	"testing"
)

func TestRedactName_ReplacesSecretsWithAFileNameSafePlaceholder(t *testing.T) {
	tests := []struct{ name, want string }{
		{"notes-" + fakeGitHub + ".md", "notes-redacted-github-token.md"},
		{"memory/" + fakeAWS + "/keys.md", "memory/redacted-aws-key/keys.md"},
		{"Stripe sk_live_51OuEMLAlTWGaDypq4P5cuDHbuKe.md", "Stripe redacted-api-key.md"},
		{"gateway-host.md", "gateway-host.md"},
		{"2026-04-14.md", "2026-04-14.md"},
	}
	for _, tt := range tests {
		got, fs := RedactName(tt.name)
		if got != tt.want {
			t.Errorf("RedactName(%q) = %q, want %q", tt.name, got, tt.want)
		}
		if (len(fs) > 0) != (got != tt.name) {
			t.Errorf("RedactName(%q): %d findings", tt.name, len(fs))
		}
		if strings.ContainsAny(got, "[]:") {
			t.Errorf("RedactName(%q) = %q holds characters file systems or Obsidian links refuse", tt.name, got)
		}
		if again, _ := RedactName(got); again != got || Contains(got) {
			t.Errorf("RedactName(%q) is not stable: %q", got, again)
		}
	}
}

// TestNamePlaceholder_IsTheSlugOfPlaceholder checks the promise of
// NamePlaceholder's doc: dreamwiki's file and URL slugs (lower-case letters
// and digits, every other run one '-', no leading or trailing '-') turn
// Placeholder(k) into NamePlaceholder(k), and neither is ever detected.
func TestNamePlaceholder_IsTheSlugOfPlaceholder(t *testing.T) {
	slug := func(s string) string {
		var b strings.Builder
		dash := false
		for _, r := range strings.ToLower(s) {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				if dash && b.Len() > 0 {
					b.WriteByte('-')
				}
				dash = false
				b.WriteRune(r)
				continue
			}
			dash = true
		}
		return b.String()
	}
	for _, k := range Kinds() {
		if got, want := slug(Placeholder(k)), NamePlaceholder(k); got != want {
			t.Errorf("slug(%q) = %q, want NamePlaceholder %q", Placeholder(k), got, want)
		}
		for _, ctx := range []string{"%s", "password: %s", "Authorization: Bearer %s", "https://u:%s@h", "API token: %s", "SESSION_SECRET=%s", "mysql -u root -p%s"} {
			if text := strings.Replace(ctx, "%s", NamePlaceholder(k), 1); Contains(text) {
				t.Errorf("name placeholder detected in %q", text)
			}
		}
	}
}
