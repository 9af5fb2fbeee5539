package rules_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"arbiter/rules"
)

func TestDescribe(t *testing.T) {
	rules.Describe("test-facts", rules.Facts{SideLetters: [2]byte{'x', 'y'}, Colours: rules.ColoursByLot,
		Pieces: map[string]rules.PieceFacts{"S": {Name: "silver general", Noun: "silver", Glyph: "銀"}, "P": {Name: "pawn"}}})
	assert.Panics(t, func() { rules.Describe("test-facts", rules.Facts{}) }, "described twice")

	f := rules.FactsOf("test-facts")
	assert.Equal(t, "test-facts", f.Title, "the name when no title is given")
	first, second := f.Letters()
	assert.Equal(t, []byte{'x', 'y'}, []byte{first, second})
	assert.Equal(t, rules.ColoursByLot, f.Colours)
	assert.True(t, f.Glyphed())
	tests := []struct {
		key, noun string
		ok        bool
	}{{"S", "silver", true}, {"P", "pawn", true}, {"S+", "", false}, {"Q", "", false}}
	for _, tt := range tests {
		noun, ok := f.Noun(tt.key)
		assert.Equal(t, tt.noun, noun, tt.key)
		assert.Equal(t, tt.ok, ok, tt.key)
	}

	d := rules.FactsOf("no-such-game")
	assert.Equal(t, rules.Facts{Title: "no-such-game"}, d, "an unknown game gets the defaults")
	first, second = d.Letters()
	assert.Equal(t, []byte{'w', 'b'}, []byte{first, second})
	assert.False(t, d.Glyphed())
	assert.False(t, d.TopDown)
	assert.Equal(t, rules.ColoursBalanced, d.Colours)
}

// Every real game describes itself: its title and the names of its pieces.
func TestEveryGameHasFacts(t *testing.T) {
	titles := map[string]string{"chess": "Chess", "tensor": "Tensor chess", "tavreli": "Tavreli", "shogi": "Shogi", "kvaa": "Kvaa"}
	for name, title := range titles {
		f := rules.FactsOf(name)
		assert.Equal(t, title, f.Title, name)
		assert.NotEmpty(t, f.Pieces, name)
		for key, p := range f.Pieces {
			assert.NotEmpty(t, p.Name, "%s %s", name, key)
		}
	}
	assert.True(t, rules.FactsOf("shogi").TopDown)
	assert.True(t, rules.FactsOf("shogi").Glyphed())
	assert.Equal(t, rules.ColoursShogi, rules.FactsOf("shogi").Colours)
	assert.Equal(t, rules.ColoursByLot, rules.FactsOf("kvaa").Colours)
}
