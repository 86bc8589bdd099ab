package memory

import "testing"

func TestSubjectValue(t *testing.T) {
	tests := []struct {
		text           string
		subject, value string
		ok             bool
	}{
		{"Gateway host is the Mac mini.", "gateway host", "the Mac mini", true},
		{"- Dev server: user@203.0.113.10", "dev server", "user@203.0.113.10", true},
		{"Status: pending", "status", "pending", true},
		{"PORT = 8080", "port", "8080", true},
		{"PORT=8080", "port", "8080", true},
		{"The team moved to Berlin", "team", "Berlin", true},
		{"Gateway host → Mac mini", "gateway host", "Mac mini", true},
		{"Gateway host: NUC → Mac mini", "gateway host", "Mac mini", true},
		{"The blog has moved to https://blog.example.org/", "blog", "https://blog.example.org/", true},
		{"Primary DB migrated from Postgres 14 to Postgres 16", "primary db", "Postgres 16", true},
		{"**Timezone**: Europe/Berlin", "timezone", "Europe/Berlin", true},
		{"My timezone is now Pacific", "timezone", "Pacific", true},
		{"- [reference] API base -> https://api.example.com/v2", "api base", "https://api.example.com/v2", true},
		{"- [x] Deploy target: staging", "deploy target", "staging", true},
		{"数据库：PostgreSQL", "数据库", "PostgreSQL", true},
		{"Sam is my manager", "sam", "my manager", true},
		{"Gateway host is the Mac mini. Source: memory/2026-04-29.md#L3-L6", "gateway host", "the Mac mini", true},
		{"Editor is `nvim` [score=0.835 recalls=0 avg=0.620 source=memory/2026-04-17.md:7-7]", "editor", "nvim", true},
		{"Note taking app: Obsidian", "note taking app", "Obsidian", true},

		{"It is raining", "", "", false},
		{"This is fine", "", "", false},
		{"There is a bug in the parser", "", "", false},
		{"Is the gateway up?", "", "", false},
		{"Gateway host is what?", "", "", false},
		{"Rule: always use pnpm", "", "", false},
		{"> Why: Sam reads on the phone", "", "", false},
		{"Source: memory/2026-04-14.md", "", "", false},
		{"See https://example.com/docs", "", "", false},
		{"Meeting at 10:30 with Sam", "", "", false},
		{"The cache is not warm", "", "", false},
		{"Deployed the new gateway yesterday", "", "", false},
		{"The thing we discussed in the long meeting yesterday afternoon is settled", "", "", false},
		{"2026-04-14: deployed v2", "", "", false},
		{"x == y", "", "", false},
		{"Gateway host:", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		s, v, ok := SubjectValue(tt.text)
		if s != tt.subject || v != tt.value || ok != tt.ok {
			t.Errorf("SubjectValue(%q) = %q, %q, %v; want %q, %q, %v", tt.text, s, v, ok, tt.subject, tt.value, tt.ok)
		}
	}
}

func TestSubjectValue_SameSubjectNewValue(t *testing.T) {
	s1, v1, _ := SubjectValue("Gateway host is the NUC")
	s2, v2, _ := SubjectValue("- **The gateway host** → the Mac mini")
	if s1 != s2 || v1 == v2 {
		t.Errorf("old %q=%q, new %q=%q: want the same subject with a new value", s1, v1, s2, v2)
	}
}
