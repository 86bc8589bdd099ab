// Package history reads a workspace as it stood at an earlier time, for
// `build --as-of`, `check --as-of` and `diff`. Its sources, most faithful
// first: the workspace's git history (the last commit at or before the
// time, read with go-git, no git binary); the dream backups in
// .backup/memory-dreams (each file as the first later dream found it)
// with daily logs written after the time left out; and, when there is
// neither, the workspace as it is now with those daily logs left out
// (the caller then drops the claims created after the time). A Snapshot
// says which source it used.
//
// history only reads: it never writes to the workspace, its git
// repository or its backups, and it never shows a path the caller hides
// (the files private now stay private in every past version).
package history
