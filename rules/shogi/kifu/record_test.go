package kifu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
	"arbiter/rules/shogi"
)

// The 6-move game of spec 5.5.
var exampleUSI = strings.Fields("7g7f 3c3d 8h2b+ 3a2b B*4e 7a6b")

func exampleRecord(event string) *Record {
	times := []int{3, 5, 12, 4, 20, 9}
	r := &Record{
		End: Terminal{Kind: Resign, Side: rules.First, Time: 2 * time.Second},
		Meta: Meta{
			Event:     event,
			StartTime: time.Date(2025, 4, 1, 10, 0, 0, 0, time.UTC),
			Sente:     "Sente",
			Gote:      "Gote",
			MainTime:  10 * time.Minute,
			Byoyomi:   30 * time.Second,
		},
	}
	for i, u := range exampleUSI {
		r.Moves = append(r.Moves, RecordMove{USI: u, Time: time.Duration(times[i]) * time.Second})
	}
	return r
}

func usis(r *Record) []string {
	var out []string
	for _, m := range r.Moves {
		out = append(out, m.USI)
	}
	return out
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

func TestReadSpecExamples(t *testing.T) {
	want := exampleRecord("")
	for _, name := range []string{"spec_example.kif", "spec_example_cp932.kif", "spec_example_v22.csa", "spec_example_v30.csa", "spec_example.ki2"} {
		t.Run(name, func(t *testing.T) {
			var r *Record
			var err error
			switch filepath.Ext(name) {
			case ".kif":
				r, err = ReadKIF(readFile(t, name))
			case ".ki2":
				r, err = ReadKI2(readFile(t, name))
			default:
				r, err = ReadCSA(readFile(t, name))
			}
			require.NoError(t, err)
			assert.Equal(t, exampleUSI, usis(r))
			assert.Equal(t, "", r.Start)
			assert.Equal(t, Resign, r.End.Kind)
			assert.Equal(t, rules.Loss(rules.First, rules.Resignation), r.End.Outcome())
			assert.Equal(t, "Sente", r.Meta.Sente)
			assert.Equal(t, "Gote", r.Meta.Gote)
			if filepath.Ext(name) != ".ki2" {
				for i := range want.Moves {
					assert.Equal(t, want.Moves[i].Time, r.Moves[i].Time, "move %d", i+1)
				}
				assert.Equal(t, 10*time.Minute, r.Meta.MainTime)
				assert.Equal(t, 30*time.Second, r.Meta.Byoyomi)
			}
			pos, _, err := r.Replay(nil)
			require.NoError(t, err)
			assert.Equal(t, "ln1gkg1nl/1r1s3s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL b b 7", pos[len(pos)-1].String())
		})
	}
}

func TestWriteSpecExamples(t *testing.T) {
	// KIF: the spec's file, with our format line instead of its comment.
	spec := string(readFile(t, "spec_example.kif"))
	got, err := WriteKIF(exampleRecord("練習対局"), KIFOptions{})
	require.NoError(t, err)
	assert.Equal(t, "#KIF version=2.0 encoding=UTF-8"+spec[strings.Index(spec, "\n"):], got)

	got, err = WriteCSA(exampleRecord("Practice game"))
	require.NoError(t, err)
	assert.Equal(t, string(readFile(t, "spec_example_v22.csa")), got)

	got, err = WriteKI2(exampleRecord(""))
	require.NoError(t, err)
	var toks []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "▲") {
			toks = append(toks, splitKI2(l)...)
		}
	}
	assert.Equal(t, splitKI2("▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲４五角 △６二銀"), toks)
	assert.Len(t, toks, 6)
	assert.Contains(t, got, "\nまで6手で後手の勝ち\n")
}

func TestShiftJIS(t *testing.T) {
	kif, err := WriteKIF(exampleRecord("練習対局"), KIFOptions{})
	require.NoError(t, err)
	sjis, err := EncodeShiftJIS(kif)
	require.NoError(t, err)
	assert.Contains(t, string(sjis), "\r\n")
	r, err := ReadKIF(sjis)
	require.NoError(t, err)
	assert.Equal(t, exampleUSI, usis(r))
	assert.Equal(t, "練習対局", r.Meta.Event)
}

