package arbiter

import (
	"arbiter/hardware/sensorboard"
	"arbiter/rules"
)

// FromSensor translates a sensor-board driver event into a session event;
// it reports false for events a session has no use for (handshakes,
// pongs, health other than losing or regaining the link), which the
// caller handles itself. Instants are
// the board's timestamps mapped to host time when the mapping is known,
// and the receive time otherwise.
func FromSensor(e sensorboard.Event) (Event, bool) {
	at := e.Host
	if e.Mapped {
		at = e.At
	}
	ev := Event{At: at, BoardMs: e.BoardMs, RawSeq: e.RawSeq}
	switch e.Kind {
	case sensorboard.EventSquare:
		ev.Kind, ev.Square, ev.Height = SquareChanged, e.Square, e.Height
		if e.Top.Known {
			ev.Top = e.Top.Piece
		}
	case sensorboard.EventZone:
		ev.Kind, ev.Zone, ev.Count = ZoneChanged, e.Zone, e.Count
	case sensorboard.EventButton:
		if !e.Pressed {
			return ev, false
		}
		side, ok := e.Side.Color()
		ev.Side, ev.Recovered = side, e.Recovered
		switch e.Button {
		case sensorboard.ButtonClock:
			ev.Kind = ClockPressed
		case sensorboard.ButtonAdjust:
			ev.Kind = AdjustPressed
		case sensorboard.ButtonArbiter:
			ev.Kind = ArbiterCalled
		case sensorboard.ButtonOffer:
			ev.Kind = OfferPressed
		case sensorboard.ButtonResign:
			ev.Kind = ResignPressed
		case sensorboard.ButtonClaim:
			ev.Kind = ClaimPressed
		case sensorboard.ButtonAnswer:
			ev.Kind = Answered
			switch {
			case e.Recovered:
				// A press recovered from a dump's counters has lost its
				// value: guessing could commit a move nobody chose, so the
				// question is asked again.
				ev.Choice = AnswerLost
			case e.Value == sensorboard.AnswerYes:
				ev.Choice = AnswerYes
			case e.Value == sensorboard.AnswerNo:
				ev.Choice = AnswerNo
			case e.Value < sensorboard.AnswerChoice:
				return ev, false
			default:
				ev.Choice = int(e.Value - sensorboard.AnswerChoice)
			}
		default:
			return ev, false
		}
		if !ok && ev.Kind != ArbiterCalled {
			return ev, false
		}
	case sensorboard.EventSnapshot:
		if e.Snapshot == nil {
			return ev, false
		}
		ev.Kind = StateDump
		ev.Heights = e.Snapshot.Heights()
		ev.Tops = make([]rules.Piece, len(e.Snapshot.Squares))
		for i, s := range e.Snapshot.Squares {
			if s.Top.Known {
				ev.Tops[i] = s.Top.Piece
			}
		}
		for _, z := range e.Snapshot.Zones {
			ev.ZoneCounts = append(ev.ZoneCounts, z.Count)
		}
	case sensorboard.EventHeartbeat:
		ev.Kind = Heartbeat
	case sensorboard.EventHealth:
		ev.At = e.Host // the driver's judgement, not a frame's
		switch e.Health {
		case sensorboard.Disconnected, sensorboard.NotResponding:
			ev.Kind = LinkLost
		case sensorboard.Active:
			ev.Kind = LinkRestored
		default:
			return ev, false
		}
	case sensorboard.EventGap:
		ev.Kind = Gap
	default:
		return ev, false
	}
	return ev, true
}

// CapsOf maps a board's handshake capabilities onto what the session
// compares. What a board reports of a top piece with them is
// sensorboard.Sensor.Identify's to say (Caps.project).
func CapsOf(c sensorboard.Caps) Caps {
	return Caps{
		TopKind:  c&sensorboard.CapIdentity != 0,
		TopFace:  c&sensorboard.CapFace != 0,
		TopColor: c&sensorboard.CapColor != 0,
		Zones:    c&(sensorboard.CapZoneCount|sensorboard.CapZoneIdentity) != 0,
	}
}
