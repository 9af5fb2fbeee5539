package demo_test

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
	"arbiter/demo"
	"arbiter/director"
	"arbiter/hardware/certabo"
	_ "arbiter/hardware/certabo/plug"
	"arbiter/hardware/dgt/driver"
	"arbiter/hardware/millennium"
	_ "arbiter/hardware/millennium/plug"
	_ "arbiter/hardware/sensorboard/plug"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/shogi"
	"arbiter/store"
)

// event is a chess Swiss of six players (three tables) and a shogi Swiss
// of four (two tables).
func event(t *testing.T) *director.Director {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "event.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	players := func(prefix string, n int) []store.Player {
		var out []store.Player
		for i := range n {
			out = append(out, store.Player{Name: prefix + string(rune('A'+i))})
		}
		return out
	}
	d, err := director.New(director.Config{Name: "Stand-ins", Tournaments: []director.Tournament{
		{Name: "Chess", Game: "chess", System: "swiss-dutch", Rounds: 3, Players: players("C", 6)},
		{Name: "Shogi", Game: "shogi", System: "swiss-dutch", Rounds: 2, Players: players("S", 4)},
	}}, db, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	return d
}

// A simulated board of each port's protocol stands in for each board the
// port holds: one at a path, a bus line's listed boards, and behind a
// pattern the boards the tables still want; each is set up for the first
// tournament that wants a board and whose game its protocol plays (a DGT
// board plays chess only), a spare one where none wants more; a board of
// ours takes the id boards.assign gives a board of its tournament, on
// the table the assignment gave it.
func TestStandIns(t *testing.T) {
	d := event(t)
	chess := d.TournamentIDs()[0]
	assigned, err := d.AddTableNumbered(chess, "TB-0042", 2) // as serve does for boards.assign
	require.NoError(t, err)
	dm, err := demo.New(d, demo.Config{Speed: 10,
		Ports: []board.Port{
			{Path: "/dev/serial/by-id/usb-Arbiter_Board_TB-0042-if00"},
			{Path: "/dev/ttyACM0"},
			{Path: "/dev/ttyUSB0", Keys: &driver.BusPort{Addresses: []int{3618, 3619}}},
			{Glob: "/dev/ttyACM*"},
		},
		Protocols: []string{"", driver.Protocol, driver.BusProtocol, ""},
		Assigned:  map[string][]string{"Chess": {"TB-0042"}},
	}, filepath.Join(t.TempDir(), "boards"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(dm.Close)

	ports := dm.Ports()
	assert.Len(t, ports[board.ProtocolSensorboard], 2, "the path's and the pattern's")
	assert.Len(t, ports[driver.Protocol], 1)
	assert.Len(t, ports[driver.BusProtocol], 2, "one for each listed board of the line")
	for _, ps := range ports {
		for _, p := range ps {
			assert.NotEmpty(t, p.Path, "a stand-in is found at its pseudo-terminal")
		}
	}

	byTournament := map[uint64][]string{}
	for _, l := range d.Tables() {
		byTournament[l.Tournament] = append(byTournament[l.Tournament], l.Table)
	}
	shogi := d.TournamentIDs()[1]
	require.Len(t, byTournament[chess], 4, "three tables and a spare bus board: %v", byTournament)
	assert.Equal(t, []string{"SIM-sho-1"}, byTournament[shogi], "the pattern's board plays shogi")
	tbl, ok := d.Table("TB-0042")
	require.True(t, ok)
	assert.Same(t, assigned, tbl, "our board took the assigned id, on its table")
	assert.Equal(t, 2, tbl.Number)
	dgt := 0
	for _, id := range byTournament[chess] {
		if strings.HasPrefix(id, driver.IDPrefix) {
			dgt++
		}
	}
	assert.Equal(t, 3, dgt, "the DGT board and the bus line's two play chess")
}

// The demo's own boards, without ports: one for every game of a round
// in each tournament, named by game across the tournaments.
func TestDemoBoards(t *testing.T) {
	d := event(t)
	dm, err := demo.New(d, demo.Config{Speed: 10}, filepath.Join(t.TempDir(), "boards"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(dm.Close)
	var ids []string
	for _, l := range d.Tables() {
		ids = append(ids, l.Table)
	}
	assert.ElementsMatch(t, []string{"SIM-che-1", "SIM-che-2", "SIM-che-3", "SIM-sho-1", "SIM-sho-2"}, ids)
	assert.Len(t, dm.Ports()[board.ProtocolSensorboard], 5)
}

// boardsOf returns the ids of the tables of each tournament.
func boardsOf(d *director.Director) map[uint64][]string {
	out := map[uint64][]string{}
	for _, l := range d.Tables() {
		out[l.Tournament] = append(out[l.Tournament], l.Table)
	}
	return out
}

// countPrefix counts the ids that begin with prefix.
func countPrefix(ids []string, prefix string) int {
	n := 0
	for _, id := range ids {
		if strings.HasPrefix(id, prefix) {
			n++
		}
	}
	return n
}

// A rehearsal of a configuration with Millennium and Certabo ports puts a
// simulated board of each protocol behind its port, through the protocol
// registry as for the others: both play chess, and the pattern's boards
// of ours take the tables left.
func TestStandInsForEBoards(t *testing.T) {
	d := event(t)
	dm, err := demo.New(d, demo.Config{Speed: 10,
		Ports: []board.Port{
			{Path: "/dev/ttyUSB3"},
			{Path: "/dev/rfcomm0"},
			{Glob: "/dev/ttyACM*"},
		},
		Protocols: []string{millennium.Protocol, certabo.Protocol, ""},
	}, filepath.Join(t.TempDir(), "boards"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(dm.Close)

	ports := dm.Ports()
	assert.Len(t, ports[millennium.Protocol], 1)
	assert.Len(t, ports[certabo.Protocol], 1)
	assert.Len(t, ports[board.ProtocolSensorboard], 3, "the pattern's, for the tables left")
	tables := boardsOf(d)
	chess, shogi := d.TournamentIDs()[0], d.TournamentIDs()[1]
	require.Len(t, tables[chess], 3, "%v", tables)
	assert.Equal(t, 1, countPrefix(tables[chess], millennium.IDPrefix), "the Millennium board plays chess: %v", tables[chess])
	assert.Equal(t, 1, countPrefix(tables[chess], certabo.IDPrefix), "the Certabo board plays chess: %v", tables[chess])
	assert.Equal(t, []string{"SIM-sho-1", "SIM-sho-2"}, tables[shogi])
}

// The demo's own e-boards (demo.dgt and demo.boards_of) are the first
// chess tables, in order, all in the first chess tournament.
func TestDemoBoardsWithEBoards(t *testing.T) {
	d := event(t)
	dm, err := demo.New(d, demo.Config{Speed: 10, DGT: true, BoardsOf: []string{millennium.Protocol, certabo.Protocol}},
		filepath.Join(t.TempDir(), "boards"), slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(dm.Close)
	ports := dm.Ports()
	for _, p := range []string{driver.Protocol, millennium.Protocol, certabo.Protocol} {
		assert.Len(t, ports[p], 1, p)
	}
	assert.Len(t, ports[board.ProtocolSensorboard], 2, "the shogi tables'")
	chess := boardsOf(d)[d.TournamentIDs()[0]]
	require.Len(t, chess, 3)
	for _, prefix := range []string{driver.IDPrefix, millennium.IDPrefix, certabo.IDPrefix} {
		assert.Equal(t, 1, countPrefix(chess, prefix), "%s: %v", prefix, chess)
	}
}
