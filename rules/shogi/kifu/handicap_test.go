package kifu

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
	"arbiter/rules"
	"arbiter/rules/shogi"
)

// handicapGame is a short game from handicap h's start, the giver (gote)
// first: the legal move at a fixed stride at each ply, the receiver
// resigning after plies moves.
func handicapGame(t *testing.T, h shogi.Handicap, plies int) *Record {
	t.Helper()
	g, err := shogi.NewGame(rules.Options{shogi.OptHandicap: h.Name})
	require.NoError(t, err)
	r := &Record{Start: h.SFEN, Meta: Meta{Event: "Handicap test", Sente: "Receiver 下手", Gote: "Giver 上手",
		StartTime: time.Date(2026, 5, 2, 10, 0, 0, 0, time.Local), MainTime: 10 * time.Minute, Byoyomi: 30 * time.Second}}
	var pos rules.Position = g.Start()
	for i := range plies {
		legal := pos.Legal()
		m := legal[(7*i+3)%len(legal)]
		next, err := pos.Play(m)
		require.NoError(t, err)
		r.Moves = append(r.Moves, RecordMove{USI: m.String(), Time: time.Duration(i%7+1) * time.Second})
		pos = next
	}
	r.End = Terminal{Kind: Resign, Side: pos.Turn(), Time: 2 * time.Second}
	return r
}

// handicapFormats writes r in every record format, by file extension.
func handicapFormats(t *testing.T, r *Record) map[string]string {
	t.Helper()
	kif, err := WriteKIF(r, KIFOptions{})
	require.NoError(t, err)
	ki2, err := WriteKI2(r)
	require.NoError(t, err)
	csa, err := WriteCSA(r)
	require.NoError(t, err)
	usi, err := WriteUSI(r)
	require.NoError(t, err)
	return map[string]string{"kifu": kif, "ki2u": ki2, "csa": csa, "usi": usi}
}

// testedHandicaps are the handicaps the record tests play.
var testedHandicaps = []string{"lance", "bishop", "rook-lance", "2-piece", "10-piece"}

// Issue 35 §3: handicap games are written with their handicap: KIF and KI2
// name it (手合割：二枚落ち) and call the players 下手 and 上手, CSA writes
// PI with the pieces left out and gote to move, USI the start SFEN; each
// reads back to the same start and moves. The files are golden.
func TestHandicapRecords(t *testing.T) {
	for _, name := range testedHandicaps {
		h, ok := shogi.ParseHandicap(name)
		require.True(t, ok)
		r := handicapGame(t, h, 12)
		files := handicapFormats(t, r)
		assert.Contains(t, files["kifu"], "手合割："+h.KIF+"\n")
		assert.Contains(t, files["kifu"], "上手：Giver 上手\n")
		assert.Contains(t, files["kifu"], "下手：Receiver 下手\n")
		assert.Contains(t, files["ki2u"], "手合割："+h.KIF+"\n")
		assert.Contains(t, files["csa"], "\nPI")
		assert.Contains(t, files["csa"], "\n-\n", "the giver, gote, moves first")
		assert.Equal(t, "position sfen "+h.SFEN+" moves", strings.Join(strings.Fields(files["usi"])[:7], " "))
		for ext, text := range files {
			golden(t, "handicap-"+name+"."+ext, text)
			var got *Record
			var err error
			switch ext {
			case "kifu":
				got, err = ReadKIF([]byte(text))
			case "ki2u":
				got, err = ReadKI2([]byte(text))
			case "csa":
				got, err = ReadCSA([]byte(text))
			default:
				continue
			}
			require.NoError(t, err, "%s %s", name, ext)
			assert.Equal(t, h.SFEN, got.Start, "%s %s", name, ext)
			assert.Equal(t, usis(r), usis(got), "%s %s", name, ext)
		}
	}
}

// golden compares got with testdata/name, or rewrites it with -rewrite.
func golden(t *testing.T, name, got string) {
	t.Helper()
	scenariotest.Golden(t, filepath.Join("testdata", name), []byte(got))
}

