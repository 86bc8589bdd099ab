package analysis

import "strings"

// StopWord reports a word (a term as Words gives it) that says nothing
// about what a line is about: English function words, the pieces
// contractions leave ("it's" gives it, s), and the commonest Chinese
// function characters (a CJK run of one character is a word of its own).
// Search keeps stop words (phrase queries need them); matching claims,
// evidence and recalls leaves them out.
func StopWord(w string) bool { return stopWords[w] }

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but nor so yet of to in on at by for with from into onto
		over under about after before since until till than then as is are was were be been being am
		it its this that these those there here he him his she her hers they them their theirs we us
		our ours you your yours i me my mine not no yes do does did done doing have has had having will
		would shall should can could may might must just only also very too more most less least some any
		all each every both either neither other such own same few many much what which who whom whose
		when where why how if else while again once out up down off per via etc s t re ve ll d m
		的 了 是 在 和 也 就 都 而 及 与 着 或 一 个 我 你 他 她 它 们 这 那 有 不 没 会 要 说`) {
		m[w] = true
	}
	return m
}()
