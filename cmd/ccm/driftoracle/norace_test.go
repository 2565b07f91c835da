//go:build !race

package driftoracle_test

const raceEnabled = false

// slowdown is 1 without the race detector (see race_test.go).
const slowdown = 1
