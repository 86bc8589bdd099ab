package build

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Fake secrets in shapes the guard knows, and words that only private
// notes hold.
const (
	sessionToken  = "ghp_Qm9ndXNUb2tlbkZvclNlc3Npb25UZXN0czEy"
	sessionAWS    = "AKIAQWERTYUIOPASDFGH"
	privateMarker = "quillwort"
	folderMarker  = "bramblefinch"
)

// sessionWorkspace is where the session starts: two public notes and a
// claim whose evidence is a daily log.
const sessionWorkspace = `
-- MEMORY.md --
# Memory

- Sam keeps his running plan in [[training]]. Source: memory/2026-05-02.md#L3-L3
- The homelab notes are in [[homelab]].
-- memory/2026-05-02.md --
# 2026-05-02

- Sam wants a ten-week plan for the half marathon.
-- notes/training.md --
# Training

Ten weeks, three runs a week.
-- notes/homelab.md --
# Homelab

The NAS sits under the stairs.
`

// TestSession_EditsKeepPrivateNotesAbsentAndSecretsRedacted drives a serve
// session through the edits that change what may be published: a note
// made private and public again, a note moved into a private folder, a
// secret typed into a note, into a daily log that is evidence, and into
// a file name. After each, the site the session serves holds no secret
// and no word of a private note, and is byte for byte a fresh build.
func TestSession_EditsKeepPrivateNotesAbsentAndSecretsRedacted(t *testing.T) {
	// Package build's own tests cannot import buildtest, which imports build.
	dir := t.TempDir()
	if err := txtar.Write(txtar.Parse([]byte(sessionWorkspace)), dir); err != nil {
		t.Fatal(err)
	}
	s, sv, _ := openServed(t, dir)

	steps := []struct {
		name  string
		edit  func(t *testing.T)
		paths []string
		// absent must appear in no file of the site; present in some.
		absent, present []string
	}{
		{"make a note private", func(t *testing.T) {
			write(t, dir, "notes/training.md", "---\nprivate: true\n---\n# Training\n\nTen weeks, "+privateMarker+" included.\n")
		}, []string{"notes/training.md"}, []string{privateMarker, "notes/training.html"}, nil},
		{"edit the private note", func(t *testing.T) {
			edit(t, dir, "notes/training.md", "Ten weeks", "Eleven weeks")
		}, []string{"notes/training.md"}, []string{privateMarker, "Eleven weeks"}, nil},
		{"make it public again", func(t *testing.T) {
			write(t, dir, "notes/training.md", "# Training\n\nTen weeks, "+privateMarker+" included.\n")
		}, []string{"notes/training.md"}, nil, []string{privateMarker}},
		{"move a note into a private folder", func(t *testing.T) {
			write(t, dir, "notes/private/homelab.md", "# Homelab\n\nThe NAS sits under the stairs, "+folderMarker+".\n")
			if err := os.Remove(filepath.Join(dir, "notes/homelab.md")); err != nil {
				t.Fatal(err)
			}
		}, []string{"notes/homelab.md", "notes/private/homelab.md"}, []string{folderMarker, "NAS sits", "notes/homelab.html", "private/homelab"}, nil},
		{"type a secret into a note", func(t *testing.T) {
			edit(t, dir, "notes/training.md", "Ten weeks", "CI token "+sessionToken+". Ten weeks")
		}, []string{"notes/training.md"}, []string{sessionToken}, []string{"[REDACTED:github-token]"}},
		{"type a secret into the evidence of a claim", func(t *testing.T) {
			edit(t, dir, "memory/2026-05-02.md", "half marathon.", "half marathon. Key "+sessionAWS+" for the watch sync.")
		}, []string{"memory/2026-05-02.md"}, []string{sessionAWS}, []string{"[REDACTED:aws-key]"}},
		{"name a file with a secret", func(t *testing.T) {
			write(t, dir, "notes/"+sessionToken+".md", "# Pasted\n\nBy mistake.\n")
		}, []string{"notes/" + sessionToken + ".md"}, []string{sessionToken}, []string{"redacted-github-token.html"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			prior := s.prov.Prior()
			st.edit(t)
			sv.update(t, s, st.paths)
			sv.settle(t, s)
			for _, word := range st.absent {
				for name, b := range sv {
					if strings.Contains(name, word) || bytes.Contains(b, []byte(word)) {
						t.Errorf("%s holds %q", name, word)
					}
				}
			}
			for _, word := range st.present {
				if !servedHas(sv, word) {
					t.Errorf("no file holds %q", word)
				}
			}
			if d := siteDiff(sv, freshBuild(t, Options{Workspace: dir}, prior, s.history)); d != "" {
				t.Fatalf("after the update the site differs from a build:\n%s", d)
			}
		})
	}
}

func servedHas(sv served, word string) bool {
	for name, b := range sv {
		if strings.Contains(name, word) || bytes.Contains(b, []byte(word)) {
			return true
		}
	}
	return false
}
