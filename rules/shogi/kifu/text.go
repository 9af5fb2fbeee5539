package kifu

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/width"

	"arbiter/rules"
)

const (
	ideoSpace  = "\u3000"
	kanjiDigit = "一二三四五六七八九"
)

// kanjiNum returns the kanji numeral of n (1..9).
func kanjiNum(n int) string { return kanjiDigit[(n-1)*3 : n*3] }

// kanjiCount writes a hand count as KIF does: 二 .. 十八, nothing for 1.
func kanjiCount(n int) string {
	switch {
	case n <= 1:
		return ""
	case n < 10:
		return kanjiNum(n)
	case n == 10:
		return "十"
	}
	return "十" + kanjiNum(n-10)
}

// parseKanjiCount reads a count written as kanji (二, 十, 十八) or digits;
// the empty string is 1.
func parseKanjiCount(s string) (int, bool) {
	if s == "" {
		return 1, true
	}
	n := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			n = n*10 + int(r-'0')
		case r == '十':
			if n == 0 {
				n = 1
			}
			n *= 10
		default:
			i := strings.IndexRune(kanjiDigit, r)
			if i < 0 {
				return 0, false
			}
			if n >= 10 && n%10 == 0 {
				n += i/3 + 1
			} else {
				n = n*10 + i/3 + 1
			}
		}
		if n > 99 {
			return 0, false
		}
	}
	return n, n >= 1
}

// displayWidth counts a full-width character as two columns.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		if r < 0x80 {
			w++
		} else {
			w += 2
		}
	}
	return w
}

// decodeText returns a record file as UTF-8 lines: UTF-8 (with or without
// a byte order mark) is taken as is, anything else is read as Shift_JIS
// (CP932), the traditional encoding of .kif and .csa files.
func decodeText(data []byte) ([]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var s string
	if utf8.Valid(data) {
		s = string(data)
	} else {
		out, err := japanese.ShiftJIS.NewDecoder().Bytes(data)
		if err != nil {
			return nil, fmt.Errorf("decode Shift_JIS: %w", err)
		}
		s = string(out)
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n"), nil
}

// EncodeShiftJIS converts a UTF-8 record (KIF, KI2 or CSA as written by
// this package) to Shift_JIS with CRLF line ends, for .kif files.
func EncodeShiftJIS(s string) ([]byte, error) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\n", "\r\n")
	out, err := japanese.ShiftJIS.NewEncoder().String(s)
	if err != nil {
		return nil, fmt.Errorf("encode Shift_JIS: %w", err)
	}
	return []byte(out), nil
}

// LineError is a record parse error at a line (from 1).
type LineError struct {
	Format string // "kif", "ki2", "csa"
	Line   int
	Err    error
}

