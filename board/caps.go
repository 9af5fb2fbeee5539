package board

// Caps are a board's capabilities: what it senses and what it shows.
type Caps uint16

// Capability bits.
const (
	// CapHeight: the board counts stacked pieces (else it reports 0 or 1).
	CapHeight Caps = 1 << 0
	// CapIdentity: the board identifies the kind and mark of the top piece.
	CapIdentity Caps = 1 << 1
	// CapColor: the board senses the colour of the top piece.
	CapColor Caps = 1 << 2
	// CapFace: the board senses which face of the top piece is up.
	CapFace Caps = 1 << 3
	// CapZoneCount: the board counts the pieces in its zones (trays).
	CapZoneCount Caps = 1 << 4
	// CapZoneIdentity: the board identifies the pieces in its zones.
	CapZoneIdentity Caps = 1 << 5
	// CapClockDisplay: the board shows clock times sent by the host.
	CapClockDisplay Caps = 1 << 6
	// CapLights: the board can light squares.
	CapLights Caps = 1 << 7
	// CapText: the board shows alert and move texts.
	CapText Caps = 1 << 8
	// CapLog: the board keeps its own log of the game (a DGT board's
	// EEPROM), which the host reads after it lost the board for a while
	// ([Recaller]).
	CapLog Caps = 1 << 9
	// CapNoPress: nothing on the board ends a player's turn (no clock,
	// lever or button; the players' clock stands apart): a move is
	// complete when the board settles on it. Boards that report whole
	// positions without a clock (Millennium, Certabo) announce it; our
	// own protocol has no such bit.
	CapNoPress Caps = 1 << 10
)

// Has reports whether all capabilities of c are in cs.
func (cs Caps) Has(c Caps) bool { return cs&c == c }
