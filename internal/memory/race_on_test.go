//go:build race

package memory

// raceEnabled lets the slowest equivalence tests sample their inputs: the
// race detector slows the regexps some thirtyfold, and the classifiers
// share no state it could find races in.
const raceEnabled = true
