package shogi

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Spec 7.1.
const (
	matsuriSFEN = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
	maxSFEN     = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
)

func TestPerft(t *testing.T) {
	tests := []struct {
		name  string
		sfen  string
		want  []uint64
		short int // depths run under -short
	}{
		{"initial", StartSFEN, []uint64{30, 900, 25470, 719731, 19861490}, 4},
		{"matsuri", matsuriSFEN, []uint64{207, 28684, 4809015}, 2},
		{"max", maxSFEN, []uint64{593, 105677, 53393368}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseSFEN(tt.sfen)
			require.NoError(t, err)
			for d, want := range tt.want {
				if (testing.Short() || raceEnabled) && d+1 > tt.short {
					break
				}
				require.Equal(t, want, b.Perft(d+1), "depth %d", d+1)
				require.Equal(t, tt.sfen, b.SFEN(), "board restored after perft")
			}
		})
	}
}
