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
	var err error
	switch {
	case strings.HasPrefix(l, "|"):
		err = br.rank(strings.TrimPrefix(l, "|"))
	case strings.HasPrefix(l, "+---") || strings.HasPrefix(strings.TrimSpace(l), "９ ８") || strings.HasPrefix(strings.TrimSpace(l), "9 8"):
		// A frame or the file numbers.
	case strings.HasSuffix(l, "手番") && len([]rune(l)) <= 4:
		err = br.turn(l)
	case strings.Contains(l, "の持駒"):
		err = br.hand(l)
	default:
		return false, nil
	}
	if err != nil {
		return true, err
	}
	br.used = true
	return true, nil
}

// rank takes the next rank of the diagram, its line without the '|' that
// starts it.
func (br *bodReader) rank(row string) error {
	if br.rows >= 9 {
		return errors.New("board diagram has more than 9 ranks")
	}
	rs := []rune(row)
	for f := range 9 {
		if len(rs) < 2*f+2 {
			return fmt.Errorf("board diagram rank %d: too short", br.rows+1)
		}
		if err := br.cell(9-f, rs[2*f], string(rs[2*f+1])); err != nil {
			return err
		}
	}
	br.rows++
	return nil
}

// cell puts on file file of the rank being read the piece that name and
// mark ('v' for gote's) give, nothing for ・.
func (br *bodReader) cell(file int, mark rune, name string) error {
	if name == "・" {
		return nil
	}
	t, rest, ok := shogi.ParseKIFPiece(name)
	if !ok || rest != "" {
		return fmt.Errorf("board diagram rank %d file %d: unknown piece %q", br.rows+1, file, name)
	}
	c := rules.First
	if mark == 'v' || mark == 'V' {
		c = rules.Second
	}
	if err := br.b.Put(shogi.SquareAt(file, br.rows+1), shogi.MakePiece(c, t)); err != nil {
		return fmt.Errorf("board diagram: %w", err)
	}
	return nil
}

// turn takes the side-to-move line, 先手番 or 後手番.
func (br *bodReader) turn(l string) error {
	c, _, ok := parseJapaneseSide(l)
	if !ok {
		return fmt.Errorf("bad side to move %q", l)
	}
	br.turnW = c == rules.Second
	return nil
}

// hand takes a hand line, "先手の持駒：…".
func (br *bodReader) hand(l string) error {
	c, rest, ok := parseJapaneseSide(l)
	if !ok {
		return fmt.Errorf("bad hand line %q", l)
	}
	_, v, ok := cutHeader(rest)
	if !ok {
		return fmt.Errorf("bad hand line %q", l)
	}
	return parseBODHand(br.b, c, v)
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
	return true, hp.header(k, v)
}

// header takes the header k：v. A header without a field of Meta, or a
// time limit that does not read as one, is kept in Meta.Extra.
func (hp *headerParser) header(k, v string) error {
	m := &hp.r.Meta
	if f := m.kifText(k); f != nil {
		*f = v
		return nil
	}
	if f := m.kifTime(k); f != nil {
		m.setTime(f, k, v)
		return nil
	}
	if f := m.kifDuration(k); f != nil {
		if d, ok := parseJapaneseDuration(v); ok {
			*f = d
			return nil
		}
	}
	switch k {
	case "手合割":
		return hp.handicap(v)
	case "手数":
		return nil
	}
	m.Extra = append(m.Extra, Header{k, v})
	return nil
}

// handicap takes the 手合割 header: a named start position, or その他
// (other) for the board diagram to give.
func (hp *headerParser) handicap(v string) error {
	s, ok := shogi.Handicaps[v]
	switch {
	case ok:
		hp.r.Start = s
	case v != "その他":
		return fmt.Errorf("unknown 手合割 %q", v)
	}
	return nil
}

// kifText returns the text field of m that the KIF header k fills, nil
// for a key of another kind.
func (m *Meta) kifText(k string) *string {
	switch k {
	case "棋戦":
		return &m.Event
	case "場所":
		return &m.Site
	case "先手", "下手":
		return &m.Sente
	case "後手", "上手":
		return &m.Gote
	case "戦型":
		return &m.Opening
	case "備考":
		return &m.Note
	}
	return nil
}

