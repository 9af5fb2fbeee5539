package clock

import (
	"testing"
	"time"
)

// benchClock returns a started clock that will not flag during b.N presses
// of 1 ms each.
func benchClock(b *testing.B, text string) *Clock {
	b.Helper()
	c := mustClock(b, text, Options{})
	if err := c.Start(0); err != nil {
		b.Fatal(err)
	}
	return c
}

func benchPress(b *testing.B, text string) {
	c := benchClock(b, text)
	var events []Event
	at := time.Duration(0)
	side := First
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		at += time.Millisecond
		if _, err := c.Press(side, at); err != nil {
			b.Fatal(err)
		}
		side = side.Other()
		events = c.Events(events[:0])
	}
}

func BenchmarkPressFischer(b *testing.B)   { benchPress(b, "40/90m+30s:30m+30s") }
func BenchmarkPressByoyomi(b *testing.B)   { benchPress(b, "0:byo=30s+10x1m") }
func BenchmarkPressCanadian(b *testing.B)  { benchPress(b, "0:can=25/5m") }
func BenchmarkPressDelay(b *testing.B)     { benchPress(b, "90m+b5s") }
func BenchmarkPressHourglass(b *testing.B) { benchPress(b, "*1m") }

func BenchmarkReading(b *testing.B) {
	c := benchClock(b, "1h:byo=5x30s")
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		_ = c.Reading(Side(i&1), time.Duration(i%7200)*time.Second)
	}
}

func BenchmarkNextDeadline(b *testing.B) {
	c := benchClock(b, "1h:byo=5x30s")
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		_, _ = c.NextDeadline(time.Duration(i%3600) * time.Second)
	}
}
