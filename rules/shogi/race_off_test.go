//go:build !race

package shogi

const raceEnabled = false
