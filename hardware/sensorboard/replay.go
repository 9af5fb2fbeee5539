package sensorboard

// Replay turns a raw sensor log of one board (the frames [Config.Raw]
// saw, in order, both directions) back into the events the driver
// delivered: the same bytes go through the same decoding and link logic,
// with the instants of the log. Host frames are not sent again, but the
// dump requests among them tell the link which dumps it waits for. Health
// changes that came from silence rather than from frames are not
// reproduced.
func Replay(log []RawFrame, emit func(Event)) {
	l := &Link{Emit: emit}
	d := NewDecoder()
	port := ""
	for i, r := range log {
		if r.Port != port || i == 0 {
			port = r.Port
			if i > 0 {
				l.Disconnected(r.Host)
			}
			l.SetPort(port, r.Host)
		}
		if r.Err != nil {
			continue
		}
		d.Reset()
		_, f, err := d.Decode(r.Wire)
		if err != nil {
			continue // not written by the driver
		}
		if !r.Sent {
			l.Frame(f, r.Host)
			continue
		}
		if m := NewMessage(f.Type); m != nil && m.UnmarshalPayload(f.Payload) == nil {
			l.Sent(m, r.Host)
		}
	}
}
