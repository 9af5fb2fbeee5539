//go:build !race

package kifu

const raceEnabled = false
