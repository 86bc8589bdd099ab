package vault

import (
	"github.com/dreamwiki/dreamwiki/internal/diag"
	"github.com/dreamwiki/dreamwiki/internal/markdown"
)

// LinkWorkspaces resolves the links between the vaults of one team site,
// by workspace name: a link that names nothing in its own vault and is
// qualified by the name of another ([[b:note]], markdown.WorkspaceTarget)
// is looked up in that vault by Obsidian's rules from its root, and a
// private note there stays private. Each vault's link diagnostics are
// made again, so that a resolved link is no longer reported as broken.
// The vaults' backlinks are their own: a page lists the notes of its
// workspace that link to it.
func LinkWorkspaces(vaults map[string]*Vault) {
	for _, v := range vaults {
		changed := false
		for _, n := range v.Notes {
			for i, l := range n.Doc.Links {
				if !n.Links[i].Broken {
					continue
				}
				name, rest, ok := markdown.WorkspaceTarget(l.Target)
				peer := vaults[name]
				if !ok || peer == nil {
					continue
				}
				r := peer.resolveTarget("", l, rest)
				if peer != v {
					r.Workspace, r.Peer, r.Note = name, r.Note, nil
				}
				n.Links[i] = r
				changed = true
			}
		}
		if changed {
			v.Diagnostics = append(withoutLinkDiagnostics(v.Diagnostics), v.linkDiagnostics()...)
			v.Diagnostics.Sort()
		}
	}
}

// withoutLinkDiagnostics drops what linkDiagnostics reported.
func withoutLinkDiagnostics(ds diag.List) diag.List {
	out := ds[:0:0]
	for _, d := range ds {
		switch d.Code {
		case "broken-link", "broken-anchor", "private-link":
			continue
		}
		out = append(out, d)
	}
	return out
}
