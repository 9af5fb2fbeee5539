package dgt

import (
	"errors"
	"fmt"
	"time"
)

// LogPress is a clock-lever press found in the EEPROM log, with the board
// as it stood at that moment: after a host crash, the position after each
// move.
type LogPress struct {
	Position Position
	// Left: the press halted the left display, whose time is Time.
	Left bool
	Time time.Duration
}

// Recovery is what a board's EEPROM log tells about the game on it.
type Recovery struct {
	// Anchor is the marker the replay started from: the last start
	// position (EEBeginPos, EEBeginPosRot), or the bus start tag
	// (EEStartTag), or failing those the last power-up (EEPowerUp).
	Anchor byte
	// Orientation is Normal or Rotated when the anchor is a start
	// position, Undecided otherwise.
	Orientation Orientation
	Start       Position
	Presses     []LogPress
	Final       Position
	// Damaged counts log bytes that made no tag and were skipped.
	Damaged int
}

// ErrNoAnchor is returned by [Recover] for a log with no start position,
// start tag or power-up to replay from.
var ErrNoAnchor = errors.New("dgt: the log holds no start position, start tag or power-up to replay from")

// Recover replays the board's own log (DGT_SEND_EE_MOVES) from the game's
// beginning, as a host does after a crash: from the last start position
// or start tag, every field change in order, the board cleared and
// rebuilt at a power-up, and the board noted at every lever press. A log
// that does not end with EE_EOF was cut short and is refused.
func Recover(l *Log) (*Recovery, error) {
	if !l.EOF {
		return nil, fmt.Errorf("dgt: the log download was cut short (no EE_EOF after %d tags)", len(l.Tags))
	}
	anchor := logAnchor(l.Tags)
	if anchor < 0 {
		return nil, ErrNoAnchor
	}
	r := &Recovery{Anchor: l.Tags[anchor].Marker, Damaged: len(l.Errors)}
	switch r.Anchor {
	case EEBeginPos:
		r.Start, r.Orientation = StartPosition, Normal
	case EEBeginPosRot:
		r.Orientation = Rotated
		for f, p := range StartPosition {
			r.Start[63-f] = p
		}
	}
	b := r.Start
	for _, t := range l.Tags[anchor+1:] {
		switch t.Kind {
		case TagField:
			b[t.Field] = t.Piece
		case TagTime:
			r.Presses = append(r.Presses, LogPress{Position: b, Left: t.Left, Time: t.Time})
		case TagMarker:
			if t.Marker == EEPowerUp {
				b = Position{} // the pieces found at power-up follow
			}
		}
	}
	r.Final = b
	return r, nil
}

// logAnchor returns the index of the tag to replay tags from: the last
// start position or start tag, else the last power-up, else -1.
func logAnchor(tags []LogTag) int {
	anchor, power := -1, -1
	for i, t := range tags {
		if t.Kind != TagMarker {
			continue
		}
		switch t.Marker {
		case EEBeginPos, EEBeginPosRot, EEStartTag:
			anchor = i
		case EEPowerUp:
			power = i
		}
	}
	if anchor < 0 {
		return power
	}
	return anchor
}
