package config

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"

	"arbiter/board"
)

// Boards configures the boards: the serial ports they are found on, each
// with its protocol, the tables they are assigned to, and the settings of
// the board protocols. The protocols and their keys are those registered
// with package board (board.Register): the configuration names none.
type Boards struct {
	Ports  []Port        `mapstructure:"ports"`
	Scan   time.Duration `mapstructure:"scan"`
	Assign []Assignment  `mapstructure:"assign"`
	// Settings are the protocols' settings (board.Protocol.Settings), by
	// their section under boards ("dgt" for boards.dgt; "" for the keys of
	// boards itself, such as baud), with the defaults where the file gives
	// nothing. Parse fills in every registered protocol's.
	Settings map[string]board.Settings `mapstructure:"-"`
}

// SettingsOf returns the settings of the named protocol, or nil when it
// has none (or is not registered).
func (b Boards) SettingsOf(protocol string) board.Settings {
	p, ok := board.Lookup(protocol)
	if !ok || p.Settings == nil {
		return nil
	}
	return b.Settings[p.Section]
}

// Port selects serial ports by exactly one of path, glob or USB identity.
type Port struct {
	// Protocol is what the boards on the port speak: the name of a
	// registered protocol; empty is board.ProtocolSensorboard, our boards.
	Protocol string `mapstructure:"protocol"`
	Path     string `mapstructure:"path"`
	Glob     string `mapstructure:"glob"`
	USB      USB    `mapstructure:"usb"`
	// Keys are the protocol's own keys of the entry
	// (board.Protocol.PortKeys: a DGT bus line's addresses), nil for a
	// protocol without any.
	Keys board.PortSettings `mapstructure:"-"`

	// foreign are other protocols' keys given on the entry: Validate
	// refuses them.
	foreign []board.PortSettings
}

// String writes the port entry as the file gives it: "path: /dev/ttyUSB0,
// glob: /dev/ttyACM*", or "(empty)".
func (p Port) String() string {
	var parts []string
	add := func(key, v string) {
		if v != "" {
			parts = append(parts, key+": "+v)
		}
	}
	add("path", p.Path)
	add("glob", p.Glob)
	add("usb.vid", p.USB.VID)
	add("usb.pid", p.USB.PID)
	add("usb.serial", p.USB.Serial)
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, ", ")
}

// Board returns the entry as its protocol's driver takes it.
func (p Port) Board() board.Port {
	return board.Port{Path: p.Path, Glob: p.Glob, USB: board.USB(p.USB), Keys: p.Keys}
}

// USB identifies a USB serial device; empty fields match anything.
type USB struct {
	VID    string `mapstructure:"vid"`
	PID    string `mapstructure:"pid"`
	Serial string `mapstructure:"serial"`
}

// Assignment binds a board to a tournament table.
type Assignment struct {
	Board      string `mapstructure:"board"`
	Tournament string `mapstructure:"tournament"`
	Table      int    `mapstructure:"table"`
}

// section is one section of protocol settings, as the protocols
// registered it: its key under boards ("" for keys of boards itself).
type section struct {
	key string
	new func() board.Settings
}

// protocolSections returns the sections of the registered protocols,
// each once, in the protocols' order.
func protocolSections() []section {
	var out []section
	seen := map[string]bool{}
	for _, p := range board.Protocols() {
		if p.Settings != nil && !seen[p.Section] {
			seen[p.Section] = true
			out = append(out, section{p.Section, p.Settings})
		}
	}
	return out
}

// portKeys returns the constructors of the registered protocols' own
// port keys, each type once, in the protocols' order.
func portKeys() []func() board.PortSettings {
	var out []func() board.PortSettings
	seen := map[reflect.Type]bool{}
	for _, p := range board.Protocols() {
		if p.PortKeys != nil && !seen[reflect.TypeOf(p.PortKeys())] {
			seen[reflect.TypeOf(p.PortKeys())] = true
			out = append(out, p.PortKeys)
		}
	}
	return out
}

// protocolFields are the keys the registered protocols add to a section
// of type t: their sections and keys under boards, and their keys of a
// port entry.
func protocolFields(t reflect.Type) []field {
	var fs []field
	switch t {
	case reflect.TypeFor[Boards]():
		for _, s := range protocolSections() {
			typ := reflect.TypeOf(s.new())
			if s.key == "" {
				fs = append(fs, fields(indirect(typ))...)
			} else {
				fs = append(fs, field{name: s.key, typ: typ})
			}
		}
	case reflect.TypeFor[Port]():
		for _, k := range portKeys() {
			fs = append(fs, fields(indirect(reflect.TypeOf(k())))...)
		}
	}
	return fs
}

// decodeProtocols decodes the protocols' settings and the protocols' own
// keys of every port from all, the settings as viper holds them
// (defaults, file, environment, flags). It returns the keys that could
// not be decoded.
func (b *Boards) decodeProtocols(all map[string]any) []Problem {
	boards, _ := all["boards"].(map[string]any)
	var ps []Problem
	b.Settings = map[string]board.Settings{}
	for _, s := range protocolSections() {
		v := s.new()
		raw, prefix := any(boards), "boards."
		if s.key != "" {
			raw, prefix = boards[s.key], prefix+s.key+"."
		}
		if raw != nil {
			ps = append(ps, decodeInto(raw, v, prefix)...)
		}
		b.Settings[s.key] = v
	}
	items, _ := boards["ports"].([]any)
	for i := range b.Ports {
		if i < len(items) {
			ps = append(ps, b.Ports[i].decodeKeys(items[i], fmt.Sprintf("boards.ports[%d].", i))...)
		}
	}
	return ps
}

