package board_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/board"
)

type settingsA struct{ A int }

func (*settingsA) Check() []board.KeyProblem { return nil }

type settingsB struct{ B int }

func (*settingsB) Check() []board.KeyProblem { return nil }

// The registry refuses what would make a protocol half there: one
// without its name, title, driver or replayer, a name taken twice, and a
// shared section whose settings differ; it lists our boards' protocol
// first, the default of a port that names none, then the others by name.
func TestRegisterRefusesAndOrders(t *testing.T) {
	ok := streamProtocol("test-registry-a", func(board.ReplayConfig) board.Replayer { return nil })
	for name, p := range map[string]board.Protocol{
		"no name":     {Title: ok.Title, Start: ok.Start, Replayer: ok.Replayer},
		"no title":    {Name: "test-registry-x", Start: ok.Start, Replayer: ok.Replayer},
		"no driver":   {Name: "test-registry-x", Title: ok.Title, Replayer: ok.Replayer},
		"no replayer": {Name: "test-registry-x", Title: ok.Title, Start: ok.Start},
	} {
		assert.Panics(t, func() { board.Register(p) }, name)
	}
	_, found := board.Lookup("test-registry-x")
	assert.False(t, found, "a refused protocol is not registered")

	ok.Section, ok.Settings = "test_registry", func() board.Settings { return &settingsA{} }
	board.Register(ok)
	same := ok
	same.Name = "test-registry-b"
	board.Register(same)
	other := ok
	other.Name, other.Settings = "test-registry-c", func() board.Settings { return &settingsB{} }
	assert.Panics(t, func() { board.Register(other) }, "a shared section with settings of another type")

	p, found := board.Lookup("test-registry-b")
	require.True(t, found)
	assert.Equal(t, "test_registry", p.Section)
	names := board.ProtocolNames()
	assert.Equal(t, board.ProtocolSensorboard, names[0], "our boards first: %v", names)
	assert.IsIncreasing(t, names[1:], "then by name")
	assert.Subset(t, names, []string{"test-registry-a", "test-registry-b"})
	def, found := board.Lookup("")
	require.True(t, found, "a port without a protocol is our boards'")
	assert.Equal(t, board.ProtocolSensorboard, def.Name)
}

type busKeys struct{ n int }

func (busKeys) Check(string) []board.KeyProblem { return nil }
func (k busKeys) Boards() int                   { return k.n }

// A port holds one board at a path, as many as its keys say (a bus line's
// addresses), and an unknown number behind a pattern or a USB identity.
func TestBoardsOf(t *testing.T) {
	assert.Equal(t, 1, board.BoardsOf(board.Port{Path: "/dev/ttyUSB0"}))
	assert.Equal(t, 3, board.BoardsOf(board.Port{Path: "/dev/ttyUSB0", Keys: busKeys{3}}))
	assert.Equal(t, 1, board.BoardsOf(board.Port{Path: "/dev/ttyUSB0", Keys: busKeys{0}}), "a line whose boards are not listed")
	assert.Equal(t, 0, board.BoardsOf(board.Port{Glob: "/dev/ttyACM*"}))
	assert.Equal(t, 0, board.BoardsOf(board.Port{USB: board.USB{VID: "2341"}}))
}
