package dgt

import (
	"errors"
	"fmt"
	"time"
)

// TextWidth is how many characters a DGT 3000 shows at once.
const TextWidth = 8

// textRounds is how often the frames of a text that stays go round before
// its first frame stays.
const textRounds = 3

// Text is what a DGT 3000 shows in place of the times: one frame of up to
// [TextWidth] characters, or several shown in turn, each for
// Config.TextStep, as a longer text scrolls. A text that stays goes round
// its frames three times and then keeps its first one (the headline) until
// the next text or [Session.EndText]; a brief one goes round once and
// gives the display back to the times.
type Text struct {
	Frames []string
	// Beep sounds with the first frame: 0 (none) to 15.
	Beep  byte
	Brief bool
}

// ShowText shows t on a DGT 3000 from now on, in place of any text
// shown or scrolling: its frames are queued as clock commands, one at a
// time ([Session.ClockCommand]). A frame longer than TextWidth is
// refused.
func (s *Session) ShowText(t Text, now time.Duration) error {
	if len(t.Frames) == 0 {
		return errors.New("dgt: a text without frames")
	}
	for _, f := range t.Frames {
		if len(f) > TextWidth {
			return fmt.Errorf("dgt: text frame %q longer than the clock's %d characters", f, TextWidth)
		}
	}
	s.Tick(now)
	t.Frames = append([]string(nil), t.Frames...)
	s.text, s.textShown = &t, 0
	s.nextFrame(now)
	return nil
}

// EndText gives the display back to the times at now, ending any text.
func (s *Session) EndText(now time.Duration) {
	s.Tick(now)
	s.text = nil
	s.enqueue(EndText(), ClockEnd, now)
}

// nextFrame queues the text's next frame at now, or after its last the
// end of the text (the times again, or its first frame to stay).
func (s *Session) nextFrame(now time.Duration) {
	t := s.text
	n := len(t.Frames)
	rounds := textRounds
	if t.Brief {
		rounds = 1
	}
	switch {
	case s.textShown < n*rounds && (n > 1 || s.textShown == 0):
		i := s.textShown % n
		beep := byte(0)
		if s.textShown == 0 {
			beep = t.Beep
		}
		s.textShown++
		s.textDue = now + s.cfg.TextStep
		if n == 1 && !t.Brief {
			s.text = nil // one frame that stays: nothing more to do
		}
		s.enqueue(ShowText(t.Frames[i], beep), ClockASCII, now)
	case t.Brief:
		s.text = nil
		s.enqueue(EndText(), ClockEnd, now)
	default:
		s.text = nil
		s.enqueue(ShowText(t.Frames[0], 0), ClockASCII, now)
	}
}