func TestKIFReaderForms(t *testing.T) {
	// 不成, 王/竜 aliases, ASCII colons, a missing U+3000 after 同, a
	// summary that names the winner of an out-of-turn resignation, and
	// comments.
	const kif = `開始日時:2025/04/01(火) 10:00
終了日時：someday
手合割:平手
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:03/00:00:03)
*a comment
   2 ３四歩(33)   ( 0:05/00:00:05)
   3 ２二角不成(88) ( 0:12/00:00:15)
   4 同銀(31)   ( 0:04/00:00:09)
   5 ５八王(59)
   6 投了
まで5手で後手の勝ち
`
	r, err := ReadKIF([]byte(kif))
	require.NoError(t, err)
	assert.Equal(t, strings.Fields("7g7f 3c3d 8h2b 3a2b 5i5h"), usis(r))
	assert.Equal(t, "a comment", r.Moves[0].Comment)
	assert.Equal(t, Terminal{Kind: Resign, Side: rules.First}, r.End, "Black resigned on White's turn")
	assert.Equal(t, time.Date(2025, 4, 1, 10, 0, 0, 0, time.UTC), r.Meta.StartTime)
	assert.Equal(t, []Header{{"終了日時", "someday"}}, r.Meta.Extra, "an unreadable date is kept as is")
	out, err := WriteKIF(r, KIFOptions{Funari: true})
	require.NoError(t, err)
	assert.Contains(t, out, "２二角不成(88)")
	assert.Contains(t, out, "まで5手で後手の勝ち")
	back, err := ReadKIF([]byte(out))
	require.NoError(t, err)
	assert.Equal(t, r.End, back.End)
}

func TestRecordErrors(t *testing.T) {
	tests := []struct {
		name, format, text, want string
	}{
		{"kif bad number", "kif", "手数----指手--\n   2 ７六歩(77)\n", "kif line 2: move number 2, want 1"},
		{"kif illegal", "kif", "手数----指手--\n   1 ７五歩(77)\n", "kif line 2: move 1"},
		{"kif bad piece", "kif", "手数----指手--\n   1 ７六象(77)\n", "unknown piece name"},
		{"kif wrong piece", "kif", "手数----指手--\n   1 ７六香(77)\n", "no Black 香 on 7g"},
		{"kif handicap", "kif", "手合割：謎落ち\n", "unknown 手合割"},
		{"kif same without move", "kif", "手数----指手--\n   1 同　歩(77)\n", "同 with no previous move"},
		{"kif junk", "kif", "hello world\n", "kif line 1: unexpected line"},
		{"kif summary", "kif", "手数----指手--\n   1 ７六歩(77)\nまで1手で何か\n", "bad summary"},
		{"ki2 no mark", "ki2", "▲７六歩\n３四歩\n", "ki2 line 2"},
		{"ki2 ambiguous", "ki2", "▲７六歩 △３四歩 ▲６八銀 △４二銀 ▲５八金\n", "ambiguous"},
		{"ki2 wrong side", "ki2", "△７六歩\n", "White is not to move"},
		{"csa version", "csa", "V9\n", "csa line 1: unknown CSA version"},
		{"csa move before start", "csa", "V2.2\n+7776FU\n", "before the start position"},
		{"csa bad move", "csa", "V2.2\nPI\n+\n+7775FU\n", "csa line 4: move 1"},
		{"csa wrong side", "csa", "V2.2\nPI\n+\n-3334FU\n", "White is not to move"},
		{"csa bad piece", "csa", "V2.2\nPI\n+\n+7776XX\n", "unknown piece code"},
		{"csa bad time", "csa", "V2.2\nPI\n+\n+7776FU\nTx\n", "bad time"},
		{"csa bad special", "csa", "V2.2\nPI\n+\n%WHAT\n", "unknown special"},
		{"csa board", "csa", "V2.2\nP1-KY-KE\nP2 * -XX\n", "csa line 3"},
		{"csa no side", "csa", "V2.2\nPI\n", "no line giving the side"},
		{"csa check", "csa", "V2.2\nP1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  * +HI\nP9+OU\n+\n", "in check"},
		{"csa time limit", "csa", "V2.2\n$TIME_LIMIT:abc\n", "$TIME_LIMIT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			switch tt.format {
			case "kif":
				_, err = ReadKIF([]byte(tt.text))
			case "ki2":
				_, err = ReadKI2([]byte(tt.text))
			case "csa":
				_, err = ReadCSA([]byte(tt.text))
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			var le *LineError
			assert.ErrorAs(t, err, &le)
		})
	}
}

func TestBOD(t *testing.T) {
	// A hand-written diagram (a tsume: head gold) reads as its SFEN.
	const kif = `後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：金　歩十七
手数----指手---------消費時間--
   1 ５二金打
   2 詰み
まで1手で詰み
`
	r, err := ReadKIF([]byte(kif))
	require.NoError(t, err)
	assert.Equal(t, "4k4/9/4P4/9/9/9/9/9/4K4 b G17P 1", r.Start)
	assert.Equal(t, []string{"G*5b"}, usis(r))
	assert.Equal(t, Terminal{Kind: Mate, Side: rules.Second}, r.End)

	// Diagrams written for other positions read back.
	for _, s := range []string{matsuriSFEN, maxSFEN, "9/3GKG3/2+PS1S+P+R1/9/9/9/2+ps1s+p2/1+b1gkg1r1/9 b B2N2L8P2n2l6p 1"} {
		out, err := WriteKIF(&Record{Start: s}, KIFOptions{})
		require.NoError(t, err)
		back, err := ReadKIF([]byte(out))
		require.NoError(t, err, out)
		assert.Equal(t, s, back.Start)
		out, err = WriteCSA(&Record{Start: s})
		require.NoError(t, err)
		back, err = ReadCSA([]byte(out))
		require.NoError(t, err, out)
		assert.Equal(t, s, back.Start)
	}
}

