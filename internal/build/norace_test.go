//go:build !race

package build

// raceDetector is set when the tests run with -race (see race_test.go).
const raceDetector = false