// Error returns "kif line 12: ...".
func (e *LineError) Error() string { return fmt.Sprintf("%s line %d: %v", e.Format, e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

var (
	reHours   = regexp.MustCompile(`(\d+)\s*時間`)
	reMinutes = regexp.MustCompile(`(\d+)\s*分`)
	reSeconds = regexp.MustCompile(`(\d+)\s*秒`)
)

// parseJapaneseDuration reads "10分", "1時間30分", "30秒", "各10分".
func parseJapaneseDuration(s string) (time.Duration, bool) {
	s = width.Narrow.String(s)
	var d time.Duration
	found := false
	for _, u := range []struct {
		re   *regexp.Regexp
		unit time.Duration
	}{{reHours, time.Hour}, {reMinutes, time.Minute}, {reSeconds, time.Second}} {
		if m := u.re.FindStringSubmatch(s); m != nil {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				return 0, false
			}
			d += time.Duration(n) * u.unit
			found = true
		}
	}
	return d, found
}

// formatJapaneseDuration writes "10分", "1時間30分", "30秒".
func formatJapaneseDuration(d time.Duration) string {
	s := seconds(d)
	h, m, sec := s/3600, s/60%60, s%60
	var sb strings.Builder
	if h > 0 {
		fmt.Fprintf(&sb, "%d時間", h)
	}
	if m > 0 || (h == 0 && sec == 0) {
		fmt.Fprintf(&sb, "%d分", m)
	}
	if sec > 0 {
		fmt.Fprintf(&sb, "%d秒", sec)
	}
	return sb.String()
}

// japaneseSide names a side 先手 or 後手; readers also accept 下手 and 上手,
// the names of handicap games.
func japaneseSide(c rules.Color) string {
	if c == rules.First {
		return "先手"
	}
	return "後手"
}

func parseJapaneseSide(s string) (rules.Color, string, bool) {
	for _, x := range []struct {
		name string
		c    rules.Color
	}{{"先手", rules.First}, {"下手", rules.First}, {"後手", rules.Second}, {"上手", rules.Second}} {
		if rest, ok := strings.CutPrefix(s, x.name); ok {
			return x.c, rest, true
		}
	}
	return 0, s, false
}

// summaryLine writes the KIF/KI2 summary "まで6手で後手の勝ち" for a game
// of n moves ending with t, the side to move at the end being turn.
func summaryLine(t Terminal, n int, turn rules.Color) string {
	head := fmt.Sprintf("まで%d手で", n)
	switch t.Kind {
	case Resign:
		return head + japaneseSide(t.Side.Other()) + "の勝ち"
	case Mate:
		return head + "詰み"
	case TimeUp:
		return head + "時間切れにより" + japaneseSide(t.Side.Other()) + "の勝ち"
	case FoulLoss:
		if t.Side == turn {
			return head + japaneseSide(t.Side) + "の反則負け"
		}
		return head + japaneseSide(turn) + "の反則勝ち"
	case Sennichite:
		return head + "千日手"
	case JishogiDraw, MoveLimit, DrawGame:
		return head + "持将棋"
	case EnteringKingWin:
		return head + japaneseSide(t.Side) + "の入玉勝ち"
	case Abort:
		return head + "中断"
	}
	return ""
}

// terminalWord is the KIF terminal move of t.
func terminalWord(t Terminal, turn rules.Color) string {
	switch t.Kind {
	case Resign:
		return "投了"
	case Mate:
		return "詰み"
	case TimeUp:
		return "切れ負け"
	case FoulLoss:
		if t.Side == turn {
			return "反則負け"
		}
		return "反則勝ち"
	case Sennichite:
		return "千日手"
	case JishogiDraw, MoveLimit, DrawGame:
		return "持将棋"
	case EnteringKingWin:
		return "入玉勝ち"
	case Abort:
		return "中断"
	}
	return ""
}

// parseTerminalWord reads a KIF terminal move; turn is the side to move.
func parseTerminalWord(s string, turn rules.Color) (Terminal, bool) {
	switch s {
	case "投了":
		return Terminal{Kind: Resign, Side: turn}, true
	case "詰み":
		return Terminal{Kind: Mate, Side: turn}, true
	case "切れ負け", "時間切れ":
		return Terminal{Kind: TimeUp, Side: turn}, true
	case "反則負け":
		return Terminal{Kind: FoulLoss, Side: turn}, true
	case "反則勝ち":
		return Terminal{Kind: FoulLoss, Side: turn.Other()}, true
	case "千日手":
		return Terminal{Kind: Sennichite}, true
	case "持将棋":
		return Terminal{Kind: JishogiDraw}, true
	case "入玉勝ち", "宣言勝ち":
		return Terminal{Kind: EnteringKingWin, Side: turn}, true
	case "中断":
		return Terminal{Kind: Abort}, true
	case "不詰":
		return Terminal{Kind: NoTerminal}, true
	}
	return Terminal{}, false
}

// parseSummary reads "まで6手で後手の勝ち" (spec 5.3, 5.6); turn is the
// side to move at the end.
func parseSummary(s string, turn rules.Color) (Terminal, bool) {
	rest, ok := strings.CutPrefix(s, "まで")
	if !ok {
		return Terminal{}, false
	}
	i := strings.Index(rest, "手")
	if i < 0 {
		return Terminal{}, false
	}
	rest = strings.TrimPrefix(rest[i+len("手"):], "で")
	rest = strings.TrimSpace(rest)
	if t, ok := parseTerminalWord(rest, turn); ok && t.Kind != Resign {
		return t, true
	}
	if r, ok := strings.CutPrefix(rest, "時間切れにより"); ok {
		if c, r2, ok := parseJapaneseSide(r); ok && r2 == "の勝ち" {
			return Terminal{Kind: TimeUp, Side: c.Other()}, true
		}
		return Terminal{}, false
	}
	c, r, ok := parseJapaneseSide(rest)
	if !ok {
		return Terminal{}, false
	}
	switch r {
	case "の勝ち":
		return Terminal{Kind: Resign, Side: c.Other()}, true
	case "の反則負け":
		return Terminal{Kind: FoulLoss, Side: c}, true
	case "の反則勝ち":
		return Terminal{Kind: FoulLoss, Side: c.Other()}, true
	case "の入玉勝ち":
		return Terminal{Kind: EnteringKingWin, Side: c}, true
	case "の時間切れ負け", "の切れ負け":
		return Terminal{Kind: TimeUp, Side: c}, true
	}
	return Terminal{}, false
}
