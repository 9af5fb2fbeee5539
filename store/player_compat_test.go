package store

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// A player stored before the records carried the year of birth still
// reads, as unknown; one stored with it keeps it.
func TestPlayerBirthYearCompatible(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "p.db"), nil)
	require.NoError(t, err)
	defer db.Close()
	tour := &Tournament{Name: "T", Game: "chess", System: "swiss-dutch", Rounds: 3}
	require.NoError(t, db.CreateTournament(tour))
	old := `{"tournament":1,"id":1,"name":"Old","rating":2000,"title":"IM","federation":"NOR","fideId":"1503014"}`
	require.NoError(t, db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPlayers).Put(pairKey(tour.ID, 1), []byte(old))
	}))
	require.NoError(t, db.PutPlayer(&Player{TournamentID: tour.ID, ID: 2, Name: "New", FideID: "4100018", BirthYear: 1990}))
	ps, err := db.Players(tour.ID)
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.Equal(t, Player{TournamentID: tour.ID, ID: 1, Name: "Old", Rating: 2000, Title: "IM", Federation: "NOR", FideID: "1503014"}, ps[0])
	assert.Equal(t, 1990, ps[1].BirthYear)
}
