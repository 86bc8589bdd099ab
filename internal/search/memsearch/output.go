package memsearch

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteResults prints results for a person (numbered citations with
// their snippets) or, with asJSON, as OpenClaw's memory_search answer:
// {"results":[{path,startLine,endLine,score,snippet,source,citation}]}.
//
// Results are written best score first: the score printed beside each is
// its relevance, and a list whose scores go up and down reads as broken
// (re-ranking for diversity decides which results make the list, not
// their order in it).
func WriteResults(w io.Writer, results []Result, asJSON bool) error {
	results = slices.Clone(results)
	slices.SortStableFunc(results, func(a, b Result) int { return cmp.Compare(b.Score, a.Score) })
	if asJSON {
		if results == nil {
			results = []Result{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			Results []Result `json:"results"`
		}{results})
	}
	if len(results) == 0 {
		_, err := fmt.Fprintln(w, "No results.")
		return err
	}
	for i, r := range results {
		labels := r.Source
		if r.Superseded {
			labels += ", superseded"
		}
		if r.Lapsed {
			labels += ", lapsed permission"
		}
		fmt.Fprintf(w, "%d. %s  (%s, %.2f)\n", i+1, r.Citation, labels, r.Score)
		for _, line := range strings.Split(r.Snippet, "\n") {
			fmt.Fprintf(w, "   %s\n", line)
		}
	}
	return nil
}
