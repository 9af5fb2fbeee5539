package kifu

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"arbiter/internal/oneline"
	"arbiter/rules"
	"arbiter/rules/shogi"
)

// WriteCSA writes r in CSA V2.2 (spec 5.4): names, $ headers, the start
// position (PI for the even game and, with the pieces left out, for a
// handicap: PI82HI22KA; P1-P9 and hand lines otherwise), the
// moves each followed by its T time line, move comments as '* lines, and
// the special line of the terminal event.
func WriteCSA(r *Record) (string, error) {
	pos, moves, err := r.Replay(nil)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	writeCSAMeta(&sb, r.Meta)
	start := pos[0].Board()
	if pi, ok := csaHandicap(start); ok {
		writeLine(&sb, pi)
	} else {
		writeCSABoard(&sb, start)
	}
	writeLine(&sb, csaSign(start.Turn()))
	for i, rm := range r.Moves {
		writeLine(&sb, pos[i].CSAMove(moves[i]))
		writeLine(&sb, "T"+strconv.FormatInt(seconds(rm.Time), 10))
		writeComment(&sb, "'*", rm.Comment)
	}
	writeCSAEnd(&sb, r.End, pos[len(pos)-1].Turn())
	return sb.String(), nil
}

// writeLine writes s and a newline.
func writeLine(sb *strings.Builder, s string) {
	sb.WriteString(s)
	sb.WriteByte('\n')
}

// writeCSAMeta writes the version, the names, the $ headers, the
// increment and the note of a CSA record.
func writeCSAMeta(sb *strings.Builder, m Meta) {
	writeLine(sb, "V2.2")
	if m.Sente != "" {
		writeLine(sb, "N+"+oneline.Clean(m.Sente))
	}
	if m.Gote != "" {
		writeLine(sb, "N-"+oneline.Clean(m.Gote))
	}
	h := func(k, v string) {
		if v = oneline.Clean(v); v != "" {
			writeLine(sb, "$"+k+":"+v)
		}
	}
	h("EVENT", m.Event)
	h("SITE", m.Site)
	if !m.StartTime.IsZero() {
		h("START_TIME", formatRecordTime(m.StartTime))
	}
	if !m.EndTime.IsZero() {
		h("END_TIME", formatRecordTime(m.EndTime))
	}
	if m.MainTime > 0 || m.Byoyomi > 0 {
		mt := seconds(m.MainTime)
		h("TIME_LIMIT", fmt.Sprintf("%02d:%02d+%02d", mt/3600, mt/60%60, seconds(m.Byoyomi)))
	}
	if m.Increment > 0 {
		writeLine(sb, fmt.Sprintf("'Fischer increment %d s", seconds(m.Increment)))
	}
	h("OPENING", m.Opening)
	writeComment(sb, "'", m.Note)
}

// writeCSAEnd writes the terminal event end, turn being the side to move
// at the end: its comment, the winner when the event is not by the side
// to move, and its special line.
func writeCSAEnd(sb *strings.Builder, end Terminal, turn rules.Color) {
	sp := csaSpecial(end, turn)
	if sp == "" {
		return
	}
	writeComment(sb, "'", end.Comment)
	if end.Side != turn {
		// The event is not by the side to move: say who won.
		switch end.Kind {
		case Resign, TimeUp:
			writeLine(sb, "'winner:"+csaSign(end.Side.Other()))
		case EnteringKingWin:
			writeLine(sb, "'winner:"+csaSign(end.Side))
		}
	}
	writeLine(sb, sp)
}

func csaSpecial(t Terminal, turn rules.Color) string {
	switch t.Kind {
	case Resign:
		return "%TORYO"
	case Mate:
		return "%TSUMI"
	case TimeUp:
		return "%TIME_UP"
	case FoulLoss:
		return "%" + csaSign(t.Side) + "ILLEGAL_ACTION"
	case Sennichite:
		return "%SENNICHITE"
	case JishogiDraw:
		return "%JISHOGI"
	case EnteringKingWin:
		return "%KACHI"
	case Abort:
		return "%CHUDAN"
	case MoveLimit:
		return "%MAX_MOVES"
	case DrawGame:
		return "%HIKIWAKE"
	}
	return ""
}

func csaSign(c rules.Color) string {
	if c == rules.First {
		return "+"
	}
	return "-"
}

