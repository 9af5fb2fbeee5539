// Package federation joins the daemons of several halls to a hub over NATS
// JetStream. Each hall's outbox publishes the facts its store committed
// (games, moves with their clock times, results, alerts, arbiter actions
// and its boards' status) to its hall stream; the hub sources the hall
// streams into one stream, and its inbox writes each fact once, in order
// per game, into the hub's own store, and tells the hub's live pages what
// it added (News). The hub's rounds go to the halls through a key-value
// bucket the hub alone writes, mirrored in each hall and read from the hub
// directly while the mirror recovers from a link failure (pairings.go),
// its players and every board's result through another (roster.go), and
// the hub arbiter's actions on a hall's alerts through a command stream
// (commands.go).
package federation

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arbiter/store"
)

// Kinds of fact.
const (
	KindGame   = "game"
	KindMove   = "move"
	KindResult = "result"
	// KindAlert is the present state of one of the hall's alerts, on
	// arbiter.<hall>.alert.<id>.
	KindAlert = "alert"
	// KindAction is an arbiter action the hall audited, on
	// arbiter.<hall>.action.<id>.
	KindAction = "action"
	// KindStatus is the state of every board of the hall, on
	// arbiter.<hall>.status.
	KindStatus = "status"
)

// BoardStatus is the state of one board of a hall.
type BoardStatus struct {
	Board      string    `json:"board"`
	Tournament uint64    `json:"tournament,omitempty"`
	Table      int       `json:"table,omitempty"`
	Game       uint64    `json:"game,omitempty"` // the hall's game on it
	Health     string    `json:"health"`
	Since      time.Time `json:"since,omitzero"`
}

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
	// KindAlert, KindAction, KindStatus.
	Alert  *store.Alert  `json:"alert,omitempty"`
	Action *store.Action `json:"action,omitempty"`
	Boards []BoardStatus `json:"boards,omitempty"`
}

// AuditSubject is the subject of a hall's alert or action (kind) id.
func AuditSubject(hall, kind string, id uint64) string {
	return fmt.Sprintf("arbiter.%s.%s.%d", hall, kind, id)
}

// StatusSubject is the subject of a hall's board status.
func StatusSubject(hall string) string { return "arbiter." + hall + ".status" }

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
	case KindAlert:
		return fmt.Sprintf("%s/alert/%d/%d/%t", f.Hall, f.Alert.ID, f.Alert.Count, f.Alert.Resolved)
	case KindAction:
		return fmt.Sprintf("%s/action/%d", f.Hall, f.Action.ID)
	case KindStatus:
		return "" // each is news
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
	if len(tok) >= 3 && tok[0] == "arbiter" && (tok[2] == KindAlert || tok[2] == KindAction || tok[2] == KindStatus) {
		return f, decodeHallFact(subject, tok, f)
	}
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

// decodeHallFact checks a fact of the hall rather than of a game: an
// alert, an action or the boards' status.
func decodeHallFact(subject string, tok []string, f Fact) error {
	if err := ValidName(f.Hall); err != nil {
		return fmt.Errorf("fact on %s: hall: %w", subject, err)
	}
	if tok[1] != f.Hall {
		return fmt.Errorf("fact on %s: hall %q is not the subject's hall %q", subject, f.Hall, tok[1])
	}
	if f.Kind != tok[2] {
		return fmt.Errorf("fact on %s: a %q fact on a subject of %s facts", subject, f.Kind, tok[2])
	}
	if f.Kind == KindStatus {
		if len(tok) != 3 {
			return fmt.Errorf("fact on %s: subject is not arbiter.<hall>.status", subject)
		}
		return nil
	}
	var id uint64
	switch {
	case f.Kind == KindAlert && f.Alert != nil:
		id = f.Alert.ID
	case f.Kind == KindAction && f.Action != nil:
		id = f.Action.ID
	default:
		return fmt.Errorf("fact on %s: %s fact without its %s", subject, f.Kind, f.Kind)
	}
	if len(tok) != 4 || tok[3] != strconv.FormatUint(id, 10) || id == 0 {
		return fmt.Errorf("fact on %s: %s %d is not the subject's arbiter.<hall>.%s.<id>", subject, f.Kind, id, f.Kind)
	}
	return nil
}
