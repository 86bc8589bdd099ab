package secrets

import (
	"os"
	"strings"
	"testing"
)

func probeText() string {
	ord, _ := os.ReadFile("testdata/ordinary.txt")
	return strings.Repeat(string(ord), (4<<20)/len(ord))
}

func BenchmarkProbeAuto(b *testing.B) {
	text := probeText()
	a := theGuard().auto
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		row := int32(0)
		n := 0
		for i := 0; i < len(text); i++ {
			row = a.delta[row+int32(a.class[text[i]])]
			if row < 0 {
				row = ^row
				n++
			}
		}
		_ = n
	}
}

func BenchmarkProbeAutoTrunc(b *testing.B) {
	text := probeText()
	g := theGuard()
	kw := make([]string, len(g.triggers))
	for i, t := range g.triggers {
		kw[i] = t.keyword[:min(len(t.keyword), 4)]
	}
	a := newAutomaton(kw)
	b.Logf("states %d width %d", len(a.delta)/a.width, a.width)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		row := int32(0)
		n := 0
		for i := 0; i < len(text); i++ {
			row = a.delta[row+int32(a.class[text[i]])]
			if row < 0 {
				row = ^row
				n++
			}
		}
		_ = n
	}
}

func BenchmarkProbeTriggerTable(b *testing.B) {
	text := probeText()
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
