// Package demo embeds a complete, realistic agent workspace: two months
// (2026-09-15 to 2026-11-20) of the assistant "Juniper" working for Sam
// Okafor, a platform engineer in Lisbon. It exercises every input format
// dreamwiki reads (MEMORY.md in all entry shapes, daily logs, L2 topic
// files, the dream log, DREAMS.md, the recall store, memory-meta.json,
// conversation archives and bootstrap files), including a superseded fact,
// a lapsed permission, a claim without evidence and a few clearly fake
// credentials for the secret guard.
//
// `dreamwiki build --demo` and the tests of other packages read it through
// FS. The package only serves files; it never writes.
package demo

import (
	"embed"
	"io/fs"
)

//go:embed all:workspace
var files embed.FS

// FS returns the demo workspace as a read-only file system rooted at the
// workspace folder, so "MEMORY.md" and "memory/2026-10-21.md" are valid
// paths.
func FS() fs.FS {
	sub, err := fs.Sub(files, "workspace")
	if err != nil {
		// fs.Sub only fails on an invalid path, and "workspace" is valid.
		panic("demo: " + err.Error())
	}
	return sub
}
