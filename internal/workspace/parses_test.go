package workspace

import (
	"reflect"
	"testing"
)

// Loads that share a Parses read a recall store once per distinct text:
// a second load of the same store gets the same entries and the same
// warnings, a changed store is read again.
func TestParses_ReadsTheRecallStoreOncePerText(t *testing.T) {
	store := `{"version":1,"entries":{"memory:memory/2026-04-17.md:7:7":{"snippet":"a","recallCount":2},"bad":1}}`
	changed := `{"version":1,"entries":{"memory:memory/2026-04-17.md:7:7":{"snippet":"a","recallCount":3}}}`
	p := &Parses{}
	load := func(text string) *Workspace {
		ws, err := LoadFS(mapFS("-- memory/.dreams/short-term-recall.json --\n"+text+"\n"), Options{Parses: p})
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	first, again, other := load(store), load(store), load(changed)
	if len(first.Recall.Entries) != 1 || first.Recall.Entries[0] != again.Recall.Entries[0] {
		t.Errorf("the second load read the store again")
	}
	if d1, d2 := diagsWith(first.Diagnostics, "json"), diagsWith(again.Diagnostics, "json"); len(d1) != 1 || !reflect.DeepEqual(d1, d2) {
		t.Errorf("warnings: first load %v, second %v", d1, d2)
	}
	if other.Recall.Entries[0].RecallCount != 3 {
		t.Errorf("a changed store was not read again: %+v", other.Recall.Entries[0])
	}
	alone := loadTxtar(t, "-- memory/.dreams/short-term-recall.json --\n"+store+"\n")
	if !reflect.DeepEqual(alone.Recall.Entries, first.Recall.Entries) || !reflect.DeepEqual(alone.Diagnostics, first.Diagnostics) {
		t.Errorf("a load with Parses differs from one without")
	}
}
