package arbiter

import (
	"slices"

	"arbiter/board"
	"arbiter/rules"
)

// FromSensor translates a sensor-board driver event into a session event;
// it reports false for events a session has no use for (handshakes,
// pongs, health other than losing or regaining the link), which the
// caller handles itself. Instants are
// the board's timestamps mapped to host time when the mapping is known,
// and the receive time otherwise.
func FromSensor(e board.Event) (Event, bool) {
	at := e.Host
	if e.Mapped {
		at = e.At
	}
	ev := Event{At: at, BoardMs: e.BoardMs, RawSeq: e.RawSeq}
	switch e.Kind {
	case board.EventSquare:
		ev.Kind, ev.Square, ev.Height = SquareChanged, e.Square, e.Height
		if e.Top.Known {
			ev.Top = e.Top.Piece
		}
	case board.EventZone:
		ev.Kind, ev.Zone, ev.Count = ZoneChanged, e.Zone, e.Count
	case board.EventButton:
		return fromButton(ev, e)
	case board.EventSnapshot:
		return fromSnapshot(ev, e.Snapshot)
	case board.EventHeartbeat:
		ev.Kind = Heartbeat
	case board.EventClock:
		ev.Kind, ev.Clock = Heartbeat, e.Clock != nil
		if ev.Clock && e.Clock.TurnKnown {
			ev.ClockTurn, ev.ClockTurnKnown = e.Clock.Turn.Color()
		}
	case board.EventHealth:
		ev.At = e.Host // the driver's judgement, not a frame's
		return fromHealth(ev, e.Health)
	case board.EventGap:
		ev.Kind = Gap
	case board.EventHistory:
		return fromHistory(ev, e)
	default:
		return ev, false
	}
	return ev, true
}

// fromSnapshot completes ev from the board's whole state sn.
func fromSnapshot(ev Event, sn *board.Snapshot) (Event, bool) {
	if sn == nil {
		return ev, false
	}
	ev.Kind = StateDump
	ev.Heights, ev.Tops = dumpOf(sn)
	for _, z := range sn.Zones {
		ev.ZoneCounts = append(ev.ZoneCounts, z.Count)
	}
	return ev, true
}

// buttonKinds are the session's events of the board's buttons.
var buttonKinds = map[board.ButtonKind]EventKind{
	board.ButtonClock: ClockPressed, board.ButtonAdjust: AdjustPressed, board.ButtonArbiter: ArbiterCalled,
	board.ButtonOffer: OfferPressed, board.ButtonResign: ResignPressed, board.ButtonClaim: ClaimPressed,
	board.ButtonAnswer: Answered,
}

// fromButton completes ev from a button event e: a press of a side's
// button (the arbiter's may have no side), not a release.
func fromButton(ev Event, e board.Event) (Event, bool) {
	kind, known := buttonKinds[e.Button]
	if !e.Pressed || !known {
		return ev, false
	}
	side, ok := e.Side.Color()
	ev.Kind, ev.Side, ev.Recovered = kind, side, e.Recovered
	if kind == Answered {
		if ev.Choice, known = answerChoice(e); !known {
			return ev, false
		}
	}
	return ev, ok || kind == ArbiterCalled
}

// answerChoice is the Choice of an answer button's press e; ok is false
// for a value that answers nothing.
func answerChoice(e board.Event) (choice int, ok bool) {
	switch {
	case e.Recovered:
		// A press recovered from a dump's counters has lost its value:
		// guessing could commit a move nobody chose, so the question is
		// asked again.
		return AnswerLost, true
	case e.Value == board.AnswerYes:
		return AnswerYes, true
	case e.Value == board.AnswerNo:
		return AnswerNo, true
	case e.Value < board.AnswerChoice:
		return 0, false
	}
	return int(e.Value - board.AnswerChoice), true
}

// fromHealth completes ev from the driver's judgement of the link: lost
// or regained; other judgements are no session's business.
func fromHealth(ev Event, h board.Health) (Event, bool) {
	switch h {
	case board.Disconnected, board.NotResponding:
		ev.Kind = LinkLost
	case board.Active:
		ev.Kind = LinkRestored
	default:
		return ev, false
	}
	return ev, true
}

// fromHistory completes ev from a board's log of its presses, read after
// the host lost the board; a log that could not be read is none.
func fromHistory(ev Event, e board.Event) (Event, bool) {
	if e.Err != nil {
		return ev, false
	}
	ev.Kind = Recalled
	ev.Presses = make([]LoggedPress, 0, len(e.History))
	for _, p := range e.History {
		if p.Snapshot == nil {
			continue
		}
		heights, tops := dumpOf(p.Snapshot)
		side, ok := p.Side.Color()
		ev.Presses = append(ev.Presses, LoggedPress{Heights: heights, Tops: tops, Side: side, SideKnown: ok})
	}
	return ev, true
}

// dumpOf returns a snapshot's heights and sensed top pieces, in sensor
// order.
func dumpOf(s *board.Snapshot) ([]int, []rules.Piece) {
	tops := make([]rules.Piece, len(s.Squares))
	for i, q := range s.Squares {
		if q.Top.Known {
			tops[i] = q.Top.Piece
		}
	}
	return s.Heights(), tops
}

// CapsOfBoard maps a board's handshake onto what the session compares:
// its capabilities (CapsOf) and the zones it counts, which may be some of
// the game's only, or none.
func CapsOfBoard(h *board.Info) Caps {
	c := CapsOf(h.Caps)
	c.Zones = c.Zones && len(h.Zones) > 0
	if c.Zones {
		c.Trays = slices.Clone(h.Zones)
	}
	return c
}

// CapsOf maps a board's handshake capabilities onto what the session
// compares, the board counting every zone of the game if it counts zones
// (CapsOfBoard knows which). What a board reports of a top piece with them is
// board.Sensor.Identify's to say (Caps.project).
func CapsOf(c board.Caps) Caps {
	return Caps{
		TopKind:  c&board.CapIdentity != 0,
		TopFace:  c&board.CapFace != 0,
		TopColor: c&board.CapColor != 0,
		Zones:    c&(board.CapZoneCount|board.CapZoneIdentity) != 0,
		NoPress:  c&board.CapNoPress != 0,
	}
}