// writeCSABoard writes P1-P9 and the P+/P- hand lines.
// csaHandicap returns the PI line of a start position that is the even
// game's less some of its pieces, with the even game's side to move or,
// pieces being left out, gote's (a handicap, 駒落ち): "PI" and each
// missing piece, "PI82HI22KA" for the two-piece handicap.
func csaHandicap(b *shogi.Board) (string, bool) {
	even, err := shogi.ParseSFEN(shogi.StartSFEN)
	if err != nil {
		return "", false
	}
	line := "PI"
	for r := 1; r <= 9; r++ {
		for f := 1; f <= 9; f++ {
			sq := shogi.SquareAt(f, r)
			want, got := even.At(sq), b.At(sq)
			switch {
			case got == want:
			case got == shogi.NoPiece:
				line += strconv.Itoa(f) + strconv.Itoa(r) + want.Type().CSACode()
			default:
				return "", false
			}
		}
	}
	for c := rules.First; c <= rules.Second; c++ {
		for _, t := range shogi.HandTypes() {
			if b.Hand(c, t) > 0 {
				return "", false
			}
		}
	}
	if line == "PI" && b.Turn() != rules.First || line != "PI" && b.Turn() != rules.Second {
		return "", false
	}
	return line, true
}

func writeCSABoard(sb *strings.Builder, b *shogi.Board) {
	for r := 1; r <= 9; r++ {
		fmt.Fprintf(sb, "P%d", r)
		for f := 9; f >= 1; f-- {
			p := b.At(shogi.SquareAt(f, r))
			if p == shogi.NoPiece {
				sb.WriteString(" * ")
				continue
			}
			sb.WriteString(csaSign(p.Color()) + p.Type().CSACode())
		}
		sb.WriteByte('\n')
	}
	for c := rules.First; c <= rules.Second; c++ {
		var items strings.Builder
		for _, t := range shogi.HandTypes() {
			for range b.Hand(c, t) {
				items.WriteString("00" + t.CSACode())
			}
		}
		if items.Len() > 0 {
			sb.WriteString("P" + csaSign(c) + items.String() + "\n")
		}
	}
}

// csaState is the CSA reader's progress through a file.
type csaState struct {
	r        *Record
	board    *shogi.Board // the start position being built
	hasBoard bool
	pos      *shogi.Position
	ended    bool
	winner   int    // 0 none, 1 Black, 2 White, from a 'winner: comment
	pending  string // comment lines since the last move, for the terminal event
}

// ReadCSA reads a CSA record, V2.2 or V3.0 (UTF-8 or Shift_JIS): names,
// $ headers, PI or P1-P9 and P+/P- start positions, moves with T times,
// comments, and the special that ends the game. Several statements may
// share a line, separated by commas.
func ReadCSA(data []byte) (*Record, error) {
	lines, err := decodeText(data)
	if err != nil {
		return nil, &LineError{"csa", 1, err}
	}
	st := &csaState{r: &Record{}}
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			continue
		}
		if l[0] == '\'' {
			st.comment(l[1:])
			continue
		}
		stmts := []string{l}
		if l[0] != 'P' && l[0] != 'N' && l[0] != '$' {
			stmts = strings.Split(l, ",")
		}
		for _, s := range stmts {
			if err := st.statement(s); err != nil {
				return nil, &LineError{"csa", i + 1, err}
			}
		}
	}
	if st.pos == nil && st.hasBoard {
		return nil, &LineError{"csa", len(lines), errors.New("no line giving the side to move (+ or -)")}
	}
	if st.winner != 0 {
		switch w := rules.Color(st.winner - 1); st.r.End.Kind {
		case Resign, TimeUp:
			st.r.End.Side = w.Other()
		case EnteringKingWin:
			st.r.End.Side = w
		}
	}
	return st.r, nil
}

func (st *csaState) comment(text string) {
	switch {
	case strings.HasPrefix(text, "*"):
		if n := len(st.r.Moves); n > 0 && !st.ended {
			st.r.Moves[n-1].Comment = joinComment(st.r.Moves[n-1].Comment, text[1:])
		}
	case strings.HasPrefix(text, "winner:+"):
		st.winner = 1
	case strings.HasPrefix(text, "winner:-"):
		st.winner = 2
	case strings.HasPrefix(text, "CSA encoding="), strings.HasPrefix(text, "Fischer increment "):
		if v, ok := strings.CutPrefix(text, "Fischer increment "); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(v, " s")); err == nil {
				st.r.Meta.Increment = time.Duration(n) * time.Second
			}
		}
	case st.pos == nil:
		st.r.Meta.Note = joinComment(st.r.Meta.Note, text)
	case st.ended:
		st.r.End.Comment = joinComment(st.r.End.Comment, text)
	default:
		st.pending = joinComment(st.pending, text)
	}
}

