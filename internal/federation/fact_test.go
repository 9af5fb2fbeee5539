package federation_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

func TestDecodeFact(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "move.json"))
	require.NoError(t, err)
	tests := []struct {
		name, subject, data, err string
	}{
		{"move", "arbiter.east.1.7.42", string(good), ""},
		{"not json", "arbiter.east.1.7.42", "{", "fact on arbiter.east.1.7.42: unexpected end of JSON input"},
		{"short subject", "arbiter.east.42", string(good), "subject is not arbiter.<hall>.<tournament>.<table>.<game>"},
		{"other hall", "arbiter.west.1.7.42", string(good), `hall "east" is not the subject's hall "west"`},
		{"other game", "arbiter.east.1.7.43", string(good), `game 42 is not the subject's game "43"`},
		{"bad hall", "arbiter.e st.1.7.42", `{"kind":"game","hall":"e st","gameId":42,"game":{}}`, `character ' ' at 1`},
		{"no move", "arbiter.east.1.7.42", `{"kind":"move","hall":"east","gameId":42}`, "move fact without a move"},
		{"no game", "arbiter.east.1.7.42", `{"kind":"game","hall":"east","gameId":42}`, "game fact without its game"},
		{"no result", "arbiter.east.1.7.42", `{"kind":"result","hall":"east","gameId":42}`, "result fact without a result"},
		{"kind", "arbiter.east.1.7.42", `{"kind":"alert","hall":"east","gameId":42}`, `unknown kind "alert"`},
		{"alert", "arbiter.east.alert.3", `{"kind":"alert","hall":"east","alert":{"id":3,"kind":"illegal-move","message":"x","at":"2026-11-21T10:00:00Z"}}`, ""},
		{"alert of another id", "arbiter.east.alert.4", `{"kind":"alert","hall":"east","alert":{"id":3}}`, "alert 3 is not the subject's arbiter.<hall>.alert.<id>"},
		{"action without it", "arbiter.east.action.1", `{"kind":"action","hall":"east"}`, "action fact without its action"},
		{"action of another hall", "arbiter.west.action.1", `{"kind":"action","hall":"east","action":{"id":1}}`, `hall "east" is not the subject's hall "west"`},
		{"status", "arbiter.east.status", `{"kind":"status","hall":"east","boards":[{"board":"B1","health":"ok"}]}`, ""},
		{"status too long", "arbiter.east.status.9", `{"kind":"status","hall":"east"}`, "subject is not arbiter.<hall>.status"},
		{"kind of subject", "arbiter.east.alert.3", `{"kind":"action","hall":"east","action":{"id":3}}`, `a "action" fact on a subject of alert facts`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := federation.DecodeFact(tc.subject, []byte(tc.data))
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			wantID := map[string]string{"move": "east/42/3", "alert": "east/alert/3/0/false", "status": ""}
			assert.Equal(t, wantID[tc.name], f.MsgID())
		})
	}
}

func TestFactRoundTrip(t *testing.T) {
	g := store.Game{ID: 42, TournamentID: 1, BoardNo: 7}
	for _, f := range []federation.Fact{
		{Kind: federation.KindGame, Hall: "east", GameID: 42, Game: &g},
		{Kind: federation.KindMove, Hall: "east", GameID: 42, Move: &store.Move{GameID: 42, Ply: 3}},
		{Kind: federation.KindResult, Hall: "east", GameID: 42, Result: "1-0", Plies: 3},
	} {
		data, err := json.Marshal(f)
		require.NoError(t, err)
		got, err := federation.DecodeFact(federation.Subject("east", g), data)
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	assert.Equal(t, "arbiter.east.1.7.42", federation.Subject("east", g))
	assert.Equal(t, "east/42/result", federation.Fact{Kind: federation.KindResult, Hall: "east", GameID: 42}.MsgID())
}

func FuzzDecodeFact(f *testing.F) {
	good, err := os.ReadFile(filepath.Join("testdata", "move.json"))
	require.NoError(f, err)
	f.Add("arbiter.east.1.7.42", good)
	f.Add("arbiter.east.0.0.1", []byte(`{"kind":"result","hall":"east","gameId":1,"result":"1-0","plies":-1}`))
	f.Add("arbiter..1.7.42", []byte(`{"kind":"game","hall":"","gameId":42,"game":{}}`))
	f.Add("arbiter.east.alert.3", []byte(`{"kind":"alert","hall":"east","alert":{"id":3,"count":2}}`))
	f.Add("arbiter.east.action.1", []byte(`{"kind":"action","hall":"east","action":{"id":1}}`))
	f.Add("arbiter.east.status", []byte(`{"kind":"status","hall":"east","boards":[{"board":"B1"}]}`))
	f.Fuzz(func(t *testing.T, subject string, data []byte) {
		fact, err := federation.DecodeFact(subject, data)
		if err != nil {
			return
		}
		// A fact that decodes names its own message ID without panicking
		// and comes from its hall's subjects.
		_ = fact.MsgID()
		require.NoError(t, federation.ValidName(fact.Hall))
	})
}
