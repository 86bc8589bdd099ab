// Command gen writes a synthetic workspace of N notes, for bench/compare.sh.
//
//	go run ./bench/gen -n 10000 -out /tmp/ws
//	go run ./bench/gen -n 1000 -shape keys -out /tmp/ws-keys   # entries under "Decision:"/"Next:"
//	go run ./bench/gen -n 1000 -recall-mb 16 -out /tmp/ws-recall # and a 16 MB recall store
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
	recallMB := flag.Float64("recall-mb", 0, "also write memory/.dreams/short-term-recall.json of this many MB (OpenClaw's shape)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out is required")
		os.Exit(2)
	}
	if err := synth.Write(*out, synth.Options{Notes: *n, Seed: *seed, Shape: synth.Shape(*shape), RecallBytes: int(*recallMB * (1 << 20))}); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
