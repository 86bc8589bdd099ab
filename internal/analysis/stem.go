package analysis

import "github.com/blevesearch/go-porterstemmer"

// Stem reduces an English word to its Porter stem ("points" and "point",
// "retrained" and "retrain" meet), so that a claim reworded from its log
// line still shares its words. Only plain ASCII words of four letters or
// more are stemmed: identifiers, numbers and other scripts stay as they
// are.
func Stem(w string) string {
	if len(w) < 4 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	return porterstemmer.StemString(w)
}
