package vault_test

import (
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/buildtest"
)

// A claim's evidence is a block link to the line it came from: the
// claim note names the block, and the daily log carries its id at the end
// of that line, where Obsidian reads it.
func TestVault_EvidenceLinksLandOnTheLineThatSaysIt(t *testing.T) {
	out := buildtest.Build(t, `
-- MEMORY.md --
# Memory

- Gateway host is the Mac mini. Source: memory/2026-10-21.md#L2-L2
-- memory/2026-10-21.md --
# 2026-10-21
- Moved the gateway to the Mac mini.
`)
	out.AssertContains("vault/claims/gateway-host-is-the-mac-mini.md",
		`evidence: ["[[sources/daily/2026-10-21#^e2]]"]`,
		"source: MEMORY.md#L3",
		"memory/[[sources/daily/2026-10-21#^e2|2026-10-21.md, line 2]]",
		"> Moved the gateway to the Mac mini.")
	out.AssertContains("vault/sources/daily/2026-10-21.md", "- Moved the gateway to the Mac mini. ^e2\n")
	// The entry links its claim, and is a block the claim links back to.
	out.AssertContains("vault/index.md", "Source: memory/2026-10-21.md#L2-L2 [[claims/gateway-host-is-the-mac-mini|claim]] ^e3\n")
	out.AssertContains("vault/claims/gateway-host-is-the-mac-mini.md", "[[index#^e3|MEMORY.md, line 3]]")
}

// A topic file moves from memory/ to topics/ in the vault: links written
// to its workspace path are rewritten so Obsidian finds it (a wikilink by
// its bare name, a Markdown link by its new relative path), and a link to
// a private note, which the vault leaves out, becomes its text.
func TestVault_LinksAreRewrittenToResolveInObsidian(t *testing.T) {
	out := buildtest.Build(t, `
-- dreamwiki.toml --
private = ["memory/private/**"]
-- MEMORY.md --
# Memory

The gateway is in [[memory/gateway.md]] and [the topic](memory/gateway.md); health in [[health]].
-- memory/gateway.md --
# Gateway
-- memory/private/health.md --
# Health
`)
	out.AssertContains("vault/index.md", "The gateway is in [[gateway]] and [the topic](<topics/gateway.md>); health in health.")
	out.AssertExists("vault/topics/gateway.md")
	out.AssertNotExists("vault/topics/private/health.md", "vault/memory/private/health.md")
}

// The vault opens in Obsidian as it is: its settings, the property types
// of the front matter, and the manifest a later build reads to keep what
// people wrote.
func TestVault_HasObsidianSettingsAndAManifest(t *testing.T) {
	out := buildtest.Build(t, `
-- MEMORY.md --
- The NAS sits under the stairs.
`)
	out.AssertExists("vault/.obsidian/app.json", "vault/.obsidian/graph.json")
	out.AssertMatches("vault/.obsidian/types.json", `"decay":\s*"number"`)
	out.AssertContains("vault/.dreamwiki-manifest.json", `"claims/the-nas-sits-under-the-stairs.md"`, `"generator": "dreamwiki"`)
}
