package driver

import (
	"strings"

	"arbiter/board"
	"arbiter/hardware/dgt"
)

// clockWords are the words a DGT 3000 shows for each kind of alert,
// eight characters a frame, in the manner of DGT's own abbreviations;
// brief ones give the display back to the times after a round, the
// others stay (going round, then keeping their first frame) until the
// matter is resolved and the director clears them.
var clockWords = map[string]struct {
	frames []string
	brief  bool
}{
	"illegal-move":   {frames: []string{"illegal", "move"}},
	"recovery":       {frames: []string{"restore", "position"}},
	"touch-move":     {frames: []string{"touch", "move"}},
	"ambiguity":      {frames: []string{"which", "move?"}},
	"adjust":         {frames: []string{"adjust", "altered"}},
	"flag":           {frames: []string{"flag"}},
	"setup":          {frames: []string{"set up", "pieces"}},
	"retraction":     {frames: []string{"retract"}},
	"irregularity":   {frames: []string{"irregul", "arbiter"}, brief: true},
	"arbiter-call":   {frames: []string{"arbiter", "called"}, brief: true},
	"foul-suspected": {frames: []string{"foul?", "arbiter"}, brief: true},
	"etiquette":      {frames: []string{"etiquet"}, brief: true},
	"link":           {frames: []string{"link"}, brief: true},
	// The clocks held after a restart: said, then the held times shown.
	"clocks-held": {frames: []string{"paused", "arbiter"}, brief: true},
	"offer":       {frames: []string{"draw", "offered"}},
	"resign":      {frames: []string{"resign?", "again"}},
}

// reasonWords abbreviates the reasons a game ends (rules.Reason names).
var reasonWords = map[string]string{
	"checkmate": "mate", "stalemate": "stalemat", "repetition": "repeat", "perpetual-check": "perpetl",
	"move-count": "50 moves", "dead-position": "dead pos", "impasse": "impasse", "no-moves": "no moves",
	"no-pieces": "no piece", "time": "time", "resignation": "resign", "agreement": "agreed",
	"illegal-move": "illegal", "arbiter": "arbiter", "forfeit": "forfeit",
}

// clockText returns what a DGT 3000 shows for an alert: its kind's words,
// a game's result and why ("1-0 mate", or "1/2-1/2" then "stalemat"), or
// any other text scrolled word by word, never cut.
func clockText(a *board.Alert) dgt.Text {
	var beep byte
	if a.Beep {
		beep = 4
	}
	if w, ok := clockWords[a.Kind]; ok {
		return dgt.Text{Frames: w.frames, Beep: beep, Brief: w.brief}
	}
	if a.Kind == "result" {
		result, reason, _ := strings.Cut(a.Text, " ")
		if r, ok := reasonWords[reason]; ok {
			reason = r
		}
		if reason == "" || len(result)+1+len(reason) <= dgt.TextWidth {
			return dgt.Text{Frames: []string{strings.TrimSpace(result + " " + reason)}, Beep: beep}
		}
		return dgt.Text{Frames: frames(result + " " + reason), Beep: beep}
	}
	return dgt.Text{Frames: frames(a.Text), Beep: beep, Brief: a.Level < board.AlertError}
}

// frames cuts text into frames of whole words, eight characters at most
// (a longer word goes on over several frames).
func frames(text string) []string {
	var out []string
	cur := ""
	for _, w := range strings.Fields(text) {
		for len(w) > dgt.TextWidth {
			if cur != "" {
				out, cur = append(out, cur), ""
			}
			out, w = append(out, w[:dgt.TextWidth]), w[dgt.TextWidth:]
		}
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) <= dgt.TextWidth:
			cur += " " + w
		default:
			out, cur = append(out, cur), w
		}
	}
	if cur != "" || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}
