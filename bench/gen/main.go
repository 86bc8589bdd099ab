// Command gen writes a synthetic workspace of N notes, for bench/compare.sh.
//
//	go run ./bench/gen -n 10000 -out /tmp/ws
//	go run ./bench/gen -n 1000 -shape keys -out /tmp/ws-keys   # entries under "Decision:"/"Next:"
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dreamwiki/dreamwiki/internal/synth"
)

func main() {
	n := flag.Int("n", 1000, "number of notes")
	out := flag.String("out", "", "folder to write the workspace into")
	seed := flag.Int64("seed", 1, "random seed")
	shape := flag.String("shape", string(synth.ShapeUniform), fmt.Sprintf("how topic entries and decisions are written: %v", synth.Shapes))
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out is required")
		os.Exit(2)
	}
	if err := synth.Write(*out, synth.Options{Notes: *n, Seed: *seed, Shape: synth.Shape(*shape)}); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
