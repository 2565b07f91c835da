//go:build race

package driftoracle_test

// raceEnabled builds the daemon with the race detector when the oracle
// runs under it, so that bursts look for data races in the daemon too.
const raceEnabled = true

// slowdown is how much slower the daemon runs: the race detector slows
// it tenfold, and every wait of the oracle's grows by as much.
const slowdown = 10
