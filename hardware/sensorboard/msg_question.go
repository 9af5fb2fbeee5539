package sensorboard

import (
	"arbiter/board"
	"arbiter/rules"
)

// QuestionMsg shows the player to move a question and its ordered
// choices. Choice n (from 0) is answered with AnswerChoice+n; a promotion
// question is also answered with AnswerYes (choice 0) and AnswerNo
// (choice 1). A new QUESTION, an ACK_MOVE, or a QUESTION of kind
// QuestionNone replaces the question shown.
type QuestionMsg board.Question

// Type implements [Message].
func (*QuestionMsg) Type() Type { return TypeQuestion }

// AppendPayload implements [Message]. Choices beyond MaxChoices are left
// out: the board could not answer them.
func (m *QuestionMsg) AppendPayload(dst []byte) []byte {
	cs := m.Choices
	if len(cs) > board.MaxChoices {
		cs = cs[:board.MaxChoices]
	}
	dst = append(dst, byte(m.Side), byte(m.Kind))
	dst = appendStr(dst, cutText(m.Text))
	dst = append(dst, byte(len(cs)))
	for _, c := range cs {
		dst = appendU16(dst, uint16(c.From))
		dst = appendU16(dst, uint16(c.To))
		dst = appendStr(dst, cutTo(c.Text, board.MaxChoiceText))
	}
	return dst
}

// UnmarshalPayload implements [Message].
func (m *QuestionMsg) UnmarshalPayload(p []byte) error {
	r := reader{msg: "QUESTION", b: p}
	m.Side = board.Side(r.u8("side"))
	m.Kind = board.QuestionKind(r.u8("kind"))
	m.Text = r.str("text")
	n := int(r.u8("choices"))
	if r.err == nil {
		m.check(&r, n)
	}
	m.Choices = m.Choices[:0]
	for i := 0; i < n && r.err == nil; i++ {
		r.i = i
		c := board.Choice{From: rules.Square(int16(r.u16("choice # from"))), To: rules.Square(int16(r.u16("choice # to"))), Text: r.str("choice # text")}
		if r.err == nil && len(c.Text) > board.MaxChoiceText {
			r.fail("choice # text", "%d bytes, at most %d", len(c.Text), board.MaxChoiceText)
		}
		m.Choices = append(m.Choices, c)
	}
	if len(m.Choices) == 0 {
		m.Choices = nil
	}
	return r.err
}

// check checks the side, kind and text of a question read by r, and its
// number of choices n, failing r at the first thing wrong.
func (m *QuestionMsg) check(r *reader, n int) {
	switch {
	case m.Side != board.SideFirst && m.Side != board.SideSecond && m.Side != board.SideNone:
		r.fail("side", "side 0x%02x", uint8(m.Side))
	case m.Kind > board.QuestionPromote:
		r.fail("kind", "unknown kind %d", m.Kind)
	case len(m.Text) > MaxText:
		r.fail("text", "%d bytes, at most %d", len(m.Text), MaxText)
	case n > board.MaxChoices:
		r.fail("choices", "%d choices, at most %d", n, board.MaxChoices)
	case m.Kind == board.QuestionNone && n != 0:
		r.fail("choices", "%d choices in a cleared question", n)
	case m.Kind == board.QuestionPromote && n != 2:
		r.fail("choices", "a promotion question has 2 choices, not %d", n)
	}
}
