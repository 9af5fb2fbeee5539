package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRecordName(t *testing.T) {
	hall := append([]byte("hall-b\x00"), u64key(7)...)
	for _, tc := range []struct {
		l    loc
		key  []byte
		want string
	}{
		{locGames, u64key(3), "game 3"},
		{locGames, []byte("x"), "record x of bucket games"},
		{loc{bucketMoves, u64key(3)}, []byte{0, 0, 0, 9}, "game 3 move 9"},
		{loc{bucketMoves, u64key(3)}, []byte{9}, "record 09 of bucket moves/3"},
		{loc{bucketMoves}, []byte{0, 0, 0, 9}, "record 00000009 of bucket moves"},
		{loc{bucketRaw, []byte("b1")}, u64key(12), "raw frame 12 of board b1"},
		{loc{bucketRaw, []byte("b1")}, []byte{1}, "record 01 of bucket raw/b1"},
		{locAlerts, u64key(4), "alert 4"},
		{locActions, u64key(5), "action 5 (audit log)"},
		{locTournaments, u64key(1), "tournament 1"},
		{locPlayers, pairKey(1, 6), "player 6 of tournament 1"},
		{locPlayers, u64key(1), "record 0000000000000001 of bucket players"},
		{locRounds, pairKey(2, 3), "round 3 of tournament 2"},
		{locMeta, []byte(settingPrefix + "speed"), "setting speed"},
		{locMeta, keySchema, "schema record schema"},
		{locOutbox, u64key(8), "outbox cursor of game 8"},
		{loc{bucketInbox}, hall, "inbox entry of hall hall-b game 7"},
		{loc{bucketInboxAlerts}, hall, "inbox entry of hall hall-b alert 7"},
		{loc{bucketInboxActions}, hall, "inbox entry of hall hall-b action 7"},
		{loc{bucketInbox}, u64key(7), "record 0000000000000007 of bucket inbox"},
		{loc{[]byte("other")}, []byte("k"), "record k of bucket other"},
		{nil, []byte("k"), "record k of bucket "},
	} {
		assert.Equal(t, tc.want, recordName(tc.l, tc.key), "%s %x", tc.l, tc.key)
	}
}
