package dgt

import (
	"bytes"
	"errors"
	"testing"
)

// BenchmarkDecode measures splitting a board's byte stream into messages
// (and parsing them, in single-board mode): the seed streams of the fuzz
// targets, one after the other, stray and cut bytes included.
func BenchmarkDecode(b *testing.B) {
	stream := bytes.Join(seedStreams(), nil)
	for _, bus := range []bool{false, true} {
		name := "board"
		if bus {
			name = "bus"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(stream)))
			for b.Loop() {
				d := Decoder{Bus: bus}
				for p := stream; len(p) > 0; {
					n, m, err := d.Decode(p)
					if errors.Is(err, ErrIncomplete) {
						break
					}
					if err == nil && !bus {
						_, _ = Parse(m)
					}
					p = p[n:]
				}
			}
		})
	}
}

// BenchmarkParseLog measures parsing a board's EEPROM log: field, time
// and marker tags, padding and a few bad bytes.
func BenchmarkParseLog(b *testing.B) {
	var log []byte
	for i := range 200 {
		s := i % 60
		log = append(log, 0x41+byte(i%12), byte(i%64), 0x63, 0x05, byte(s/10<<4|s%10), 0x6a, EENop)
		if i%20 == 0 {
			log = append(log, 0x80|byte(i)) // starts no tag
		}
	}
	log = append(log, EEEOF)
	b.ReportAllocs()
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		ParseLog(log)
	}
}
