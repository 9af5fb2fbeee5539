package tiebreak

import (
	"fmt"
	"strconv"
)

// MarshalText encodes the colour as "first", "second" or "none".
func (c Colour) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// MarshalText encodes the result by its name, e.g. "forfeit win".
func (r Result) MarshalText() ([]byte, error) {
	if int(r) >= len(resultNames) {
		return nil, fmt.Errorf("tiebreak: unknown result %d", r)
	}
	return []byte(r.String()), nil
}

// MarshalText encodes the tie-break in its canonical notation ("BH/C1").
func (s Spec) MarshalText() ([]byte, error) {
	if _, ok := kindNames[s.Kind]; !ok {
		return nil, fmt.Errorf("tiebreak: unknown kind %d", s.Kind)
	}
	return []byte(s.String()), nil
}

// UnmarshalText parses the notation accepted by ParseSpec, so that tie-break
// lists can live in configuration files.
func (s *Spec) UnmarshalText(text []byte) error {
	v, err := ParseSpec(string(text))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// MarshalJSON encodes a value as a number, or null when not applicable.
func (v Value) MarshalJSON() ([]byte, error) {
	if !v.OK {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v.Num, 'f', -1, 64), nil
}

// UnmarshalJSON is the inverse of MarshalJSON.
func (v *Value) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*v = Value{}
		return nil
	}
	f, err := strconv.ParseFloat(string(data), 64)
	if err != nil {
		return fmt.Errorf("tiebreak: value %s: %w", data, err)
	}
	*v = Value{Num: f, OK: true}
	return nil
}
