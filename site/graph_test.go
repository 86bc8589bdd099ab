package site_test

import (
	"encoding/json"
	"testing"

	"github.com/dreamwiki/dreamwiki/internal/build"
	"github.com/dreamwiki/dreamwiki/internal/buildtest"
)

// The global graph is laid out at build time: graph-data.js gives every
// node a position, and two builds of the same workspace write the same
// bytes (the layout has a fixed start and a fixed number of steps).
func TestGraph_LayoutIsInTheDataAndTheSameOnEveryBuild(t *testing.T) {
	a := buildtest.BuildWith(t, build.Options{Demo: true})
	b := buildtest.BuildWith(t, build.Options{Demo: true})
	data := a.Read("site/assets/graph-data.js")
	if data != b.Read("site/assets/graph-data.js") {
		t.Fatal("two builds of the demo wrote different graph data")
	}
	obj := buildtest.GraphJSON(data)
	var g struct {
		Nodes [][3]any
		Links []int
		XY    []int
	}
	if err := json.Unmarshal([]byte(obj), &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) < 100 || len(g.XY) != 2*len(g.Nodes) {
		t.Fatalf("%d coordinates for %d nodes", len(g.XY), len(g.Nodes))
	}
	distinct := map[[2]int]bool{}
	for i := range g.Nodes {
		distinct[[2]int{g.XY[2*i], g.XY[2*i+1]}] = true
	}
	if len(distinct) < len(g.Nodes)*9/10 {
		t.Errorf("%d distinct positions for %d nodes", len(distinct), len(g.Nodes))
	}
}
