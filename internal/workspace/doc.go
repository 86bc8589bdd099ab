// Package workspace reads an agent's memory workspace (MEMORY.md, daily
// logs, L2 topic files, dream logs, DREAMS.md, recall and decay state,
// conversation archives, bootstrap files and every other note) into a typed
// model; it never writes.
//
// Load reads a directory on disk and LoadFS any fs.FS (the embedded demo,
// tests). Both walk the workspace in sorted order, skip what DESIGN section 3
// says is never read (.git, node_modules, .backup, .dreamwiki, the output
// folder, dot-folders other than memory/.dreams, dotfiles, configured
// excludes), never follow a symbolic link out of the workspace, and turn
// every problem with the input (invalid UTF-8, bad JSON, an oversized file,
// an escaping symlink) into a diagnostic with file and line. Only a missing
// or unreadable workspace root is an error.
//
// The same input always gives the same model: every slice is sorted and no
// value depends on the order files were read in.
package workspace
