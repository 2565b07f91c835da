//go:build !race

package driftoracle_test

const raceEnabled = false
