package kvaa

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/scenariotest"
	"arbiter/rules"
)

func TestOptionsDefaults(t *testing.T) {
	g := newGame(t, "")
	want := rules.Options{
		"scheme": "R2", "capture": "optional", "placement": "4.5.1.2", "first_player": "S",
		"colours": "white/black", "setup": "standard", "mirror_rule": "on", "p2_fallback": "global",
		"p4_capture_blocks_placement": "true", "no_progress_plies": "40", "repetition_limit": "3",
		"adjudication": "material_on_board", "time_control": "600+0", "flag_result": "loss",
		"illegal_policy": "correct", "commit_mode": "clock_press", "settle_ms": "1500",
		"debounce_ms": "100", "sensor_level": "presence",
	}
	assert.Equal(t, want, g.Options())
	assert.Equal(t, DefaultConfig(), g.Config())
}

func TestOptionsRoundTrip(t *testing.T) {
	in := "scheme=R3+R7,capture=compulsory,placement=4.5.1.4,first_player=N,colours=women/men," +
		"setup=NN./NN/.../SS/.SS N 6 6 - - 0 1,mirror_rule=off,p2_fallback=per_placement," +
		"p4_capture_blocks_placement=false,no_progress_plies=0,repetition_limit=5,adjudication=material_total," +
		"time_control=300+5,flag_result=draw,illegal_policy=forfeit_after:3,commit_mode=settle,settle_ms=2000," +
		"debounce_ms=50,sensor_level=presence+trays+side"
	g := newGame(t, in)
	c := g.Config()
	assert.Equal(t, classBit(Ring)|classBit(Inner), c.Scheme)
	assert.Equal(t, Compulsory, c.Capture)
	assert.Equal(t, Deferred, c.Placement)
	assert.Equal(t, North, c.First)
	assert.Equal(t, [2]string{"women", "men"}, c.Colours)
	assert.False(t, c.MirrorRule)
	assert.Equal(t, PerPlacement, c.P2Fallback)
	assert.False(t, c.P4CaptureBlocksPlacement)
	assert.Equal(t, 0, c.NoProgressPlies)
	assert.Equal(t, 5, c.RepetitionLimit)
	assert.Equal(t, MaterialTotal, c.Adjudication)
	assert.Equal(t, "300+5", c.TimeControl.String())
	assert.Equal(t, FlagDraw, c.FlagResult)
	assert.Equal(t, IllegalPolicy{ForfeitAfter, 3}, c.IllegalPolicy)
	assert.Equal(t, Settle, c.CommitMode)
	assert.Equal(t, SensorLevel{Side: true, Trays: true}, c.SensorLevel)
	assert.Equal(t, North, g.StartState().Turn)

	// The canonical options make the same game.
	again, err := NewFromOptions(g.Options())
	require.NoError(t, err)
	assert.Equal(t, c, again.Config())
	assert.Len(t, g.Options(), len(options))
	text, err := rules.ParseOptions(g.Options().String())
	require.NoError(t, err)
	assert.Equal(t, g.Options(), text)

	// Through the registry.
	rg, err := rules.New("kvaa", g.Options())
	require.NoError(t, err)
	assert.Equal(t, g.Options(), rg.Options())
	assert.Equal(t, "kvaa", rg.Name())
}

