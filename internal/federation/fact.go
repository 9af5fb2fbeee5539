// Package federation joins the daemons of several halls to a hub over NATS
// JetStream. Each hall's outbox publishes the facts its store committed
// (games, moves with their clock times, results) to its hall stream; the
// hub sources the hall streams into one stream, and its inbox writes each
// fact once, in order per game, into the hub's own store.
package federation

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arbiter/internal/config"
	"arbiter/store"
)

// Kinds of fact.
const (
	KindGame   = "game"
	KindMove   = "move"
	KindResult = "result"
)

// Fact is one committed fact of a hall, as published.
type Fact struct {
	Kind string `json:"kind"`
	Hall string `json:"hall"`
	// GameID is the hall's ID of the game.
	GameID uint64      `json:"gameId"`
	Game   *store.Game `json:"game,omitempty"` // KindGame
	Move   *store.Move `json:"move,omitempty"` // KindMove
	// KindResult.
	Result string    `json:"result,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Ended  time.Time `json:"ended,omitzero"`
	// Plies is the number of moves the game had at its result: the hub
	// records the result only after them.
	Plies int `json:"plies,omitempty"`
}

// ValidName checks a hall name: it is a subject token and a stream name,
// so letters, digits, '-' and '_' only. The configuration checks it too.
func ValidName(name string) error { return config.ValidHallName(name) }

// Subject is the subject of a game's facts:
// arbiter.<hall>.<tournament>.<table>.<game> (0 for a game outside a
// tournament or without a table number).
func Subject(hall string, g store.Game) string {
	return fmt.Sprintf("arbiter.%s.%d.%d.%d", hall, g.TournamentID, g.BoardNo, g.ID)
}

// MsgID is the fact's Nats-Msg-Id, by which JetStream drops a republished
// fact: hall/game/game, hall/game/<ply> or hall/game/result.
func (f Fact) MsgID() string {
	switch f.Kind {
	case KindMove:
		return fmt.Sprintf("%s/%d/%d", f.Hall, f.GameID, f.Move.Ply)
	default:
		return fmt.Sprintf("%s/%d/%s", f.Hall, f.GameID, f.Kind)
	}
}

// DecodeFact reads a published fact and checks that it is complete and
// that it belongs to the subject it came on.
func DecodeFact(subject string, data []byte) (Fact, error) {
	var f Fact
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("fact on %s: %w", subject, err)
	}
	tok := strings.Split(subject, ".")
	if len(tok) != 5 || tok[0] != "arbiter" {
		return f, fmt.Errorf("fact on %s: subject is not arbiter.<hall>.<tournament>.<table>.<game>", subject)
	}
	if err := ValidName(f.Hall); err != nil {
		return f, fmt.Errorf("fact on %s: hall: %w", subject, err)
	}
	if tok[1] != f.Hall {
		return f, fmt.Errorf("fact on %s: hall %q is not the subject's hall %q", subject, f.Hall, tok[1])
	}
	if id, err := strconv.ParseUint(tok[4], 10, 64); err != nil || id != f.GameID || id == 0 {
		return f, fmt.Errorf("fact on %s: game %d is not the subject's game %q", subject, f.GameID, tok[4])
	}
	switch f.Kind {
	case KindGame:
		if f.Game == nil {
			return f, fmt.Errorf("fact on %s: game fact without its game", subject)
		}
	case KindMove:
		if f.Move == nil || f.Move.Ply < 1 {
			return f, fmt.Errorf("fact on %s: move fact without a move of ply 1 or more", subject)
		}
	case KindResult:
		if f.Result == "" || f.Plies < 0 {
			return f, fmt.Errorf("fact on %s: result fact without a result or with negative plies", subject)
		}
	default:
		return f, fmt.Errorf("fact on %s: unknown kind %q", subject, f.Kind)
	}
	return f, nil
}
