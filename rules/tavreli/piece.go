package tavreli

import "arbiter/rules"

// Role is what a piece does in the game: its movement pattern. A promoted
// Ratnik has the role of its mark; a demoted one is a Ratnik again.
type Role uint8

// The roles. Their letters (spec D4) follow the chess role, not the
// Russian initial: K is the Volkhv, Q the Knyaz.
const (
	NoRole     Role = iota
	Ratnik          // P: the pawn
	Vsadnik         // N: the knight
	Luchnik         // B: the bishop
	Ratoborets      // R: the rook
	Knyaz           // Q: the queen
	Helgi           // H: queen plus knight; only ever a promoted Ratnik
	Volkhv          // K: the king
)

const roleLetters = ".PNBRQHK"

// Letter returns the role's upper-case code letter (spec 1.3).
func (r Role) Letter() byte {
	if int(r) < len(roleLetters) {
		return roleLetters[r]
	}
	return '?'
}

// String returns the role's English working name.
func (r Role) String() string {
	switch r {
	case Ratnik:
		return "Ratnik"
	case Vsadnik:
		return "Vsadnik"
	case Luchnik:
		return "Luchnik"
	case Ratoborets:
		return "Ratoborets"
	case Knyaz:
		return "Knyaz"
	case Helgi:
		return "Helgi"
	case Volkhv:
		return "Volkhv"
	}
	return "none"
}

// roleOfLetter maps an upper-case code letter to its role.
func roleOfLetter(c byte) Role {
	switch c {
	case 'P':
		return Ratnik
	case 'N':
		return Vsadnik
	case 'B':
		return Luchnik
	case 'R':
		return Ratoborets
	case 'Q':
		return Knyaz
	case 'H':
		return Helgi
	case 'K':
		return Volkhv
	}
	return NoRole
}

// validMark reports whether r can be printed on a Ratnik.
func validMark(r Role) bool {
	return r >= Vsadnik && r <= Helgi
}

// Piece is one piece's full identity and state: colour, current role, the
// mark it carries if it is a Ratnik (or was one), and so whether it is
// promoted.
type Piece struct {
	Color rules.Color
	Role  Role
	// Mark is the promotion target printed on a Ratnik; NoRole for the
	// original pieces.
	Mark Role
}

// Promoted reports whether p is a promoted Ratnik.
func (p Piece) Promoted() bool { return p.Mark != NoRole && p.Role != Ratnik }

// Physical returns the piece as a sensor board could see it: a Ratnik is
// Kind 'P' with its mark even when promoted, because promotion changes
// nothing physical.
func (p Piece) Physical() rules.Piece {
	if p.Mark != NoRole {
		return rules.Piece{Color: p.Color, Kind: 'P', Mark: rules.Kind(p.Mark.Letter())}
	}
	return rules.Piece{Color: p.Color, Kind: rules.Kind(p.Role.Letter())}
}

// String returns the piece's TFEN token ("K", "PH", "q~", "pr").
func (p Piece) String() string {
	return string(p.appendToken(nil))
}

func (p Piece) appendToken(dst []byte) []byte {
	lc := func(c byte) byte {
		if p.Color == rules.Second {
			return c + 'a' - 'A'
		}
		return c
	}
	if p.Role == Ratnik {
		return append(dst, lc('P'), lc(p.Mark.Letter()))
	}
	dst = append(dst, lc(p.Role.Letter()))
	if p.Promoted() {
		dst = append(dst, '~')
	}
	return dst
}

// pieceCode packs colour and role into the byte the board keeps per
// piece: role in the low three bits, colour in bit 3.
type pieceCode = uint8

const colorShift = 3

func codeOf(c rules.Color, r Role) pieceCode { return pieceCode(r) | pieceCode(c)<<colorShift }
