// Package search finds the notes and lines that answer a query, for every
// side of dreamwiki's search: analysis (text to terms), the static index
// the site's browser search reads, the ranking shared by every side, and
// the bleve index behind `dreamwiki search` and serve mode.
//
// Every side of search turns text into terms with Analyze and nothing else:
// the static index, the browser's query parser (assets/search/analyze.ts,
// which is kept byte-identical by testdata/analysis.json) and bleve agree on
// terms only because they share it. Search is given values by earlier
// stages (vault notes, workspace files as read); it never reads the
// workspace's files itself.
//
// The files, by job:
//
//	analyze*.go        the analysis (see Analyze for the rules)
//	corpus.go          Doc: a published note as the static index sees it
//	rank.go            Params, BM25F, Decay and Rank (merge, decay, MMR,
//	                   supersession): the one ranking, which
//	                   assets/search/rank.ts mirrors line for line
//	static*.go         WriteStatic (the index in dist/site/search/) and
//	                   StaticIndex, the reference reader the TypeScript
//	                   engine (assets/search/engine.ts) is tested against
//	chunks.go          Chunk: workspace lines for the CLI, with citations
//	bleve.go, query.go the persisted bleve index and its query syntax
//	output.go          memory_search's JSON and the terminal listing
//
// Quality is measured, not asserted by feel: quality_test.go runs the
// labelled queries of testdata/queries.json through the browser ranking
// (in Go and in TypeScript) and the CLI and prints recall@5 and MRR.
package search
