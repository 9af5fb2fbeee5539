package rules

// Games keep concrete move and position types for speed; these helpers
// adapt them to the interfaces in one place.

// MoveList returns a game's concrete moves as a []Move.
func MoveList[M Move](ms []M) []Move {
	out := make([]Move, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// Played adapts the result of a concrete "play" method to [Position.Play]:
// on error the position is a nil interface, not a typed nil pointer.
func Played[P Position](p P, err error) (Position, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}
