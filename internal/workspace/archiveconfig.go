package workspace

import "github.com/dreamwiki/dreamwiki/internal/diag"

// ReadArchiveConfig parses the text of archives/archive-config.json as Load
// does, so that a writer of archives (dreamwiki archive) names groups and
// topics exactly as the reader will label them.
func ReadArchiveConfig(content string) (*ArchiveConfig, diag.List) {
	var d diag.List
	c := parseArchiveConfig(&File{Path: "archives/archive-config.json", Kind: KindData, Content: content}, &d)
	return c, d
}

// TopicLess orders conversation topic ids as Load sorts them ("2" before
// "10"), for writers that list topics in the same order.
func TopicLess(a, b string) bool { return naturalLess(a, b) }
