package sim

import (
	"arbiter/hardware/eboard/emu"
	"arbiter/rules"
)

// Player is a person moving chess pieces on a [Board]: castling with
// either piece first, en passant and captures in either order or by
// pushing the captured piece off, promotion, slides and take-backs
// ([emu.Player], which every e-board emulator shares).
type Player = emu.Player

// PieceAt returns the piece on a chess square, and false when it is empty
// ([emu.Hands]).
func (b *Board) PieceAt(sq rules.Square) (rules.Piece, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.fields[b.field(sq)].Rules()
}