// decodeKeys decodes the protocols' own keys of the port from raw, its
// entry in the file: those of its protocol become Keys, those of another
// that are given become foreign.
func (p *Port) decodeKeys(raw any, prefix string) []Problem {
	own, _ := board.Lookup(p.Protocol)
	var ps []Problem
	for _, k := range portKeys() {
		v := k()
		ps = append(ps, decodeInto(raw, v, prefix)...)
		switch {
		case own.PortKeys != nil && reflect.TypeOf(own.PortKeys()) == reflect.TypeOf(v):
			p.Keys = v
		case !reflect.DeepEqual(v, k()):
			p.foreign = append(p.foreign, v)
		}
	}
	return ps
}

// decodeInto decodes raw onto target as viper decodes the configuration,
// and returns what could not be decoded under keys starting with prefix.
func decodeInto(raw, target any, prefix string) []Problem {
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{WeaklyTypedInput: true, DecodeHook: decodeHook, Result: target})
	if err == nil {
		err = dec.Decode(raw)
	}
	if err == nil {
		return nil
	}
	ps := decodeErrors(err)
	for i := range ps {
		if ps[i].Key == "(file)" {
			ps[i].Key = strings.TrimSuffix(prefix, ".")
		} else {
			ps[i].Key = prefix + ps[i].Key
		}
	}
	return ps
}

// check checks the boards section and, through their registrations, the
// protocols' settings and ports.
func (b Boards) check(ps *problems) {
	if b.Scan <= 0 {
		ps.add("boards.scan", b.Scan, "must be a positive duration such as 1s")
	}
	first := map[string]int{}
	for i, p := range b.Ports {
		key := fmt.Sprintf("boards.ports[%d]", i)
		p.check(ps, key)
		if which, where := p.place(); which != "" {
			if j, ok := first[where]; ok {
				value := map[string]string{"path": p.Path, "glob": p.Glob, "usb": p.String()}[which]
				ps.add(key+"."+which, value, "this port is listed twice (boards.ports[%d] and [%d]): one port is one board's, or one bus line's, "+
					"and two entries would take it in turn; give each board its own port, and a DGT bus line one entry with protocol dgt-bus", j, i)
			} else {
				first[where] = i
			}
		}
	}
	for _, s := range protocolSections() {
		if v := b.Settings[s.key]; v != nil {
			prefix := "boards."
			if s.key != "" {
				prefix += s.key + "."
			}
			ps.keys(prefix, v.Check())
		}
	}
}

// check checks one port entry: where it is, its protocol, and the keys
// of the protocols given on it.
func (p Port) check(ps *problems, key string) {
	n := 0
	for _, set := range []bool{p.Path != "", p.Glob != "", p.USB != (USB{})} {
		if set {
			n++
		}
	}
	if n != 1 {
		ps.add(key, p.String(), "give exactly one of path, glob or usb")
	}
	if p.Glob != "" {
		if _, err := filepath.Match(p.Glob, ""); err != nil {
			ps.add(key+".glob", p.Glob, "bad pattern: %v", err)
		}
	}
	proto, ok := board.Lookup(p.Protocol)
	switch {
	case !ok:
		ps.add(key+".protocol", p.Protocol, "unknown protocol; known: %s", strings.Join(board.ProtocolNames(), ", "))
	case proto.CheckPort != nil:
		ps.keys(key+".", proto.CheckPort(p.Board()))
	}
	if p.Keys != nil {
		ps.keys(key+".", p.Keys.Check(p.Protocol))
	}
	for _, f := range p.foreign {
		ps.keys(key+".", f.Check(p.Protocol))
	}
}

// place returns the key that finds the port (path, glob or usb) and the
// port it names, in one spelling ("" when the entry names none or
// several: check says so).
func (p Port) place() (which, where string) {
	switch {
	case p.Path != "" && p.Glob == "" && p.USB == (USB{}):
		return "path", "path " + filepath.Clean(p.Path)
	case p.Glob != "" && p.Path == "" && p.USB == (USB{}):
		return "glob", "glob " + filepath.Clean(p.Glob)
	case p.USB != (USB{}) && p.Path == "" && p.Glob == "":
		u := p.USB
		return "usb", "usb " + strings.ToLower(u.VID+":"+u.PID+":"+u.Serial)
	}
	return "", ""
}

// checkAssign checks boards.assign; names are the tournaments' names.
func (b Boards) checkAssign(ps *problems, names map[string]bool) {
	boardAt := map[string]int{}
	type table struct {
		tournament string
		n          int
	}
	tableAt := map[table]int{}
	for i, a := range b.Assign {
		key := fmt.Sprintf("boards.assign[%d]", i)
		if a.Board == "" {
			ps.add(key+".board", a.Board, "must name a board id")
		} else if j, ok := boardAt[a.Board]; ok {
			ps.add(key+".board", a.Board, "this board is assigned twice (boards.assign[%d] and [%d])", j, i)
		} else {
			boardAt[a.Board] = i
		}
		if !names[a.Tournament] {
			ps.add(key+".tournament", a.Tournament, "no tournament has this name")
		}
		if a.Table < 1 {
			ps.add(key+".table", a.Table, "must be at least 1")
		} else if j, ok := tableAt[table{a.Tournament, a.Table}]; ok {
			ps.add(key+".table", a.Table, "table %d of %q has two boards (boards.assign[%d] and [%d])", a.Table, a.Tournament, j, i)
		} else {
			tableAt[table{a.Tournament, a.Table}] = i
		}
	}
}
