package memory

import (
	"testing"
	"time"
)

// FuzzTextRules checks that the text-reading rules never panic and keep
// their promises on any input.
func FuzzTextRules(f *testing.F) {
	for _, s := range []string{
		"Gateway host: NUC → Mac mini", "You may deploy until Feb 30", "- [x] ~~TODO~~",
		"サーバー移行は未完了", "ssh pi@raspberrypi", "fe80::1%eth0", "until 2026-13-45",
		"Approved to deploy before Jan 1", "X moved from  to ", "：", "~~", "→",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		IsStructural(text)
		given := time.Date(2026, 4, 14, 9, 0, 0, 0, time.UTC)
		if ok, exp := Permission(text, given); ok && exp.Before(given.Truncate(24*time.Hour).AddDate(0, 0, -1)) {
			// "before <today>" is the earliest expiry a permission can get.
			t.Errorf("Permission(%q) expires %v, before it was given", text, exp)
		} else if !ok && !exp.IsZero() {
			t.Errorf("Permission(%q): not a permission but expires %v", text, exp)
		}
		switch Lifecycle(text) {
		case StatusNone, StatusOpen, StatusClosed:
		default:
			t.Errorf("Lifecycle(%q) returned an unknown status", text)
		}
		if s, v, ok := SubjectValue(text); ok && (s == "" || v == "") || !ok && (s != "" || v != "") {
			t.Errorf("SubjectValue(%q) = %q, %q, %v", text, s, v, ok)
		}
	})
}
