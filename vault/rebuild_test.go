package vault_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
	"github.com/dreamwiki/dreamwiki/vault"
)

// TestRebuild_KeepsWhatPeopleWroteInTheVault edits a built vault the ways
// a person does, rebuilds twice, and finds every word they typed.
func TestRebuild_KeepsWhatPeopleWroteInTheVault(t *testing.T) {
	out := buildtest.Build(t, `
-- MEMORY.md --
# Memory

## Infrastructure
- Gateway host is the Mac mini. Source: memory/2026-10-21.md#L1-L1
- Zigbee2MQTT uses the by-id path.
-- memory/2026-10-21.md --
- Moved the gateway to the Mac mini.
`)
	const (
		claim = "vault/claims/gateway-host-is-the-mac-mini.md"
		daily = "vault/sources/daily/2026-10-21.md"
	)
	edit := func(p string, f func(string) string) {
		t.Helper()
		data, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(p, []byte(f(string(data))), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// Inside a human block, outside one, a new note and a second block.
	edit(out.Path(claim), func(s string) string {
		return strings.Replace(s, vault.HumanStart+"\n", vault.HumanStart+"\nChecked the router page myself.\n", 1)
	})
	edit(out.Path(daily), func(s string) string {
		return s + "\nA line I added outside any block.\n\n" + vault.HumanStart + "\nA block I made myself.\n" + vault.HumanEnd + "\n"
	})
	if err := os.WriteFile(out.Path("vault/my-note.md"), []byte("# Mine\n\nMy own note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The entry's text changes a little; its id must not.
	edit(filepath.Join(out.Options.Workspace, "MEMORY.md"), func(s string) string {
		return strings.Replace(s, "Gateway host is the Mac mini.", "The gateway host is now the Mac mini.", 1)
	})

	out.Rebuild()
	out.AssertContains(claim, "Checked the router page myself.", "The gateway host is now the Mac mini")
	out.AssertContains(daily, "A block I made myself.")
	out.AssertNotContains(daily, "A line I added outside")
	if got := out.Read("vault/my-note.md"); got != "# Mine\n\nMy own note.\n" {
		t.Errorf("a note made in the vault was not kept: %q", got)
	}
	var backedUp string
	for _, d := range out.Report.Diagnostics {
		if d.Code == "hand-edit" && strings.Contains(d.Message, "sources/daily/2026-10-21.md") {
			backedUp = d.Message
		}
	}
	if backedUp == "" {
		t.Fatalf("the edit outside human blocks was not reported: %v", out.Report.Diagnostics)
	}
	found := false
	for _, p := range out.Files("vault-backup") {
		found = found || strings.Contains(out.Read(p), "A line I added outside any block.")
	}
	if !found {
		t.Errorf("the edited file is not in vault-backup")
	}

	// A third build changes nothing a person wrote and backs up nothing.
	out.Rebuild()
	for _, d := range out.Report.Diagnostics {
		if d.Code == "hand-edit" {
			t.Errorf("third build: %s", d.Message)
		}
	}
	out.AssertContains(claim, "Checked the router page myself.")
	out.AssertContains(daily, "A block I made myself.")
}
