//go:build race

package build

// raceDetector is set when the tests run with -race, which makes every
// build many times slower: long tests then check fewer steps.
const raceDetector = true
