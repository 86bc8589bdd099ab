// Package search is dreamwiki's search: analysis (text to terms, in
// analyze.go), the static shard writer, the query engine and the bleve
// index behind `dreamwiki search` and serve mode.
//
// Every side of search turns text into terms with Analyze and nothing else:
// the static index, the browser's query parser (assets/search/analyze.ts,
// which is kept byte-identical by testdata/analysis.json) and bleve agree on
// terms only because they share it. Search is given documents by earlier
// stages; it never reads the workspace's files itself.
package search
