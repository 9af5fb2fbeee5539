package sim

import (
	"time"

	"arbiter/hardware/dgt"
)

// HandleHost takes bytes the host sent. Whole commands are carried out;
// a partial one waits for the rest.
func (b *Board) HandleHost(p []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.off || b.busy() {
		return
	}
	b.in = append(b.in, p...)
	for len(b.in) > 0 {
		n := b.command(b.in)
		if n == 0 {
			return
		}
		b.in = b.in[n:]
	}
}

// command carries out the command at the front of p and returns its
// length, or 0 when p holds only part of it.
func (b *Board) command(p []byte) int {
	c := p[0]
	switch {
	case c&0x80 != 0:
		if len(p) < 4 {
			return 0
		}
		cmd, addr, err := dgt.ParseBusCommand(p[:4])
		switch {
		case err != nil:
			// A bad command is not answered; the host times out.
		case !b.bus:
			// A bus command switches a single board to bus mode and is
			// not carried out.
			b.bus = true
		case addr == b.cfg.Addr || addr == 0:
			b.busCommand(cmd, addr)
		}
		return 4
	case c == dgt.CmdClockMessage:
		n := dgt.ClockCommandLen(p)
		if n == 0 || len(p) < n {
			return 0
		}
		b.single()
		b.clockCommand(p[:n])
		return n
	case c == dgt.CmdSetLeds:
		if len(p) < 6 {
			return 0
		}
		b.single()
		return 6
	case c >= dgt.CmdReset && c <= dgt.CmdLongSerialNr:
		b.single()
		b.singleCommand(c)
		return 1
	}
	return 1 // unknown byte: ignored
}

// single leaves bus mode, as any single-board command does.
func (b *Board) single() {
	if b.bus {
		b.bus = false
		b.mode = modeIdle
	}
}

func (b *Board) singleCommand(c byte) {
	switch c {
	case dgt.CmdReset:
		b.mode = modeIdle
	case dgt.CmdSendClock:
		r := b.clk.reading(b.cfg.Now())
		b.write(dgt.AppendMessage(nil, dgt.MsgBWTime, r.AppendPayload(nil)))
	case dgt.CmdSendBoard:
		b.Stats.Dumps++
		b.flushHeld()
		b.write(dgt.AppendMessage(nil, dgt.MsgBoardDump, (&dgt.BoardDump{Position: b.fields}).AppendPayload(nil)))
	case dgt.CmdUpdate:
		b.mode, b.lastSent = modeUpdate, nil
	case dgt.CmdUpdateBoard:
		b.mode = modeUpdateBoard
	case dgt.CmdUpdateNice:
		b.mode, b.lastSent = modeUpdateNice, nil
	case dgt.CmdSerialNr:
		b.write(dgt.AppendMessage(nil, dgt.MsgSerialNr, []byte(b.cfg.Serial)))
	case dgt.CmdLongSerialNr:
		b.write(dgt.AppendMessage(nil, dgt.MsgLongSerialNr, []byte("00000"+b.cfg.Serial)))
	case dgt.CmdBusAddress:
		b.write(dgt.AppendMessage(nil, dgt.MsgBusAddress, []byte{byte(b.cfg.Addr>>7) & 0x7f, byte(b.cfg.Addr) & 0x7f}))
	case dgt.CmdTrademark:
		b.write(dgt.AppendMessage(nil, dgt.MsgTrademark, []byte("Emulated DGT board, arbiter/hardware/dgt/sim")))
	case dgt.CmdSendLog:
		data := append(append([]byte(nil), b.log...), dgt.EEEOF)
		b.write(dgt.AppendMessage(nil, dgt.MsgLog, data))
		b.logUntil = b.txFree // the firmware is busy until its log is sent
		b.appendLog(dgt.EEDownloaded)
	case dgt.CmdToBusMode:
		b.bus = true
	case dgt.CmdBattery:
		b.write(dgt.AppendMessage(nil, dgt.MsgBattery, []byte{100, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0}))
	case dgt.CmdVersion:
		b.write(dgt.AppendMessage(nil, dgt.MsgVersion, []byte{b.cfg.Version.Major, b.cfg.Version.Minor}))
	}
}

