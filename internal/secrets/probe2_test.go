package secrets

import (
	"os"
	"strings"
	"testing"
)

func BenchmarkProbeAuto(b *testing.B) {
	ord, _ := os.ReadFile("testdata/ordinary.txt")
	text := strings.Repeat(string(ord), (4<<20)/len(ord))
	a := theGuard().auto
	b.Logf("states %d width %d final %d", len(a.delta)/a.width, a.width, a.final)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		n := 0
		a.scan(text, func(id, s, e int) bool { n++; return false })
	}
}

func BenchmarkProbeTriggerTable(b *testing.B) {
	ord, _ := os.ReadFile("testdata/ordinary.txt")
	text := strings.Repeat(string(ord), (4<<20)/len(ord))
	var tab [256]bool
	for _, c := range []byte("-:AasgxBbepP\xE5\xE3") {
		tab[c] = true
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		n := 0
		for i := 0; i < len(text); i++ {
			if tab[text[i]] {
				n++
			}
		}
		_ = n
	}
}