func (st *csaState) statement(s string) error {
	if s == "" {
		return nil
	}
	switch {
	case s[0] == 'V':
		return csaVersion(s)
	case strings.HasPrefix(s, "N+"):
		st.r.Meta.Sente = s[2:]
	case strings.HasPrefix(s, "N-"):
		st.r.Meta.Gote = s[2:]
	case s[0] == '$':
		return st.info(s)
	case s[0] == 'P':
		return st.position(s)
	case s == "+" || s == "-":
		return st.begin(s)
	case s[0] == '+' || s[0] == '-':
		return st.move(s)
	case s[0] == 'T':
		return st.time(s)
	case s[0] == '%':
		return st.special(s)
	default:
		return fmt.Errorf("unexpected statement %q", s)
	}
	return nil
}

// csaVersion checks a version statement: V2, V2.1, V2.2 or V3.0.
func csaVersion(s string) error {
	switch s {
	case "V2", "V2.1", "V2.2", "V3.0":
		return nil
	}
	return fmt.Errorf("unknown CSA version %q", s)
}

// time takes a T statement, the seconds the last move or the terminal
// event took.
func (st *csaState) time(s string) error {
	if st.pos == nil {
		return fmt.Errorf("time %q before the first move", s)
	}
	v, err := strconv.ParseFloat(s[1:], 64)
	if err != nil || v < 0 || v > 1e9 || math.IsNaN(v) {
		return fmt.Errorf("bad time %q: want T and seconds", s)
	}
	d := time.Duration(v * float64(time.Second))
	switch {
	case st.ended:
		st.r.End.Time = d
	case len(st.r.Moves) > 0:
		st.r.Moves[len(st.r.Moves)-1].Time = d
	default:
		return fmt.Errorf("time %q before the first move", s)
	}
	return nil
}

func (st *csaState) info(s string) error {
	k, v, ok := strings.Cut(s[1:], ":")
	if !ok || k == "" {
		return fmt.Errorf("header %q: want $KEY:value", s)
	}
	m := &st.r.Meta
	var err error
	switch k {
	case "EVENT":
		m.Event = v
	case "SITE":
		m.Site = v
	case "START_TIME":
		m.setTime(&m.StartTime, k, v)
	case "END_TIME":
		m.setTime(&m.EndTime, k, v)
	case "OPENING":
		m.Opening = v
	case "TIME_LIMIT":
		m.MainTime, m.Byoyomi, err = parseCSATimeLimit(v)
	case "TIME":
		m.MainTime, m.Byoyomi, m.Increment, err = parseCSATime(v)
	case "NOTE":
		m.Note = joinComment(m.Note, v)
	default:
		m.Extra = append(m.Extra, Header{k, v})
	}
	return err
}

// parseCSATimeLimit reads the value of $TIME_LIMIT, HH:MM+SS: the main
// time and the byoyomi.
func parseCSATimeLimit(v string) (main, byoyomi time.Duration, err error) {
	var h, mi, by int
	if _, e := fmt.Sscanf(v, "%d:%d+%d", &h, &mi, &by); e != nil || h < 0 || mi < 0 || by < 0 {
		return 0, 0, fmt.Errorf("header $TIME_LIMIT %q: want HH:MM+SS", v)
	}
	return time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute, time.Duration(by) * time.Second, nil
}

// parseCSATime reads the value of V3.0's $TIME, main+byoyomi+increment in
// seconds, the later ones optional.
func parseCSATime(v string) (main, byoyomi, increment time.Duration, err error) {
	var ds [3]time.Duration
	for i, p := range strings.Split(v, "+") {
		f, e := strconv.ParseFloat(p, 64)
		if i >= 3 || e != nil || f < 0 || f > 1e9 {
			return 0, 0, 0, fmt.Errorf("header $TIME %q: want main+byoyomi+increment in seconds", v)
		}
		ds[i] = time.Duration(f * float64(time.Second))
	}
	return ds[0], ds[1], ds[2], nil
}

