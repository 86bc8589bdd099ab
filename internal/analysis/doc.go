// Package analysis turns text into terms and compares texts by their
// terms, in one form for every package: the search index, the browser
// (assets/search/analyze.ts, kept byte-identical by testdata/analysis.json),
// evidence matching, claim identity and recall matching. It imports nothing
// of dreamwiki's, so that any package may use it.
//
// The files, by job:
//
//	analyze*.go    Analyze, AnalyzeTokens, EachTerm: folding, compounds,
//	               CJK bigrams (see Analyze for the rules)
//	words.go       Words, WordsAndCompounds, Normalize, WordSet: views of
//	               the same analysis for comparing texts
//	stop.go        StopWord
//	stem.go        Stem (Porter, plain English words)
//	similarity.go  Overlap, Jaccard, JaccardSorted, Dice
package analysis
