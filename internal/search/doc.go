// Package search holds what every side of dreamwiki's search shares: Doc,
// a published note as search sees it, and the one ranking (Params, BM25F,
// Decay, Rank with its merge, decay, MMR and supersession, and which terms
// are matched with typos), which assets/search/rank.ts mirrors line for
// line.
//
// The sides are packages of their own, and all turn text into terms with
// analysis.Analyze and nothing else, so they agree on every term:
//
//	staticindex  the static index the site's browser search reads
//	             (assets/search/engine.ts), written from Docs
//	memsearch    memory_search and memory_get for `dreamwiki search`,
//	             `dreamwiki get` and serve mode: workspace lines with
//	             citations, in a persisted bleve index
//
// Search is given values by earlier stages (vault notes, workspace files as
// read); it never reads the workspace's files itself.
package search
