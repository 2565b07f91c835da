//go:build race

package main_test

// raceEnabled builds the end-to-end binary with the race detector when
// the tests themselves run under it.
const raceEnabled = true
