//go:build race

package tavreli

// raceEnabled makes the heaviest tests use their short workloads under the
// race detector, which slows the naive reference generator tenfold.
const raceEnabled = true