// kifTime returns the instant field of m that the KIF header k fills, nil
// for a key of another kind.
func (m *Meta) kifTime(k string) *time.Time {
	switch k {
	case "開始日時":
		return &m.StartTime
	case "終了日時":
		return &m.EndTime
	}
	return nil
}

// kifDuration returns the time-limit field of m that the KIF header k
// fills, nil for a key of another kind.
func (m *Meta) kifDuration(k string) *time.Duration {
	switch k {
	case "持ち時間":
		return &m.MainTime
	case "秒読み":
		return &m.Byoyomi
	case "加算時間":
		return &m.Increment
	}
	return nil
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

// position settles the start position once the headers are over and
// returns it.
func (hp *headerParser) position() (*shogi.Position, error) {
	if err := hp.start(); err != nil {
		return nil, err
	}
	return hp.r.startPosition()
}

// japaneseReader is what the KIF and KI2 readers share: the record being
// read, its headers, and the position once the moves have begun.
type japaneseReader struct {
	r   *Record
	hp  headerParser
	pos *shogi.Position
}

func newJapaneseReader() japaneseReader {
	r := &Record{}
	return japaneseReader{r: r, hp: headerParser{r: r}}
}

// read reads the lines of a KIF or KI2 file (format names it in errors)
// with line, which takes one and reports whether the record stops there.
func (jr *japaneseReader) read(format string, data []byte, line func(string) (bool, error)) (*Record, error) {
	lines, err := decodeText(data)
	if err != nil {
		return nil, &LineError{format, 1, err}
	}
	for i, raw := range lines {
		stop, err := line(raw)
		if err != nil {
			return nil, &LineError{format, i + 1, err}
		}
		if stop {
			return jr.r, nil
		}
	}
	if jr.pos == nil {
		if err := jr.hp.start(); err != nil {
			return nil, &LineError{format, len(lines), err}
		}
	}
	return jr.r, nil
}

// begin settles the start position: the moves begin.
func (jr *japaneseReader) begin() error {
	pos, err := jr.hp.position()
	jr.pos = pos
	return err
}

// ignoredLine reports whether a KIF or KI2 line carries nothing: blank, a
// #comment or an &annotation.
func ignoredLine(l string) bool {
	return strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "&")
}

// isVariation reports whether a KIF or KI2 line starts a variation
// (変化), where the main line ends.
func isVariation(l string) bool {
	return strings.HasPrefix(l, "変化：") || strings.HasPrefix(l, "変化:")
}

// addComment adds a comment line to the terminal event (toEnd) or else to
// the last move, if there is one.
func (r *Record) addComment(toEnd bool, text string) {
	if toEnd {
		r.End.Comment = joinComment(r.End.Comment, text)
		return
	}
	if n := len(r.Moves); n > 0 {
		r.Moves[n-1].Comment = joinComment(r.Moves[n-1].Comment, text)
	}
}

var (
	reKIFTime = regexp.MustCompile(`\(\s*(\d+):(\d+)(?:\s*/\s*(\d+):(\d+):(\d+))?\s*\)\s*\+?\s*$`)
	reKIFPly  = regexp.MustCompile(`^\s*(\d+)\s+(.*)$`)
)

// ReadKIF reads a KIF record (UTF-8 or Shift_JIS): headers, an optional
// board diagram, move lines with 同, 打, 成, 不成 and times, comments,
// the terminal line and the summary. Variations (変化) are skipped.
func ReadKIF(data []byte) (*Record, error) {
	kr := &kifReader{japaneseReader: newJapaneseReader()}
	return kr.read("kif", data, kr.line)
}

// kifReader is the KIF reader's progress through a file: the headers
// until the moves begin (pos set), then the moves until the terminal line
// (ended).
type kifReader struct {
	japaneseReader
	ply0  int // number of the line before the first move
	ended bool
}