// position takes a position statement: PI, P1-P9 or P+/P-.
func (st *csaState) position(s string) error {
	if st.pos != nil {
		return fmt.Errorf("position line %q after the moves began", s)
	}
	if st.board == nil {
		st.board = shogi.NewBoard()
	}
	st.hasBoard = true
	switch {
	case strings.HasPrefix(s, "PI"):
		return st.handicapLine(s)
	case len(s) >= 2 && s[1] >= '1' && s[1] <= '9':
		return st.boardLine(s)
	case strings.HasPrefix(s, "P+") || strings.HasPrefix(s, "P-"):
		return st.pieceLine(s)
	}
	return fmt.Errorf("unknown position line %q", s)
}

// handicapLine takes a PI line: the even game's position less the pieces
// it names, as square and piece pairs.
func (st *csaState) handicapLine(s string) error {
	b := st.board
	sb, err := shogi.ParseSFEN(shogi.StartSFEN)
	if err != nil {
		return err
	}
	*b = *sb
	rest := s[2:]
	for len(rest) > 0 {
		if len(rest) < 4 {
			return fmt.Errorf("PI line %q: want pairs of square and piece", s)
		}
		sq, err := csaSquare(rest[:2])
		if err != nil {
			return fmt.Errorf("PI line %q: %w", s, err)
		}
		if p := b.At(sq); p == shogi.NoPiece || p.Type().CSACode() != rest[2:4] {
			return fmt.Errorf("PI line %q: no %s on %s to remove", s, rest[2:4], rest[:2])
		}
		if err := b.Put(sq, shogi.NoPiece); err != nil {
			return err
		}
		rest = rest[4:]
	}
	return nil
}

// boardLine takes a rank line, P1 to P9: nine cells of 3 characters, a
// piece with its sign or " * " for an empty square.
func (st *csaState) boardLine(s string) error {
	r := int(s[1] - '0')
	row := s[2:]
	if len(row) < 27 {
		row += strings.Repeat(" ", 27-len(row))
	}
	if len(row) != 27 {
		return fmt.Errorf("board line %q: want 9 cells of 3 characters", s)
	}
	for i := range 9 {
		p, err := csaCell(row[3*i : 3*i+3])
		if err != nil {
			return fmt.Errorf("board line %q cell %d: %w", s, i+1, err)
		}
		if err := st.board.Put(shogi.SquareAt(9-i, r), p); err != nil {
			return fmt.Errorf("board line %q: %w", s, err)
		}
	}
	return nil
}

// csaCell reads a cell of a rank line: a sign and a piece code, or
// nothing.
func csaCell(cell string) (shogi.Piece, error) {
	if t := strings.TrimSpace(cell); t == "*" || t == "" {
		return shogi.NoPiece, nil
	}
	c, err := csaColor(cell[0])
	if err != nil {
		return shogi.NoPiece, err
	}
	t := shogi.ParseCSACode(cell[1:])
	if t == shogi.NoPieceType {
		return shogi.NoPiece, fmt.Errorf("unknown piece %q", cell[1:])
	}
	return shogi.MakePiece(c, t), nil
}

// pieceLine takes a P+ or P- line: pieces of one side as square and
// piece pairs, 00 for the hand, 00AL for all the pieces left.
func (st *csaState) pieceLine(s string) error {
	c, _ := csaColor(s[1])
	rest := s[2:]
	for len(rest) > 0 {
		if len(rest) < 4 {
			return fmt.Errorf("piece line %q: want pairs of square and piece", s)
		}
		if err := st.piece(c, rest[:2], rest[2:4]); err != nil {
			return fmt.Errorf("piece line %q: %w", s, err)
		}
		rest = rest[4:]
	}
	return nil
}

// piece puts c's piece code on the square sqs, or in c's hand for 00.
func (st *csaState) piece(c rules.Color, sqs, code string) error {
	b := st.board
	if sqs == "00" && code == "AL" {
		st.allToHand(c)
		return nil
	}
	t := shogi.ParseCSACode(code)
	if t == shogi.NoPieceType {
		return fmt.Errorf("unknown piece %q", code)
	}
	if sqs == "00" {
		if t.IsPromoted() || t == shogi.King {
			return fmt.Errorf("%s cannot be in hand", code)
		}
		return b.SetHand(c, t, b.Hand(c, t)+1)
	}
	sq, err := csaSquare(sqs)
	if err != nil {
		return err
	}
	return b.Put(sq, shogi.MakePiece(c, t))
}

