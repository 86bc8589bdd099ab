// Package provenance links every claim of an agent's memory to the lines
// it came from, to answer "why does my agent believe this?". It turns
// every entry of MEMORY.md, of each L2 topic file and of the archive into a
// claim with a stable id, pairs each claim with the lines it came from
// (explicit pointers first, then the recall store and events, then text
// matching over daily logs and conversation summaries through an inverted
// index), scores it with the decay rules of package memory, links
// supersession chains, and reports what does not add up as lint findings.
//
// Analyze is pure: it reads values from the workspace model and returns
// values. It never reads or writes files, never looks at the wall clock
// (the evaluation date is an option) and never invents evidence: a claim
// nothing supports is reported, not propped up.
//
// Evidence block ids: each evidence line is addressed by the block that
// holds it (a list item, a paragraph or a quote) and named "e<N>", N being
// the 1-based line of the workspace file where that block starts, so
// memory/2026-10-21.md line 4 is "^e4". The vault appends "^e<N>" to the
// block's last line, which is where Obsidian looks for a block id. A block
// that already carries an id keeps it and evidence links use that id.
package provenance