// line takes the line raw and reports whether the record stops there (at
// a variation).
func (kr *kifReader) line(raw string) (stop bool, err error) {
	l := strings.TrimRight(raw, " \t")
	switch {
	case ignoredLine(l):
		return false, nil
	case isVariation(l):
		return true, nil
	case strings.HasPrefix(l, "*"):
		kr.r.addComment(kr.ended, strings.TrimPrefix(l, "*"))
		return false, nil
	case strings.HasPrefix(l, "まで"):
		return false, kr.summary(l)
	}
	if kr.pos == nil {
		isMove, err := kr.header(l)
		if err != nil || !isMove {
			return false, err
		}
	}
	return false, kr.move(l)
}

// summary takes the summary line l ("まで…"), which settles the terminal
// event unless the terminal line did.
func (kr *kifReader) summary(l string) error {
	if kr.pos == nil {
		return errors.New("summary line before any move")
	}
	t, ok := parseSummary(l, kr.pos.Turn())
	if !ok {
		return fmt.Errorf("bad summary line %q", l)
	}
	if !kr.ended || (kr.r.End.Kind == t.Kind && kr.r.End.Side != t.Side) {
		// The summary names the loser of a resignation out of turn.
		tm, cm := kr.r.End.Time, kr.r.End.Comment
		kr.r.End = t
		kr.r.End.Time, kr.r.End.Comment = tm, cm
	}
	return nil
}

// header takes a line l before the moves: a header, a board diagram line,
// the move count, the separator line that starts the moves, or the first
// move line (reported) when there is no separator.
func (kr *kifReader) header(l string) (isMove bool, err error) {
	if strings.HasPrefix(l, "手数-") {
		return false, kr.begin()
	}
	if k, v, ok := cutHeader(l); ok && k == "手数" {
		if n, err := strconv.Atoi(width.Narrow.String(strings.TrimPrefix(v, "＝"))); err == nil {
			kr.ply0 = n
		}
		return false, nil
	}
	if v, ok := strings.CutPrefix(strings.TrimSpace(l), "手数＝"); ok {
		n, err := strconv.Atoi(width.Narrow.String(v))
		if err != nil {
			return false, fmt.Errorf("bad move count %q", l)
		}
		kr.ply0 = n
		return false, nil
	}
	if ok, err := kr.hp.line(l); err != nil || ok {
		return false, err
	}
	if !reKIFPly.MatchString(l) {
		return false, fmt.Errorf("unexpected line %q", l)
	}
	// Moves without the separator line.
	return true, kr.begin()
}

// move takes a move line l: "ply move (time)", or the terminal line in
// its place.
func (kr *kifReader) move(l string) error {
	m := reKIFPly.FindStringSubmatch(l)
	if m == nil {
		return fmt.Errorf("want a move line \"ply move (time)\", got %q", l)
	}
	if kr.ended {
		return fmt.Errorf("move after the terminal line: %q", l)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || (n != len(kr.r.Moves)+1 && n != kr.ply0+len(kr.r.Moves)+1) {
		return fmt.Errorf("move number %s, want %d", m[1], len(kr.r.Moves)+1)
	}
	body, used, err := cutKIFTime(m[2])
	if err != nil {
		return err
	}
	if t, ok := parseTerminalWord(body, kr.pos.Turn()); ok {
		t.Time = used
		kr.r.End = t
		kr.ended = true
		return nil
	}
	pos, mv, err := playText(kr.pos, body)
	if err != nil {
		return fmt.Errorf("move %d: %w", len(kr.r.Moves)+1, err)
	}
	kr.pos = pos
	kr.r.Moves = append(kr.r.Moves, RecordMove{USI: mv.String(), Time: used})
	return nil
}

// cutKIFTime cuts the time, "( m:ss/hh:mm:ss)", off the end of a move
// line's body and returns the move and the time it took.
func cutKIFTime(body string) (string, time.Duration, error) {
	var used time.Duration
	if tm := reKIFTime.FindStringSubmatchIndex(body); tm != nil {
		mm, _ := strconv.Atoi(body[tm[2]:tm[3]])
		ss, _ := strconv.Atoi(body[tm[4]:tm[5]])
		if ss >= 60 {
			return "", 0, fmt.Errorf("bad time %q: seconds over 59", body[tm[0]:])
		}
		used = time.Duration(mm)*time.Minute + time.Duration(ss)*time.Second
		body = body[:tm[0]]
	}
	return strings.TrimRight(body, " \t+"), used, nil
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
