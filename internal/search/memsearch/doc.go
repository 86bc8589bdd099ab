// Package memsearch is memory_search and memory_get for `dreamwiki
// search`, `dreamwiki get` and serve mode's /api/search and /api/get:
// workspace files cut into chunks of lines (Chunks), indexed in a
// persisted bleve index (Index) with our own analysis, ranked by package
// search, and answered with citations (path#Lx-Ly) that Get reads back.
//
// The files, by job:
//
//	chunks.go  Chunk: workspace lines, labelled from the vault
//	bleve.go   Index: the persisted bleve index, updates and Search
//	query.go   the query syntax
//	output.go  memory_search's JSON and the terminal listing
//	get.go     Get, memory_get
package memsearch
