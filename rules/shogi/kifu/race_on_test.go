//go:build race

package kifu

// raceEnabled trims the longest searches under the race detector, which
// slows them tenfold without finding anything in single-goroutine code.
const raceEnabled = true