// tsshogiScript reads each record file given with tsshogi (the records'
// own reader, by format) and prints what it read: the start SFEN, the
// moves in USI and the metadata's handicap and players.
const tsshogiScript = `
import { importKIF, importKI2, importCSA, Record } from "tsshogi";
import { readFileSync } from "node:fs";
const out = {};
for (const arg of process.argv.slice(2)) {
  const [format, path] = [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)];
  const data = readFileSync(path, "utf8");
  let r;
  if (format === "kif") r = importKIF(data);
  else if (format === "ki2") r = importKI2(data);
  else if (format === "csa") r = importCSA(data);
  else r = Record.newByUSI(data.trim());
  if (r instanceof Error) { out[arg] = { error: r.message }; continue; }
  const moves = [];
  for (const n of r.moves) { if (n.move && n.move.usi) moves.push(n.move.usi); }
  out[arg] = { sfen: r.initialPosition.sfen, moves };
}
console.log(JSON.stringify(out));
`

// tsshogiDir returns a folder whose node_modules holds tsshogi: the one
// ARBITER_TSSHOGI names, or one npm installs it into, kept in the user's
// cache between runs. It skips the test when node or npm is missing, or
// npm cannot fetch the package (offline).
func tsshogiDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the records are not checked with tsshogi")
	}
	if dir := os.Getenv("ARBITER_TSSHOGI"); dir != "" {
		return dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = t.TempDir()
	}
	dir := filepath.Join(cache, "arbiter-tsshogi")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "tsshogi", "package.json")); err == nil {
		return dir
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: the records are not checked with tsshogi")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "tsshogi@2")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm could not install tsshogi (offline?): %v\n%s", err, out)
	}
	return dir
}

// Issue 35 §3: tsshogi, an independent reader, reads our KIF, KI2, CSA and
// USI records of handicap games, and the records the daemon exports of a
// stored game, to the same start position (its SFEN) and the same moves. It runs where node is installed (npm installs tsshogi
// once into the user's cache; ARBITER_TSSHOGI names a folder that has it).
func TestHandicapRecordsReadByTsshogi(t *testing.T) {
	dir := tsshogiDir(t)
	script := filepath.Join(dir, "read-records.mjs")
	require.NoError(t, os.WriteFile(script, []byte(tsshogiScript), 0o644))
	files := t.TempDir()
	type want struct {
		sfen  string
		moves []string
	}
	wants := map[string]want{}
	var args []string
	format := map[string]string{"kifu": "kif", "ki2u": "ki2", "csa": "csa", "usi": "usi"}
	for _, name := range testedHandicaps {
		h, _ := shogi.ParseHandicap(name)
		r := handicapGame(t, h, 30)
		for ext, text := range handicapFormats(t, r) {
			p := filepath.Join(files, name+"."+ext)
			require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
			arg := format[ext] + "=" + p
			args = append(args, arg)
			wants[arg] = want{h.SFEN, usis(r)}
		}
	}
	// The records the daemon exports of a stored game (the export
	// package's golden files: its headers, round, times and comments).
	for f, read := range map[string]func([]byte) (*Record, error){"kif": ReadKIF, "ki2": ReadKI2, "csa": ReadCSA} {
		p, err := filepath.Abs(filepath.Join("..", "..", "..", "export", "testdata", "shogi."+f+".golden"))
		require.NoError(t, err)
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		r, err := read(data)
		require.NoError(t, err, p)
		arg := f + "=" + p
		args = append(args, arg)
		wants[arg] = want{r.startSFEN(), usis(r)}
	}
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", stderr.String())
	var got map[string]struct {
		Error string   `json:"error"`
		SFEN  string   `json:"sfen"`
		Moves []string `json:"moves"`
	}
	require.NoError(t, json.Unmarshal(out, &got))
	for arg, w := range wants {
		g, ok := got[arg]
		require.True(t, ok, "%s not read", arg)
		require.Empty(t, g.Error, "tsshogi refuses %s", filepath.Base(arg))
		assert.Equal(t, w.sfen, g.SFEN, "%s: start", filepath.Base(arg))
		assert.Equal(t, w.moves, g.Moves, "%s: moves", filepath.Base(arg))
	}
}
