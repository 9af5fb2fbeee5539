package eboard

import (
	"errors"
	"fmt"

	"arbiter/board"
	"arbiter/rules"
)

// What the registrations of the protocols that run on a [Driver] share
// (board.Register).

// CheckPort refuses a port found by USB identity: these drivers watch
// paths and patterns (a /dev/serial/by-id path names a USB device).
func CheckPort(p board.Port) []board.KeyProblem {
	if p.USB != (board.USB{}) {
		return []board.KeyProblem{{Key: "usb", Value: fmt.Sprintf("%+v", p.USB),
			Why: "give the board's path (/dev/serial/by-id/...) or a glob"}}
	}
	return nil
}

// PortsOf returns the paths and the patterns of a setup's ports.
func PortsOf(ports []board.Port) (paths, globs []string) {
	for _, p := range ports {
		if p.Path != "" {
			paths = append(paths, p.Path)
		} else if p.Glob != "" {
			globs = append(globs, p.Glob)
		}
	}
	return paths, globs
}

// ProbeOne is a probe's answer for a port that holds one board.
func ProbeOne(info *board.Info, err error) ([]board.Info, error) {
	if err != nil {
		return nil, err
	}
	return []board.Info{*info}, nil
}

// FitsChess refuses a game that a chess e-board cannot show (what names
// the board for the message): one on another board than 8x8, or with a
// piece a chess set does not have, or stacked.
func FitsChess(g rules.Game, what string) error {
	if g == nil {
		return errors.New("a simulated board needs a game")
	}
	i := board.Info{ID: what, Width: 8, Height: 8, Cells: 64}
	if err := i.Fits(g.Geometry()); err != nil {
		return fmt.Errorf("%s cannot be played on %s: %w", g.Name(), what, err)
	}
	for _, st := range g.Start().View().Stacks {
		for _, p := range st {
			if !chessman(p) || len(st) > 1 {
				return fmt.Errorf("%s cannot be played on %s: its %s is not a chess piece", g.Name(), what, p)
			}
		}
	}
	return nil
}

// chessman reports whether p is a piece of a chess set.
func chessman(p rules.Piece) bool {
	switch p.Kind {
	case 'K', 'Q', 'R', 'B', 'N', 'P':
		return p.Color == rules.White || p.Color == rules.Black
	}
	return false
}
