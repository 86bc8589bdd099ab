// Package memory holds the pure rules behind an agent's memory life cycle:
// decay scores and tiers (DESIGN 5.1), deep-phase promotion signals and gates
// (5.2), permission expiry (5.5), lifecycle markers that keep closed work
// closed, and the subject/value reading used to spot a fact that replaces
// an older one.
//
// Every function is pure: it takes the text or numbers it judges and, where
// time matters, the current time as an argument, and returns a value. The
// package never reads or writes files, never looks at the wall clock and
// keeps no state, so the dream cycle, the site and the tests all get the
// same answer for the same input. Reading memory-meta.json and the recall
// store is the workspace package's job; writing is the dream package's.
package memory
