// Package staticindex writes the static search index the site's browser
// search reads: sharded by term prefix so that a query fetches only the
// shards of its terms, with a metadata file, trigram shards for typos and
// per-document fragments for snippets (see Write for the files). Terms
// come from analysis.Analyze and ranking knobs from package search, so the
// browser (assets/search/engine.ts) finds and ranks as the CLI does.
//
// Only the browser reads the index in production; reader_test.go holds
// Reader, the reference reader engine.ts follows step by step, which the
// tests and the quality measurements (quality_test.go: recall@5 and MRR of
// the labelled queries in testdata/queries.json, in Go and in TypeScript)
// run against.
package staticindex
