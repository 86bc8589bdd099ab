package analysis

import "cmp"

// Overlap is |a∩b|, the count every set similarity starts from. It walks
// the smaller set.
func Overlap[K comparable, V any](a, b map[K]V) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for k := range a {
		if _, ok := b[k]; ok {
			n++
		}
	}
	return n
}

// Jaccard is |a∩b| / |a∪b| of two sets; an empty set is related to
// nothing (0).
func Jaccard[K comparable, V any](a, b map[K]V) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return jaccard(Overlap(a, b), len(a), len(b))
}

// JaccardSorted is Jaccard of two sets held as sorted slices without
// repeats, such as the term ids search compares result by result.
func JaccardSorted[T cmp.Ordered](a, b []T) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	i, j, inter := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return jaccard(inter, len(a), len(b))
}

func jaccard(inter, na, nb int) float64 {
	return float64(inter) / float64(na+nb-inter)
}

// Dice is 2|a∩b| / (|a|+|b|) of two sets; an empty set is related to
// nothing (0). It weighs what two texts share more than Jaccard does, for
// a short text restating part of a longer one.
func Dice[K comparable, V any](a, b map[K]V) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return 2 * float64(Overlap(a, b)) / float64(len(a)+len(b))
}
