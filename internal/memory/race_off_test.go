//go:build !race

package memory

const raceEnabled = false
