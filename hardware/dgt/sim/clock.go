package sim

import (
	"time"

	"arbiter/hardware/dgt"
)

// clock is a DGT XL / DGT 3000 in mode 23: two countdowns and a lever.
type clock struct {
	left, right time.Duration // at since
	since       time.Duration
	runLeft     bool // left counts down when running
	running     bool
	lever       bool // the tumbler bit
	// down is the side the rocker lever is down on: 0 not yet pressed,
	// -1 left, +1 right. A side whose lever is down cannot press again.
	down      int8
	connected bool
}

type clockSnap struct {
	at time.Duration
	t  dgt.ClockTimes
}

func (c *clock) now(at time.Duration) (l, r time.Duration) {
	l, r = c.left, c.right
	if c.running {
		if c.runLeft {
			l -= at - c.since
		} else {
			r -= at - c.since
		}
	}
	return max(l, 0), max(r, 0)
}

func (c *clock) reading(at time.Duration) dgt.ClockTimes {
	if !c.connected {
		return dgt.ClockTimes{NoClock: true}
	}
	l, r := c.now(at)
	// The display shows whole seconds, rounded up as clocks do.
	l = (l + time.Second - 1).Truncate(time.Second)
	r = (r + time.Second - 1).Truncate(time.Second)
	t := dgt.ClockTimes{Left: l, Right: r, Running: c.running, Lever: c.lever,
		LeftFlag: l == 0, RightFlag: r == 0}
	if c.running {
		t.LeftTurn, t.RightTurn = c.runLeft, !c.runLeft
	}
	return t
}

// ConnectClock plugs a clock into the board, stopped at the given times.
func (b *Board) ConnectClock(left, right time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clk = clock{left: left, right: right, connected: true, since: b.cfg.Now()}
	b.sendClockLocked()
}

// Press presses the clock lever on the given side: that side's clock
// stops and the other one runs. The tumbler bit flips whatever its
// polarity, and the halted side's time goes into the log. The lever is a
// rocker: pressed on the side it is already down on (a second press of
// the same player), nothing moves, and nothing happens.
func (b *Board) Press(left bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	side := int8(1)
	if left {
		side = -1
	}
	if b.clk.down == side {
		return
	}
	b.clk.down = side
	now := b.cfg.Now()
	l, r := b.clk.now(now)
	b.clk.left, b.clk.right, b.clk.since = l, r, now
	b.clk.lever = !b.clk.lever
	b.clk.running = true
	b.clk.runLeft = !left
	halted := r
	if left {
		halted = l
	}
	b.log = dgt.AppendLogTag(b.log, dgt.LogTag{Kind: dgt.TagTime, Left: left, Time: halted})
	b.appendLog()
	b.sendClockLocked()
}

// ClockTick lets the clock report itself as the firmware does in update
// mode: every second in UPDATE, on a change in UPDATE_NICE. Call it often
// (every 50 ms or so); [Line] does.
func (b *Board) ClockTick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sendClockLocked()
}

// sendClockLocked records the clock's state and sends the (possibly
// lagging) reading when the mode asks for it.
func (b *Board) sendClockLocked() {
	now := b.cfg.Now()
	t := b.clk.reading(now)
	b.history = append(b.history, clockSnap{now, t})
	lag := b.cfg.Faults.ClockLag
	i := 0
	for i+1 < len(b.history) && b.history[i+1].at <= now-lag {
		i++
	}
	b.history = b.history[i:]
	if b.history[0].at > now-lag {
		return // nothing that old yet
	}
	r := b.history[0].t
	if b.bus || (b.mode != modeUpdate && b.mode != modeUpdateNice) || !b.clk.connected {
		return
	}
	if b.lastSent != nil && *b.lastSent == r && (b.mode == modeUpdateNice) {
		return
	}
	b.lastSent = &r
	b.Stats.ClockMsgs++
	b.write(dgt.AppendMessage(nil, dgt.MsgBWTime, r.AppendPayload(nil)))
}

// clockCommand carries out a clock command and acknowledges it after the
// clock's delay, in the update modes only.
func (b *Board) clockCommand(p []byte) {
	cmd, payload, err := dgt.ParseClockCommand(p)
	if err != nil || !b.clk.connected {
		return
	}
	ack := dgt.ClockAck{Ack: [4]byte{0x10, cmd, 0, 0}}
	switch cmd {
	case dgt.ClockSetNRun:
		if len(payload) != 7 {
			ack.Ack[0] = 0x40
			break
		}
		hms := func(q []byte) time.Duration {
			return time.Duration(q[0])*time.Hour + time.Duration(q[1])*time.Minute + time.Duration(q[2])*time.Second
		}
		now := b.cfg.Now()
		b.clk.left, b.clk.right, b.clk.since = hms(payload[0:3]), hms(payload[3:6]), now
		f := payload[6]
		b.clk.running = f&dgt.RunPause == 0 && f&(dgt.RunLeft|dgt.RunRight) != 0
		b.clk.runLeft = f&dgt.RunLeft != 0
		b.sendClockLocked()
	case dgt.ClockASCII:
		if len(payload) == 9 {
			b.text = string(payload[:8])
			b.texts = append(b.texts, b.text)
		}
	case dgt.ClockEnd:
		b.text = ""
		b.texts = append(b.texts, "")
	case dgt.ClockVersion:
		ack.Ack[2] = 0x21
	}
	if b.mode != modeUpdate && b.mode != modeUpdateNice {
		return
	}
	if b.dropAcks > 0 {
		b.dropAcks--
		return
	}
	msg := dgt.AppendMessage(nil, dgt.MsgBWTime, ack.AppendPayload(nil))
	time.AfterFunc(b.cfg.AckDelay, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.Stats.Acks++
		b.write(msg)
	})
}

// PressKey reports a key of the clock (dgt.KeyOK, ...) as the clock does,
// with an unsolicited acknowledgement.
func (b *Board) PressKey(key byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ack := dgt.ClockAck{Ack: [4]byte{0x10, 0x88, 0, key}}
	b.write(dgt.AppendMessage(nil, dgt.MsgBWTime, ack.AppendPayload(nil)))
}