func TestOptionErrors(t *testing.T) {
	tests := []struct{ opts, want string }{
		{"schema=R2", "unknown option \"schema\""},
		{"scheme=R9", "option scheme: scheme \"R9\""},
		{"capture=sometimes", "option capture: \"sometimes\" is not one of compulsory, optional"},
		{"placement=4.5.1.5", "option placement"},
		{"first_player=E", "option first_player"},
		{"colours=white", "option colours"},
		{"colours=whi,te/black", "want key=value"},
		{"colours=/black", "colour label"},
		{"setup=nonsense", "option setup: not \"standard\" or a valid KPS"},
		{"setup=NN./NN/.../SS/.SS N 6 6 - - 0 1,first_player=S", "setup has N to move but first_player=S"},
		{"setup=NN./NN/.../SS/.SS S 6 6 - - 0 1,mirror_rule=off", ""},
		{"setup=N../../.../../S.. S 0 0 a1-b2 - 0 1,mirror_rule=off", "forbidden step but mirror_rule=off"},
		{"setup=N../../.../../S.. S 0 0 a1-c1 - 0 1", "not a step of scheme R2"},
		{"mirror_rule=yes", "option mirror_rule"},
		{"no_progress_plies=-1", "option no_progress_plies"},
		{"repetition_limit=x", "option repetition_limit"},
		{"adjudication=coin", "option adjudication"},
		{"time_control=600", "option time_control"},
		{"time_control=0+0", "option time_control"},
		{"illegal_policy=time_penalty", "option illegal_policy"},
		{"illegal_policy=time_penalty:0", "option illegal_policy"},
		{"commit_mode=never", "option commit_mode"},
		{"settle_ms=1.5", "option settle_ms"},
		{"sensor_level=side", "option sensor_level"},
		{"sensor_level=presence+side+side", "option sensor_level"},
	}
	for _, tc := range tests {
		o, err := rules.ParseOptions(tc.opts)
		if err != nil {
			assert.Contains(t, err.Error(), tc.want, tc.opts)
			continue
		}
		_, err = NewFromOptions(o)
		if tc.want == "" {
			assert.NoError(t, err, tc.opts)
			continue
		}
		assert.ErrorContains(t, err, tc.want, tc.opts)
	}
	_, err := rules.New("kvaa", rules.Options{"scheme": "R9"})
	assert.ErrorContains(t, err, "game kvaa: option scheme")
}

func TestRecordRoundTrip(t *testing.T) {
	// A game under non-default options; its record carries them, so the
	// replay reaches the same position under the same rules.
	g := newGame(t, "scheme=R7,capture=compulsory,placement=4.5.1.1,colours=women/men,no_progress_plies=30")
	p := g.Position(g.StartState())
	var turns []Turn
	for _, mv := range []string{"b2-c3", "d4xb2", "c1xa3,@b2", "a5xa1,@a5"} {
		m, err := p.ParseMove(mv)
		require.NoError(t, err, mv)
		turns = append(turns, m.(Turn))
		p, err = p.PlayTurn(m.(Turn))
		require.NoError(t, err)
	}
	r := NewRecord(g, turns, rules.Ongoing, "", Tag{"Event", "Club night"}, Tag{"South", "Ann"}, Tag{"North", "Bo"})
	r.Comments = []Comment{{0, "clock 10:00"}, {3, "North thinks"}, {4, "adjourned"}}
	text, err := r.Format()
	require.NoError(t, err)
	golden(t, "record_r7.txt", text)

	back, err := ParseRecord(text)
	require.NoError(t, err)
	assert.Equal(t, r, back)
	g2, ps, err := back.Replay()
	require.NoError(t, err)
	assert.Equal(t, g.Config(), g2.Config())
	assert.Equal(t, p.String(), ps[len(ps)-1].String())
	assert.Len(t, ps, len(turns)+1)
}

func TestRecordSetup(t *testing.T) {
	g := newGame(t, "setup="+kpsT9+",placement=4.5.1.1")
	p := g.Position(g.StartState())
	m, err := p.ParseMove("c1xa3,@b2")
	require.NoError(t, err)
	r := NewRecord(g, []Turn{m.(Turn)}, rules.Ongoing, "")
	text, err := r.Format()
	require.NoError(t, err)
	assert.Contains(t, text, "[Setup \""+kpsT9+"\"]")
	assert.Contains(t, text, "\n2. c1xa3,@b2 *\n")
	back, err := ParseRecord(text)
	require.NoError(t, err)
	_, ps, err := back.Replay()
	require.NoError(t, err)
	assert.Equal(t, "NN./N./S../SS/..S N 5 6 - - 0 2", ps[1].String())
}

