package clock

import (
	"testing"
	"time"
)

var benchControls = []string{
	"40/90m+30s:30m+30s", "40/5400+30:1800+30", "300+2", "*60", "90m+d5s", "10m:byo=30s",
	"1h:byo=5x30s", "0:byo=30s+10x1m", "6h@1m:byo=60s", "10m@round500ms", "1h:can=10+10/5m,carry,next",
}

// BenchmarkParse reads a set of time controls of every kind.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchControls {
			if _, err := Parse(s); err != nil {
				b.Fatalf("%q: %v", s, err)
			}
		}
	}
}

// BenchmarkString writes the same controls back, and describes them.
func BenchmarkString(b *testing.B) {
	var cs []Control
	for _, s := range benchControls {
		c, err := Parse(s)
		if err != nil {
			b.Fatal(err)
		}
		cs = append(cs, c)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cs {
			_ = c.String()
			_ = c.Describe()
			_, _ = c.PGN()
		}
	}
}

// BenchmarkRestore reads back the snapshots of clocks of every kind in
// play, checks them and restores a clock from each.
func BenchmarkRestore(b *testing.B) {
	var snaps [][]byte
	for _, s := range benchControls {
		c := mustClock(b, s, Options{})
		if err := c.Start(0); err != nil {
			b.Fatal(err)
		}
		for i := 1; i < 6; i++ {
			_, _ = c.Press(Side(i%2), time.Duration(i)*20*time.Second)
		}
		data, err := c.Snapshot().MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		snaps = append(snaps, data)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range snaps {
			var s Snapshot
			if err := s.UnmarshalBinary(data); err != nil {
				b.Fatal(err)
			}
			if _, err := FromSnapshot(s, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
