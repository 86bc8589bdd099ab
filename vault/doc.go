// Package vault turns the workspace model into the provenance vault: the
// Obsidian-compatible set of notes that is dreamwiki's intermediate form.
//
// Build takes the notes to publish (the workspace's files mapped onto the
// layout of DESIGN 4.1, plus generated notes), parses each once with the
// Markdown engine, and resolves every link by Obsidian's rules, so that
// later stages (the site, search) work from values and never re-read
// files. Write writes the vault as Markdown with normalised front matter
// and links kept as wikilinks. The package never modifies the workspace.
package vault