// allToHand puts every piece of a full set that is neither on the board
// nor in a hand into c's hand (CSA's 00AL), kings excepted.
func (st *csaState) allToHand(c rules.Color) {
	b := st.board
	var count [16]int
	for sq := range rules.Square(81) {
		if p := b.At(sq); p != shogi.NoPiece {
			count[p.Type().Base()]++
		}
	}
	for _, t := range shogi.HandTypes() {
		n := t.SetCount() - count[t] - b.Hand(rules.First, t) - b.Hand(rules.Second, t)
		if n > 0 {
			// Cannot fail: the hand stays within the set.
			_ = b.SetHand(c, t, b.Hand(c, t)+n)
		}
	}
}

func csaColor(ch byte) (rules.Color, error) {
	switch ch {
	case '+':
		return rules.First, nil
	case '-':
		return rules.Second, nil
	}
	return 0, fmt.Errorf("bad side %q: want + or -", ch)
}

func csaSquare(s string) (rules.Square, error) {
	sq := shogi.SquareAt(int(s[0])-'0', int(s[1])-'0')
	if sq == rules.NoSquare {
		return sq, fmt.Errorf("bad square %q", s)
	}
	return sq, nil
}

func (st *csaState) begin(s string) error {
	if st.pos != nil {
		return fmt.Errorf("side to move %q given twice", s)
	}
	if st.board == nil {
		return errors.New("side to move before any position line")
	}
	c, _ := csaColor(s[0])
	st.board.SetTurn(c)
	if err := st.board.Validate(); err != nil {
		return fmt.Errorf("start position: %w", err)
	}
	sfen := st.board.SFEN()
	if sfen != shogi.StartSFEN {
		st.r.Start = sfen
	}
	p, err := st.r.startPosition()
	if err != nil {
		return err
	}
	st.pos = p
	return nil
}

func (st *csaState) move(s string) error {
	if st.pos == nil {
		return fmt.Errorf("move %q before the start position", s)
	}
	if st.ended {
		return fmt.Errorf("move %q after the game ended", s)
	}
	if len(s) != 7 {
		return fmt.Errorf("move %d %q: want sign, origin, destination and piece, e.g. +7776FU", len(st.r.Moves)+1, s)
	}
	pos, m, err := playText(st.pos, s)
	if err != nil {
		return fmt.Errorf("move %d: %w", len(st.r.Moves)+1, err)
	}
	st.pos = pos
	st.r.Moves = append(st.r.Moves, RecordMove{USI: m.String()})
	st.pending = ""
	return nil
}

// csaEnd is what a CSA special says: the kind of terminal event, and who
// it is by: the side to move (byTurn), else side.
type csaEnd struct {
	kind   TerminalKind
	byTurn bool
	side   rules.Color
}

// csaEnds are the specials that end a game.
var csaEnds = map[string]csaEnd{
	"%TORYO":           {kind: Resign, byTurn: true},
	"%TSUMI":           {kind: Mate, byTurn: true},
	"%TIME_UP":         {kind: TimeUp, byTurn: true},
	"%ILLEGAL_MOVE":    {kind: FoulLoss, byTurn: true},
	"%MATTA":           {kind: FoulLoss, byTurn: true},
	"%+ILLEGAL_ACTION": {kind: FoulLoss, side: rules.First},
	"%-ILLEGAL_ACTION": {kind: FoulLoss, side: rules.Second},
	"%SENNICHITE":      {kind: Sennichite},
	"%JISHOGI":         {kind: JishogiDraw},
	"%KACHI":           {kind: EnteringKingWin, byTurn: true},
	"%CHUDAN":          {kind: Abort},
	"%ERROR":           {kind: Abort},
	"%MAX_MOVES":       {kind: MoveLimit},
	"%HIKIWAKE":        {kind: DrawGame},
	"%FUZUMI":          {kind: NoTerminal},
}

func (st *csaState) special(s string) error {
	if st.pos == nil {
		return fmt.Errorf("special %q before the start position", s)
	}
	if st.ended {
		return fmt.Errorf("special %q after the game ended", s)
	}
	e, ok := csaEnds[s]
	if !ok {
		return fmt.Errorf("unknown special %q", s)
	}
	t := Terminal{Kind: e.kind, Side: e.side}
	if e.byTurn {
		t.Side = st.pos.Turn()
	}
	t.Comment = st.pending
	st.r.End = t
	st.ended = true
	return nil
}
