package kifu

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/width"

	"arbiter/internal/oneline"
	"arbiter/rules"
	"arbiter/rules/shogi"
)

// handicapName returns the 手合割 name of a start position, if it has one.
func handicapName(sfen string) (string, bool) {
	for name, s := range shogi.Handicaps {
		if s == sfen {
			return name, true
		}
	}
	return "", false
}

// KIFOptions tune the KIF writer.
type KIFOptions struct {
	// Funari writes 不成 on declined promotions. Off by default, because
	// some readers reject it (spec 5.3).
	Funari bool
}

// WriteKIF writes r as KIF (UTF-8, the .kifu form; see [EncodeShiftJIS]
// for .kif): headers, a board diagram when the start is neither the even
// game nor a named handicap, move lines with times, the terminal line and
// the summary (spec 5.3).
func WriteKIF(r *Record, opts KIFOptions) (string, error) {
	pos, moves, err := r.Replay(nil)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.WriteString("#KIF version=2.0 encoding=UTF-8\n")
	writeJapaneseHeaders(&sb, r, pos[0])
	sb.WriteString("手数----指手---------消費時間--\n")
	var total [2]time.Duration
	for i, rm := range r.Moves {
		p := pos[i]
		c := p.Turn()
		total[c] += rm.Time
		writeKIFLine(&sb, i+1, p.KIFMove(moves[i], opts.Funari), rm.Time, total[c])
		writeComment(&sb, "*", rm.Comment)
	}
	last := pos[len(pos)-1]
	if r.End.Kind != NoTerminal {
		c := last.Turn()
		total[c] += r.End.Time
		writeKIFLine(&sb, len(r.Moves)+1, terminalWord(r.End, c), r.End.Time, total[c])
		writeComment(&sb, "*", r.End.Comment)
		sb.WriteString(summaryLine(r.End, len(r.Moves), c))
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}

func writeComment(sb *strings.Builder, prefix, text string) {
	if text == "" {
		return
	}
	for _, l := range strings.Split(text, "\n") {
		sb.WriteString(prefix)
		sb.WriteString(oneline.Clean(l))
		sb.WriteByte('\n')
	}
}

// writeKIFLine writes "   1 ７六歩(77)   ( 0:03/00:00:03)".
func writeKIFLine(sb *strings.Builder, ply int, move string, used, total time.Duration) {
	fmt.Fprintf(sb, "%4d %s", ply, move)
	sb.WriteString(strings.Repeat(" ", max(1, 13-displayWidth(move))))
	u, t := seconds(used), seconds(total)
	fmt.Fprintf(sb, "(%2d:%02d/%02d:%02d:%02d)\n", u/60, u%60, t/3600, t/60%60, t%60)
}

// writeJapaneseHeaders writes the KIF/KI2 headers and the start position.
func writeJapaneseHeaders(sb *strings.Builder, r *Record, start *shogi.Position) {
	h := func(k, v string) {
		v = oneline.Clean(v)
		if v != "" && kifKeyOK(k) {
			sb.WriteString(k + "：" + v + "\n")
		}
	}
	m := r.Meta
	if !m.StartTime.IsZero() {
		h("開始日時", formatRecordTime(m.StartTime))
	}
	if !m.EndTime.IsZero() {
		h("終了日時", formatRecordTime(m.EndTime))
	}
	h("棋戦", m.Event)
	h("場所", m.Site)
	if m.MainTime > 0 || m.Byoyomi > 0 || m.Increment > 0 {
		h("持ち時間", formatJapaneseDuration(m.MainTime))
	}
	if m.Byoyomi > 0 {
		h("秒読み", formatJapaneseDuration(m.Byoyomi))
	}
	if m.Increment > 0 {
		h("加算時間", formatJapaneseDuration(m.Increment))
	}
	name, named := handicapName(start.String())
	if named {
		h("手合割", name)
	}
	black, white := "先手", "後手"
	if named && name != "平手" {
		black, white = "下手", "上手"
	}
	h(black, m.Sente)
	h(white, m.Gote)
	h("戦型", m.Opening)
	h("備考", m.Note)
	for _, x := range m.Extra {
		h(x.Key, x.Value)
	}
	if !named {
		writeBOD(sb, start.Board())
	}
}

// bodNames are the one-character names of a board diagram.
var bodNames = map[shogi.PieceType]string{
	shogi.Tokin: "と", shogi.PromotedLance: "杏", shogi.PromotedKnight: "圭", shogi.PromotedSilver: "全",
}

// bodName returns t's name in a board diagram: one character.
func bodName(t shogi.PieceType) string {
	if n, ok := bodNames[t]; ok {
		return n
	}
	return t.KIFName()
}

// writeBOD writes the board diagram of b (KIF's BOD).
func writeBOD(sb *strings.Builder, b *shogi.Board) {
	hand := func(c rules.Color) {
		sb.WriteString(japaneseSide(c) + "の持駒：")
		var parts []string
		for _, t := range shogi.HandTypes() {
			if n := b.Hand(c, t); n > 0 {
				parts = append(parts, bodName(t)+kanjiCount(n))
			}
		}
		if len(parts) == 0 {
			sb.WriteString("なし")
		}
		sb.WriteString(strings.Join(parts, ideoSpace))
		sb.WriteByte('\n')
	}
	hand(rules.Second)
	sb.WriteString("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n")
	for r := 1; r <= 9; r++ {
		sb.WriteByte('|')
		for f := 9; f >= 1; f-- {
			p := b.At(shogi.SquareAt(f, r))
			switch {
			case p == shogi.NoPiece:
				sb.WriteString(" ・")
			case p.Color() == rules.Second:
				sb.WriteString("v" + bodName(p.Type()))
			default:
				sb.WriteString(" " + bodName(p.Type()))
			}
		}
		sb.WriteString("|" + kanjiNum(r) + "\n")
	}
	sb.WriteString("+---------------------------+\n")
	hand(rules.First)
	if b.Turn() == rules.Second {
		sb.WriteString("後手番\n")
	}
}

// bodReader collects a board diagram line by line.
type bodReader struct {
	b     *shogi.Board
	rows  int
	used  bool
	turnW bool
}

// line takes one header-area line and reports whether it belonged to a
// board diagram.
func (br *bodReader) line(l string) (bool, error) {
	if br.b == nil {
		br.b = shogi.NewBoard()
	}
	switch {
	case strings.HasPrefix(l, "|"):
		if br.rows >= 9 {
			return true, errors.New("board diagram has more than 9 ranks")
		}
		rs := []rune(strings.TrimPrefix(l, "|"))
		for f := range 9 {
			if len(rs) < 2*f+2 {
				return true, fmt.Errorf("board diagram rank %d: too short", br.rows+1)
			}
			mark, name := rs[2*f], string(rs[2*f+1])
			if name == "・" {
				continue
			}
			t, rest, ok := shogi.ParseKIFPiece(name)
			if !ok || rest != "" {
				return true, fmt.Errorf("board diagram rank %d file %d: unknown piece %q", br.rows+1, 9-f, name)
			}
			c := rules.First
			if mark == 'v' || mark == 'V' {
				c = rules.Second
			}
			if err := br.b.Put(shogi.SquareAt(9-f, br.rows+1), shogi.MakePiece(c, t)); err != nil {
				return true, fmt.Errorf("board diagram: %w", err)
			}
		}
		br.rows++
	case strings.HasPrefix(l, "+---") || strings.HasPrefix(strings.TrimSpace(l), "９ ８") || strings.HasPrefix(strings.TrimSpace(l), "9 8"):
	case strings.HasSuffix(l, "手番") && len([]rune(l)) <= 4:
		c, _, ok := parseJapaneseSide(l)
		if !ok {
			return true, fmt.Errorf("bad side to move %q", l)
		}
		br.turnW = c == rules.Second
	case strings.Contains(l, "の持駒"):
		c, rest, ok := parseJapaneseSide(l)
		if !ok {
			return true, fmt.Errorf("bad hand line %q", l)
		}
		_, v, ok := cutHeader(rest)
		if !ok {
			return true, fmt.Errorf("bad hand line %q", l)
		}
		if err := parseBODHand(br.b, c, v); err != nil {
			return true, err
		}
	default:
		return false, nil
	}
	br.used = true
	return true, nil
}

func parseBODHand(b *shogi.Board, c rules.Color, s string) error {
	s = strings.TrimSpace(strings.ReplaceAll(s, ideoSpace, " "))
	if s == "なし" || s == "" {
		return nil
	}
	for _, item := range strings.Fields(s) {
		t, rest, ok := shogi.ParseKIFPiece(item)
		if !ok || t.IsPromoted() || t == shogi.King {
			return fmt.Errorf("hand item %q: unknown piece", item)
		}
		n, ok := parseKanjiCount(rest)
		if !ok {
			return fmt.Errorf("hand item %q: bad count", item)
		}
		if err := b.SetHand(c, t, n); err != nil {
			return fmt.Errorf("hand item %q: %w", item, err)
		}
	}
	return nil
}

// finish returns the diagram's position as SFEN.
func (br *bodReader) finish() (string, error) {
	if br.rows != 9 {
		return "", fmt.Errorf("board diagram has %d ranks, want 9", br.rows)
	}
	if br.turnW {
		br.b.SetTurn(rules.Second)
	}
	if err := br.b.Validate(); err != nil {
		return "", fmt.Errorf("board diagram: %w", err)
	}
	return br.b.SFEN(), nil
}

// cutHeader splits "key：value" (full-width or ASCII colon).
func cutHeader(l string) (string, string, bool) {
	i := strings.Index(l, "：")
	n := len("：")
	if j := strings.IndexByte(l, ':'); j >= 0 && (i < 0 || j < i) {
		i, n = j, 1
	}
	if i < 0 {
		return "", "", false
	}
	return strings.TrimSpace(l[:i]), strings.TrimSpace(l[i+n:]), true
}

// headerParser fills a record's metadata and start from header lines.
type headerParser struct {
	r   *Record
	bod bodReader
}

// line takes a header-area line and reports whether it was one.
func (hp *headerParser) line(l string) (bool, error) {
	if ok, err := hp.bod.line(l); ok || err != nil {
		return ok, err
	}
	k, v, ok := cutHeader(l)
	if !ok || k == "" || strings.ContainsAny(k, " \t") {
		return false, nil
	}
	m := &hp.r.Meta
	switch k {
	case "開始日時":
		m.setTime(&m.StartTime, k, v)
	case "終了日時":
		m.setTime(&m.EndTime, k, v)
	case "棋戦":
		m.Event = v
	case "場所":
		m.Site = v
	case "先手", "下手":
		m.Sente = v
	case "後手", "上手":
		m.Gote = v
	case "戦型":
		m.Opening = v
	case "備考":
		m.Note = v
	case "手合割":
		s, ok := shogi.Handicaps[v]
		if !ok {
			if v == "その他" {
				return true, nil
			}
			return true, fmt.Errorf("unknown 手合割 %q", v)
		}
		hp.r.Start = s
	case "持ち時間", "秒読み", "加算時間":
		d, ok := parseJapaneseDuration(v)
		switch {
		case !ok:
			m.Extra = append(m.Extra, Header{k, v})
		case k == "持ち時間":
			m.MainTime = d
		case k == "秒読み":
			m.Byoyomi = d
		default:
			m.Increment = d
		}
	case "手数":
	default:
		m.Extra = append(m.Extra, Header{k, v})
	}
	return true, nil
}

// start settles the start position once the headers are over.
func (hp *headerParser) start() error {
	if hp.bod.used {
		s, err := hp.bod.finish()
		if err != nil {
			return err
		}
		hp.r.Start = s
	}
	if hp.r.Start == shogi.StartSFEN {
		hp.r.Start = ""
	}
	return nil
}

var (
	reKIFTime = regexp.MustCompile(`\(\s*(\d+):(\d+)(?:\s*/\s*(\d+):(\d+):(\d+))?\s*\)\s*\+?\s*$`)
	reKIFPly  = regexp.MustCompile(`^\s*(\d+)\s+(.*)$`)
)

// ReadKIF reads a KIF record (UTF-8 or Shift_JIS): headers, an optional
// board diagram, move lines with 同, 打, 成, 不成 and times, comments,
// the terminal line and the summary. Variations (変化) are skipped.
func ReadKIF(data []byte) (*Record, error) {
	lines, err := decodeText(data)
	if err != nil {
		return nil, &LineError{"kif", 1, err}
	}
	r := &Record{}
	hp := headerParser{r: r}
	var pos *shogi.Position
	ply0 := 0 // number of the line before the first move
	ended := false
	fail := func(i int, err error) (*Record, error) { return nil, &LineError{"kif", i + 1, err} }
	for i, raw := range lines {
		l := strings.TrimRight(raw, " \t")
		switch {
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "&"):
			continue
		case strings.HasPrefix(l, "変化："), strings.HasPrefix(l, "変化:"):
			return r, nil
		case strings.HasPrefix(l, "*"):
			text := strings.TrimPrefix(l, "*")
			switch {
			case pos == nil:
			case ended:
				r.End.Comment = joinComment(r.End.Comment, text)
			case len(r.Moves) > 0:
				rm := &r.Moves[len(r.Moves)-1]
				rm.Comment = joinComment(rm.Comment, text)
			}
			continue
		case strings.HasPrefix(l, "まで"):
			if pos == nil {
				return fail(i, errors.New("summary line before any move"))
			}
			t, ok := parseSummary(l, pos.Turn())
			if !ok {
				return fail(i, fmt.Errorf("bad summary line %q", l))
			}
			if !ended || (r.End.Kind == t.Kind && r.End.Side != t.Side) {
				// The summary names the loser of a resignation out of turn.
				tm, cm := r.End.Time, r.End.Comment
				r.End = t
				r.End.Time, r.End.Comment = tm, cm
			}
			continue
		}
		if pos == nil {
			if strings.HasPrefix(l, "手数----") || strings.HasPrefix(l, "手数-") {
				if err := hp.start(); err != nil {
					return fail(i, err)
				}
				if pos, err = r.startPosition(); err != nil {
					return fail(i, err)
				}
				continue
			}
			if k, v, ok := cutHeader(l); ok && k == "手数" {
				if n, err := strconv.Atoi(width.Narrow.String(strings.TrimPrefix(v, "＝"))); err == nil {
					ply0 = n
				}
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(l), "手数＝") {
				n, err := strconv.Atoi(width.Narrow.String(strings.TrimPrefix(strings.TrimSpace(l), "手数＝")))
				if err != nil {
					return fail(i, fmt.Errorf("bad move count %q", l))
				}
				ply0 = n
				continue
			}
			if ok, err := hp.line(l); err != nil {
				return fail(i, err)
			} else if ok {
				continue
			}
			if !reKIFPly.MatchString(l) {
				return fail(i, fmt.Errorf("unexpected line %q", l))
			}
			// Moves without the separator line.
			if err := hp.start(); err != nil {
				return fail(i, err)
			}
			if pos, err = r.startPosition(); err != nil {
				return fail(i, err)
			}
		}
		m := reKIFPly.FindStringSubmatch(l)
		if m == nil {
			return fail(i, fmt.Errorf("want a move line \"ply move (time)\", got %q", l))
		}
		if ended {
			return fail(i, fmt.Errorf("move after the terminal line: %q", l))
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || (n != len(r.Moves)+1 && n != ply0+len(r.Moves)+1) {
			return fail(i, fmt.Errorf("move number %s, want %d", m[1], len(r.Moves)+1))
		}
		body := m[2]
		var used time.Duration
		if tm := reKIFTime.FindStringSubmatchIndex(body); tm != nil {
			mm, _ := strconv.Atoi(body[tm[2]:tm[3]])
			ss, _ := strconv.Atoi(body[tm[4]:tm[5]])
			if ss >= 60 {
				return fail(i, fmt.Errorf("bad time %q: seconds over 59", body[tm[0]:]))
			}
			used = time.Duration(mm)*time.Minute + time.Duration(ss)*time.Second
			body = body[:tm[0]]
		}
		body = strings.TrimRight(body, " \t+")
		if t, ok := parseTerminalWord(body, pos.Turn()); ok {
			t.Time = used
			r.End = t
			ended = true
			continue
		}
		var mv shogi.Move
		if pos, mv, err = playText(pos, body); err != nil {
			return fail(i, fmt.Errorf("move %d: %w", len(r.Moves)+1, err))
		}
		r.Moves = append(r.Moves, RecordMove{USI: mv.String(), Time: used})
	}
	if pos == nil {
		if err := hp.start(); err != nil {
			return nil, &LineError{"kif", len(lines), err}
		}
	}
	return r, nil
}

func joinComment(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

// kifKeyOK reports whether k can be written as a KIF header key that
// reads back as one (CSA headers may carry any key).
func kifKeyOK(k string) bool {
	if k == "" || strings.ContainsAny(k, ":：\r\n \t"+ideoSpace) || strings.ContainsAny(k[:1], "#*&|+0123456789") {
		return false
	}
	for _, bad := range []string{"まで", "変化", "手数", "▲", "△", "☗", "☖", "▽"} {
		if strings.HasPrefix(k, bad) {
			return false
		}
	}
	return !strings.Contains(k, "の持駒") && !strings.HasSuffix(k, "手番")
}
