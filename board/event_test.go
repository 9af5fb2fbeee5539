package board_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"arbiter/board"
)

func TestEventString(t *testing.T) {
	tests := []struct {
		name string
		e    board.Event
		want string
	}{
		{"square", board.Event{Kind: board.EventSquare, Board: "B1", Seq: 7, Square: 12, Height: 2}, "B1 #7 square sq=12 h=2 top=?"},
		{"square saturated", board.Event{Kind: board.EventSquare, Board: "B1", Seq: 8, Square: 3, Height: 4, Saturated: true}, "B1 #8 square sq=3 h=4 top=?+"},
		{"zone", board.Event{Kind: board.EventZone, Board: "B1", Zone: 2, Count: 3, ZoneAction: 1}, "B1 #0 zone zone=2 n=3 action=1 piece=?"},
		{"button", board.Event{Kind: board.EventButton, Board: "B1", Button: board.ButtonClock, Side: 1, Pressed: true, Presses: 9, Value: 0}, "B1 #0 button clock side=1 pressed=true n=9 value=0"},
		{"button missed recovered", board.Event{Kind: board.EventButton, Board: "B1", Button: board.ButtonClock, Missed: 2, Recovered: true}, "B1 #0 button clock side=0 pressed=false n=0 value=0 missed=2 recovered"},
		{"gap", board.Event{Kind: board.EventGap, Board: "B1", Lost: 5}, "B1 #0 gap lost=5"},
		{"health", board.Event{Kind: board.EventHealth, Board: "B1", Health: board.Delayed}, "B1 #0 health delayed"},
		{"clock", board.Event{Kind: board.EventClock, Board: "B1", Clock: &board.ClockReading{First: time.Minute, Second: 2 * time.Second, Running: true}}, "B1 #0 clock first=1m0s second=2s running=true"},
		{"clock without reading", board.Event{Kind: board.EventClock, Board: "B1"}, "B1 #0 clock"},
		{"history", board.Event{Kind: board.EventHistory, Board: "B1", History: make([]board.LoggedPress, 3)}, "B1 #0 history presses=3"},
		{"history unread", board.Event{Kind: board.EventHistory, Board: "B1", Err: errors.New("log lost")}, "B1 #0 history presses=0 log lost"},
		{"error", board.Event{Kind: board.EventError, Board: "B1", Err: errors.New("bad frame")}, "B1 #0 error bad frame"},
		{"hello", board.Event{Kind: board.EventHello, Board: "B1", Info: &board.Info{ID: "B1", Firmware: "2.1"}}, "B1 #0 hello B1 fw=2.1"},
		{"hello without info", board.Event{Kind: board.EventHello, Board: "B1"}, "B1 #0 hello"},
		{"heartbeat", board.Event{Kind: board.EventHeartbeat, Board: "B1", Seq: 3}, "B1 #3 heartbeat"},
		{"unknown kind", board.Event{Kind: 99, Board: "B1"}, "B1 #0 event(99)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.e.String())
		})
	}
}