func TestRecordErrors(t *testing.T) {
	head := "[Placement \"4.5.1.2\"]\n\n"
	tests := []struct{ text, want string }{
		{head + "1. b2-c3 d4xb2", "no result"},
		{head + "1. b2-c3 d4xb2 * 2.", "line 3 column 18: text after the result"},
		{head + "2. b2-c3 *", ""}, // syntax fine; Replay rejects the number
		{head + "1. b2-c3 d4xb2 3. @d4,c1xa3 *", "line 3 column 16: entry number 3, want 2"},
		{head + "1. b2-c3 d4xb2 @d4,c1xa3 *", "entry 1 already has two turns"},
		{head + "b2-c3 *", "before the first entry number"},
		{head + "1. 2. b2-c3 *", "entry 1 has no turn"},
		{head + "1. *", "entry 1 has no turn before the result"},
		{head + "1. b2-c9 *", "\"c9\" is not a Kvaa cell"},
		{head + "1. b2-c3 {unclosed\n*", "line 3 column 10: comment not closed"},
		{head + "1. b2-c3 {two\nlines} d4xb2 * x", "line 4 column 16: text after the result"},
		{"[Placement 4.5.1.2]\n\n1. b2-c3 *", "line 1: tag pair"},
		{"[Placement \"4.5.1.2\"]\n[Placement \"4.5.1.1\"]\n\n*", "tag Placement given twice"},
		{"[Result \"1-0\"]\n\n1. b2-c3 *", "Result tag \"1-0\""},
		{"[1x \"y\"]\n\n*", "tag pair"},
	}
	for _, tc := range tests {
		_, err := ParseRecord(tc.text)
		if tc.want == "" {
			assert.NoError(t, err, tc.text)
			continue
		}
		assert.ErrorContains(t, err, tc.want, tc.text)
	}

	replay := []struct{ text, want string }{
		{head + "2. b2-c3 *", "first entry is number 2 but the setup is at turn 1"},
		{head + "1. b2-c3 d4-c3 *", "record entry 1, North's turn: turn d4-c3 is illegal"},
		{head + "1. b2-c3 d4xb2 2. c1xa3 *", "South owes a placement under 4.5.1.2"},
		{"[Scheme \"R9\"]\n\n*", "record tags: option scheme"},
		{"[Setup \"NN./NN/.../SS/.SS S 6 6 - - 0 1\"]\n[First \"N\"]\n\n*", "setup has S to move but first_player=N"},
	}
	for _, tc := range replay {
		r, err := ParseRecord(tc.text)
		require.NoError(t, err, tc.text)
		_, _, err = r.Replay()
		assert.ErrorContains(t, err, tc.want, tc.text)
	}

	bad := &Record{Tags: []Tag{{"Event", "say \"hi\""}}}
	_, err := bad.Format()
	assert.ErrorContains(t, err, "tag Event")
	bad = &Record{Comments: []Comment{{0, "a}b"}}}
	_, err = bad.Format()
	assert.ErrorContains(t, err, "comment")
}

func FuzzParseRecord(f *testing.F) {
	f.Add("[Scheme \"R2\"]\n[Placement \"4.5.1.2\"]\n[Result \"*\"]\n\n1. b2-c3 d4xb2 2. @d4,c1xa3 @c3,c5xe3 3. @d4,a3xc5 *\n")
	f.Add("[Placement \"4.5.1.1\"]\n\n1. b2-c3 {ok} d4xb2 2. c1xa3,@b2 1-0\n")
	f.Add("\n\n1. b2-c3 d4xb2\n2. c1xa3 @c3 1/2-1/2")
	f.Add("[Setup \"NN./N./.../NS/.SS S 6 6 - - 0 2\"]\n\n2. c1xa3,@b2 0-1")
	f.Add("*")
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ParseRecord(in)
		if err != nil {
			return
		}
		text, err := r.Format()
		if err != nil {
			return // e.g. a tag value the writer refuses; the parser allowed it
		}
		back, err := ParseRecord(text)
		require.NoError(t, err, "reparse %q", text)
		require.Equal(t, r.Turns, back.Turns)
		require.Equal(t, r.Result, back.Result)
		require.Equal(t, r.Tags, back.Tags)
		if len(r.Turns) > 0 {
			require.Equal(t, r.Number, back.Number)
		}
		_, _, _ = back.Replay() // must not panic
	})
}

// golden compares got with testdata/name, or rewrites it with -rewrite.
func golden(t *testing.T, name, got string) {
	t.Helper()
	scenariotest.Golden(t, filepath.Join("testdata", name), []byte(got))
}
