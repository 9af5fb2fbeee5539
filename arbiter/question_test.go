package arbiter_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/arbiter"
	"arbiter/board"
	sb "arbiter/hardware/sensorboard"
	"arbiter/rules"
)

// TestFromSensorAnswers reads every value of the answer button: 1 and 2
// (PROTOCOL 5.4: yes and no, the single answer key's 1) as well as
// 0x10+n; other values are no answer.
func TestFromSensorAnswers(t *testing.T) {
	cases := []struct {
		value  uint8
		choice int
		ok     bool
	}{
		{board.AnswerYes, arbiter.AnswerYes, true},
		{board.AnswerNo, arbiter.AnswerNo, true},
		{board.AnswerChoice, 0, true},
		{board.AnswerChoice + 3, 3, true},
		{0, 0, false},
		{3, 0, false},
	}
	for _, c := range cases {
		ev, ok := arbiter.FromSensor(board.Event{Kind: board.EventButton, Button: board.ButtonAnswer, Side: board.SideSecond, Pressed: true, Value: c.value})
		require.Equal(t, c.ok, ok, "value %#x", c.value)
		if ok {
			assert.Equal(t, arbiter.Answered, ev.Kind, "value %#x", c.value)
			assert.Equal(t, c.choice, ev.Choice, "value %#x", c.value)
			assert.Equal(t, rules.Second, ev.Side)
		}
	}
}

// TestPromptMessage shows a session's promotion question on a shogi
// board: the QUESTION a board receives is a promotion question with the
// promotion as choice 0, the squares in the board's own numbering
// (PROTOCOL 4.1: 8h is cell 10, 2b cell 70), and it survives the wire.
func TestPromptMessage(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	s, err := arbiter.NewSession(arbiter.DefaultConfig(g), g, nil, nil)
	require.NoError(t, err)
	s.Start(0)
	require.NoError(t, s.Resume([]string{"7g7f", "3c3d"}))
	geo := g.Geometry()
	at := 0.0
	sense := func(name string, h int) []arbiter.Output {
		sq, ok := geo.Lookup(name)
		require.True(t, ok, name)
		at += 0.2
		return s.Handle(arbiter.Event{Kind: arbiter.SquareChanged, At: secs(at), Square: rules.Square(geo.SensorIndex(sq)), Height: h})
	}
	sense("b8", 0)
	sense("h2", 0)
	sense("h2", 1)
	outs := s.Handle(arbiter.Event{Kind: arbiter.ClockPressed, Side: rules.First, At: secs(at + 0.5)})
	require.Len(t, outs, 1)
	p, ok := outs[0].(arbiter.Prompt)
	require.True(t, ok, "%T", outs[0])
	assert.True(t, p.Promotion)
	assert.Equal(t, []string{"8h2b+", "8h2b"}, p.Moves)

	q := p.Message(geo)
	assert.Equal(t, board.QuestionPromote, q.Kind)
	assert.Equal(t, board.SideFirst, q.Side)
	require.Len(t, q.Choices, 2)
	// PROTOCOL 6.1: USI first, the Japanese notation for display after it
	// (issue 35 §5).
	assert.Equal(t, "8h2b+ ▲２二角成", q.Choices[0].Text)
	assert.Equal(t, "8h2b ▲２二角不成", q.Choices[1].Text)
	for _, c := range q.Choices {
		assert.Equal(t, rules.Square(10), c.From)
		assert.Equal(t, rules.Square(70), c.To)
	}
	var back sb.QuestionMsg
	require.NoError(t, back.UnmarshalPayload((*sb.QuestionMsg)(q).AppendPayload(nil)))
	assert.Equal(t, sb.QuestionMsg(*q), back)

	// The board's "no" answers it: the bishop did not promote.
	outs = s.Handle(arbiter.Event{Kind: arbiter.Answered, Side: rules.First, Choice: arbiter.AnswerNo, At: secs(at + 1)})
	require.Len(t, outs, 1)
	m, ok := outs[0].(arbiter.MoveMade)
	require.True(t, ok, "%T", outs[0])
	assert.Equal(t, "8h2b", m.Move.String())
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// TestPromptMessageKinds names the question by what the choices are, and
// leaves choices past the fifteenth to the console.
func TestPromptMessageKinds(t *testing.T) {
	g, err := rules.New("shogi", nil)
	require.NoError(t, err)
	geo := g.Geometry()
	e5, ok := geo.Lookup("e5")
	require.True(t, ok)
	drop := arbiter.Prompt{Side: rules.Second, Choices: []string{"P*5e", "S*5e"}, Moves: []string{"P*5e", "S*5e"},
		From: []rules.Square{rules.NoSquare, rules.NoSquare}, To: []rules.Square{e5, e5}}
	q := drop.Message(geo)
	assert.Equal(t, board.QuestionChoose, q.Kind)
	assert.Equal(t, board.SideSecond, q.Side)
	assert.Equal(t, "which piece was dropped?", q.Text)
	assert.Equal(t, []board.Choice{{From: rules.NoSquare, To: 40, Text: "P*5e"}, {From: rules.NoSquare, To: 40, Text: "S*5e"}}, q.Choices)

	var many arbiter.Prompt
	for i := range 20 {
		many.Choices = append(many.Choices, fmt.Sprint(i))
		many.From = append(many.From, e5)
		many.To = append(many.To, rules.Square(i))
	}
	q = many.Message(geo)
	assert.Equal(t, "which move was made?", q.Text)
	assert.Len(t, q.Choices, board.MaxChoices)
}