func TestCSAForms(t *testing.T) {
	// PI with removed pieces (a handicap), comma statements, 00AL, V3 times.
	r, err := ReadCSA([]byte("'CSA encoding=UTF-8\nV3.0\n$TIME:300+0+5.5\nPI11KY\n-\n-5142OU,T1.5\n+7776FU,T2\n%CHUDAN\n"))
	require.NoError(t, err)
	assert.Equal(t, shogi.Handicaps["香落ち"], r.Start, "PI11KY removes the 1a lance")
	assert.Equal(t, []string{"5a4b", "7g7f"}, usis(r))
	assert.Equal(t, 1500*time.Millisecond, r.Moves[0].Time)
	assert.Equal(t, 5500*time.Millisecond, r.Meta.Increment)
	assert.Equal(t, Abort, r.End.Kind)

	r, err = ReadCSA([]byte("V2.2\nP1 *  *  *  *  *  *  *  * -OU\nP9+OU\nP+00KI\nP-00AL\n+\n+0012KI\n%TSUMI\n"))
	require.NoError(t, err)
	assert.Equal(t, "8k/9/9/9/9/9/9/9/K8 b G2r2b3g4s4n4l18p 1", r.Start, "00AL: the rest to White")
	assert.Equal(t, Terminal{Kind: Mate, Side: rules.Second}, r.End, "%TSUMI: the side to move is mated")

	// Out-of-turn resignation and fouls keep their side.
	for _, end := range []Terminal{
		{Kind: Resign, Side: rules.Second},
		{Kind: FoulLoss, Side: rules.Second, Comment: "attempted P*5e (nifu)"},
		{Kind: FoulLoss, Side: rules.First},
		{Kind: EnteringKingWin, Side: rules.First},
		{Kind: MoveLimit},
		{Kind: DrawGame},
	} {
		rec := exampleRecord("")
		rec.End = end
		out, err := WriteCSA(rec)
		require.NoError(t, err)
		back, err := ReadCSA([]byte(out))
		require.NoError(t, err)
		assert.Equal(t, end, back.End, out)
	}
}

func TestSpecExampleRoundTrip(t *testing.T) {
	// T8: the example game exported in every format imports to the same
	// moves, and KIF and CSA keep the times.
	r := exampleRecord("練習対局")
	kif, err := WriteKIF(r, KIFOptions{Funari: true})
	require.NoError(t, err)
	ki2, err := WriteKI2(r)
	require.NoError(t, err)
	csa, err := WriteCSA(r)
	require.NoError(t, err)
	for name, read := range map[string]func() (*Record, error){
		"kif": func() (*Record, error) { return ReadKIF([]byte(kif)) },
		"ki2": func() (*Record, error) { return ReadKI2([]byte(ki2)) },
		"csa": func() (*Record, error) { return ReadCSA([]byte(csa)) },
	} {
		got, err := read()
		require.NoError(t, err, name)
		assert.Equal(t, exampleUSI, usis(got), name)
		assert.Equal(t, r.End.Kind, got.End.Kind, name)
		assert.Equal(t, r.End.Side, got.End.Side, name)
		if name != "ki2" {
			for i := range r.Moves {
				assert.Equal(t, r.Moves[i].Time, got.Moves[i].Time, "%s move %d", name, i+1)
			}
		}
	}
}

func TestTerminalOutcome(t *testing.T) {
	// TerminalOf inverts Outcome for every event the formats can write.
	for _, term := range []Terminal{
		{}, {Kind: Resign, Side: rules.First}, {Kind: Mate, Side: rules.Second}, {Kind: TimeUp, Side: rules.First},
		{Kind: FoulLoss, Side: rules.Second}, {Kind: Sennichite}, {Kind: JishogiDraw},
		{Kind: EnteringKingWin, Side: rules.First}, {Kind: MoveLimit}, {Kind: DrawGame},
	} {
		assert.Equal(t, term, TerminalOf(term.Outcome()), term.Kind.String())
	}
	assert.Equal(t, Terminal{Kind: FoulLoss, Side: rules.First}, TerminalOf(rules.Loss(rules.First, rules.PerpetualCheck)))
	assert.Equal(t, Terminal{Kind: Resign, Side: rules.Second, Comment: "forfeit"}, TerminalOf(rules.Loss(rules.Second, rules.Forfeit)))
	// A failed declaration is written as the declarer's foul, its reason
	// kept in the comment (issue 35 §5).
	assert.Equal(t, Terminal{Kind: FoulLoss, Side: rules.First, Comment: "declaration"}, TerminalOf(rules.Loss(rules.First, rules.DeclarationFailed)))
	assert.Equal(t, rules.Outcome{}, Terminal{Kind: Abort}.Outcome())
}
