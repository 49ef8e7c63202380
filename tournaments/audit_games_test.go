package tournaments_test

import (
	"testing"

	"github.com/dankyu/dankyu/tournaments"
)

func TestMovesDigest(t *testing.T) {
	base := "(;GM[1]SZ[19]PB[甲]PW[乙];B[pd];W[dp];B[pp];W[dd])"
	for _, tt := range []struct {
		name  string
		sgf   string
		moves int
		same  bool // the same digest as base
	}{
		{"itself", base, 4, true},
		{"other headers and comments", "(;GM[1]SZ[19]PB[丙]PW[丁]DT[2026-01-01]C[;B[aa] is no move];B[pd]C[好棋];W[dp];B[pp];W[dd])", 4, true},
		{"spaces between nodes", "(;GM[1]\n; B [pd]\n;W[dp] ;B[pp];W[dd])", 4, true},
		{"a move more", "(;GM[1];B[pd];W[dp];B[pp];W[dd];B[qq])", 5, false},
		{"another order", "(;GM[1];B[pp];W[dp];B[pd];W[dd])", 4, false},
		{"colours swapped", "(;GM[1];W[pd];B[dp];W[pp];B[dd])", 4, false},
		{"an escaped bracket in a comment", `(;C[a \] ;B[zz]];B[pd];W[dp];B[pp];W[dd])`, 4, true},
		{"a pass counts", "(;GM[1];B[pd];W[];B[pp];W[dd])", 4, false},
		{"no moves", "(;GM[1]SZ[19])", 0, false},
		{"cut short", "(;GM[1];B[pd];W[dp", 1, false},
	} {
		n, d := tournaments.MovesDigest([]byte(tt.sgf))
		_, want := tournaments.MovesDigest([]byte(base))
		if n != tt.moves || (d == want) != tt.same {
			t.Errorf("%s: %d moves, same %v; want %d, %v", tt.name, n, d == want, tt.moves, tt.same)
		}
	}
}
