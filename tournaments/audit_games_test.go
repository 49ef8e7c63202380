package tournaments_test

import (
	"testing"

	"github.com/dankyu/dankyu/rules"
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
		{"a comment before the move in its node", "(;GM[1];C[先手]B[pd];W[dp];BL[300]B[pp];W[dd])", 4, true},
		{"variations after the main line", "(;GM[1];B[pd];W[dp](;B[pp];W[dd])(;B[aa];W[bb]))", 4, true},
		{"the first variation is the main line", "(;GM[1];B[pd];W[dp](;B[pp];W[dd];B[qq])(;B[pp];W[dd]))", 5, false},
		{"the second game of a collection", "(;B[pd];W[dp];B[pp];W[dd])(;B[aa])", 4, true},
		{"a setup property is no move", "(;GM[1]AB[aa][bb];B[pd];W[dp];B[pp];W[dd])", 4, true},
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

// FuzzMovesDigest: the audit's scan of a record's moves never panics and,
// on any record the rules engine reads, counts the moves of the engine's
// main line.
func FuzzMovesDigest(f *testing.F) {
	for _, s := range []string{"(;GM[1]SZ[19];B[pd];W[dp])", "(;B[pd](;W[dp])(;W[qq]))", "(;C[a \\] ;B[zz]]AB[aa];B[];W[tt])", "(;GM[1];B[pd];W[dp",
		// a charset named, or not, against the bytes (the review's cases)
		"(;CA[GB2312]PB[中];B[pd];W[dp])", "(;CA[ISO-8859-1]PB[Jos\xe9];B[pd];W[dp])", "(;CA[UTF-8]C[caf\xe9];B[pd];W[dp])", "(;C[\xff];B[pd];W[dp])"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, _ := tournaments.MovesDigest(data)
		trees, err := rules.ParseSGF(data)
		if err != nil || len(trees) == 0 {
			return
		}
		g, err := rules.GameFromTree(trees[0])
		if err != nil {
			return
		}
		if want := g.Moves(); n != want {
			t.Fatalf("%q: the scan counts %d moves, the engine's main line %d", data, n, want)
		}
	})
}
