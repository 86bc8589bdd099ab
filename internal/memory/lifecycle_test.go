package memory

import "testing"

func TestLifecycle(t *testing.T) {
	tests := []struct {
		text string
		want Status
	}{
		// Closed.
		{"- [x] Migrate the gateway to the Mac mini", StatusClosed},
		{"[X] rotate keys", StatusClosed},
		{"~~Gateway host is the NUC~~ (superseded 2026-04-02)", StatusClosed},
		{"Rotate the deploy key (done)", StatusClosed},
		{"Upgrade bleve ✅", StatusClosed},
		{"status: closed", StatusClosed},
		{"Login bug. Status: **Resolved**", StatusClosed},
		{"Status → done", StatusClosed},
		{"DONE: move backups to the NAS", StatusClosed},
		{"Fix login bug [cancelled]", StatusClosed},
		{"Ship v2 — done.", StatusClosed},
		{"Old landing page project #archived", StatusClosed},
		{"Investigate flaky test (won't fix)", StatusClosed},
		{"Renew passport reminder (snoozed)", StatusClosed},
		{"已完成：迁移到新服务器", StatusClosed},
		{"サーバー移行は完了", StatusClosed},
		{"- [x] TODO: rotate keys", StatusClosed}, // closed wins over TODO
		{"~~TODO: fix the sitemap~~", StatusClosed},
		// Open.
		{"- [ ] Rotate the deploy key", StatusOpen},
		{"TODO: rotate the deploy key", StatusOpen},
		{"Dream log parser: status: in progress", StatusOpen},
		{"Migrate DNS (WIP)", StatusOpen},
		{"Release blocked. status=blocked", StatusOpen},
		{"サーバー移行は未完了", StatusOpen}, // 未 negates 完了
		{"待办：更新文档", StatusOpen},
		{"#todo write the dream log", StatusOpen},
		// No marker.
		{"Gateway host is the Mac mini", StatusNone},
		{"Is the migration done yet?", StatusNone},
		{"The bug is auto-fixed by the linter", StatusNone},
		{"Use ~~npm~~ pnpm for installs", StatusNone},
		{"The backup is not done yet", StatusNone},
		{"I need a todo list app", StatusNone},
		{"Closed-loop control for the heater", StatusNone},
		{"Done deal with the vendor", StatusNone},
		{"", StatusNone},
	}
	for _, tt := range tests {
		if got := Lifecycle(tt.text); got != tt.want {
			t.Errorf("Lifecycle(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestSticky_ClosedNeverReopens(t *testing.T) {
	tests := []struct{ prev, next, want Status }{
		{StatusClosed, StatusOpen, StatusClosed},
		{StatusClosed, StatusNone, StatusClosed},
		{StatusClosed, StatusClosed, StatusClosed},
		{StatusOpen, StatusClosed, StatusClosed},
		{StatusOpen, StatusNone, StatusOpen},
		{StatusOpen, StatusOpen, StatusOpen},
		{StatusNone, StatusOpen, StatusOpen},
		{StatusNone, StatusClosed, StatusClosed},
		{StatusNone, StatusNone, StatusNone},
	}
	for _, tt := range tests {
		if got := Sticky(tt.prev, tt.next); got != tt.want {
			t.Errorf("Sticky(%q, %q) = %q, want %q", tt.prev, tt.next, got, tt.want)
		}
	}
}