// busReply sends a bus reply, subject to the bus faults.
func (b *Board) busReply(id byte, data []byte) {
	fl := b.cfg.Faults
	r := b.rng.Float64()
	if r < fl.BusSilent {
		b.Stats.BusSilenced++
		return
	}
	msg := dgt.AppendBusMessage(nil, id, b.cfg.Addr, data)
	if r < fl.BusSilent+fl.BusCorrupt {
		b.Stats.BusCorrupted++
		msg[len(msg)-1] ^= 0x01
	}
	b.Stats.BusReplies++
	b.write(msg)
}

// busCommand carries out the bus command cmd, sent to addr.
func (b *Board) busCommand(cmd byte, addr uint16) {
	switch cmd {
	case dgt.BusSendClock:
		r := b.clk.reading(b.cfg.Now())
		b.busReply(dgt.MsgBusBWTime, r.AppendPayload(nil))
	case dgt.BusSendBoard:
		b.Stats.Dumps++
		b.busReply(dgt.MsgBusBoardDump, (&dgt.BoardDump{Position: b.fields}).AppendPayload(nil))
	case dgt.BusSendChanges:
		b.lastChange = append([]byte(nil), b.log[b.sentUpTo:]...)
		b.sentUpTo = len(b.log)
		b.busReply(dgt.MsgBusUpdate, b.lastChange)
	case dgt.BusRepeatChanges:
		b.busReply(dgt.MsgBusUpdate, b.lastChange)
	case dgt.BusSetStartGame:
		b.setStartGame()
	case dgt.BusSendFromStart:
		b.sendFromStart()
	case dgt.BusIgnoreNextPing:
		b.ignorePing = true
		b.busReply(dgt.MsgBusPing, nil)
	case dgt.BusPing:
		b.ping(addr)
	case dgt.BusSendVersion:
		b.busReply(dgt.MsgBusVersion, []byte{b.cfg.Version.Major, b.cfg.Version.Minor})
	case dgt.BusEndBusMode:
		b.bus, b.mode = false, modeIdle
	case dgt.BusReset:
		b.powerUp()
	case dgt.BusSendAll:
		b.busCommand(dgt.BusSendChanges, addr)
		b.busCommand(dgt.BusSendClock, addr)
		b.busCommand(dgt.BusSendBoard, addr)
	}
}

// setStartGame writes the start tag in the log, the pieces on the board
// after it, and answers.
func (b *Board) setStartGame() {
	b.Stats.StartTags++
	b.appendLog(dgt.EEStartTag)
	b.startTag = len(b.log) - 1
	for f, p := range b.fields {
		if p != dgt.Empty {
			b.logField(f, p)
		}
	}
	b.tagPieces = len(b.log) - b.startTag - 1
	b.sentUpTo = len(b.log)
	b.busReply(dgt.MsgBusStartWritten, nil)
}

// sendFromStart answers with the log from the start tag up to the
// changes already sent, as much of it as the board's kind sends
// (Config.FromStart), unless a fault silences it.
func (b *Board) sendFromStart() {
	if b.cfg.Faults.NoFromStart {
		b.Stats.BusSilenced++
		return
	}
	var data []byte
	if b.startTag >= 0 {
		from := b.startTag
		switch b.cfg.FromStart {
		case FromStartNoTag:
			from++
		case FromStartChanges:
			from += 1 + b.tagPieces
		}
		data = append(data, b.log[min(from, b.sentUpTo):b.sentUpTo]...)
	}
	b.busReply(dgt.MsgBusFromStart, data)
}

// ping answers a ping to addr: at once when it is the board's own
// address; to the general ping (address 0) after a random delay against
// collisions, unless told to ignore it or losing pings.
func (b *Board) ping(addr uint16) {
	if addr != 0 {
		b.busReply(dgt.MsgBusPing, nil)
		return
	}
	if b.ignorePing {
		b.ignorePing = false
		return
	}
	if b.losePings {
		return
	}
	// Every board answers, spread at random against collisions.
	d := time.Duration(b.rng.Int64N(int64(b.cfg.PingSpread) + 1))
	time.AfterFunc(d, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.busReply(dgt.MsgBusPing, nil)
	})
}
