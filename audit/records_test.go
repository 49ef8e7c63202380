package audit

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/tournaments"
)

func TestBoundedEdits(t *testing.T) {
	for _, tt := range []struct {
		a, b  []int16
		limit int
		want  int
	}{
		{[]int16{1, 2, 3}, []int16{1, 2, 3}, 2, 0},
		{[]int16{1, 2, 3}, []int16{1, 9, 3}, 2, 1},
		{[]int16{1, 2, 3, 4}, []int16{1, 3, 4}, 2, 1},
		{[]int16{1, 3, 4}, []int16{1, 2, 3, 4, 5}, 2, 2},
		{[]int16{1, 2, 3, 4, 5, 6}, []int16{6, 5, 4, 3, 2, 1}, 2, -1},
		{[]int16{1, 2, 3}, []int16{1, 2, 3, 4, 5, 6}, 2, -1},
		{nil, []int16{1}, 1, 1},
	} {
		if got, _ := boundedEdits(tt.a, tt.b, tt.limit, nil); got != tt.want {
			t.Errorf("boundedEdits(%v, %v, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

// randomGame is a sequence of n distinct points of a 19×19 board.
func randomGame(r *rand.Rand, n int) []int16 {
	perm := r.Perm(361)
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(perm[i])
	}
	return out
}

func rec(id int64, pts []int16) tournaments.RecordMoves {
	return tournaments.RecordMoves{Tournament: id, Round: 1, Board: 1, Size: 19, Points: pts}
}

// TestMatchRecords: each of the eight symmetries of a game is the same
// record; a copy with a few moves changed, added or removed is a near copy;
// a thousand different games match nothing.
func TestMatchRecords(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	orig := randomGame(r, 120)
	m := symmetries(19)
	var rs []tournaments.RecordMoves
	rs = append(rs, rec(1, orig))
	for s := 1; s < 8; s++ {
		rs = append(rs, rec(int64(1+s), turn(nil, orig, m[s])))
	}
	changed := append([]int16(nil), orig...)
	changed[30], changed[70], changed[100] = 361-1-changed[30], 0, 5
	added := append(append(append([]int16(nil), orig[:50]...), -1, -1), orig[50:]...)
	removed := append(append([]int16(nil), orig[:20]...), orig[25:]...)
	rs = append(rs, rec(20, turn(nil, changed, m[5])), rec(21, added), rec(22, turn(nil, removed, m[3])))
	for i := range 1000 {
		rs = append(rs, rec(int64(100+i), randomGame(r, 60+r.IntN(100))))
	}
	got := map[int64]int{}
	for _, c := range matchRecords(rs, 60) {
		got[c.later.Tournament] = c.edits
		if c.earlier.Tournament != 1 && c.later.Tournament < 20 {
			t.Errorf("%d matched %d, want the original", c.later.Tournament, c.earlier.Tournament)
		}
	}
	for s := 1; s < 8; s++ {
		if e, ok := got[int64(1+s)]; !ok || e != 0 {
			t.Errorf("symmetry %d: matched %v, edits %d", s, ok, e)
		}
	}
	for id, edits := range map[int64]int{20: 3, 21: 2, 22: 5} {
		if got[id] != edits {
			t.Errorf("near copy %d: %d edits, want %d", id, got[id], edits)
		}
	}
	if len(got) != 10 {
		t.Errorf("%d matches, want 10: %v", len(got), got)
	}
}

// BenchmarkRecordComparison compares, on the same 20 000 SGF records (one
// in fifty a turned copy or a near copy of an earlier one), the exact
// digest the audit used before (SHA-256 of the moves, grouped) with the
// comparison up to symmetry and colour with near copies (points read,
// MinHash/LSH buckets, bounded edit distance).
func BenchmarkRecordComparison(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var sgfs [][]byte
	var games [][]int16
	for i := range 20000 {
		var g []int16
		switch {
		case i > 100 && i%50 == 0:
			g = turn(nil, games[r.IntN(len(games))], symmetries(19)[r.IntN(8)])
			g[r.IntN(len(g))] = -1
		default:
			g = randomGame(r, 60+r.IntN(140))
		}
		games = append(games, g)
		var sb strings.Builder
		sb.WriteString("(;GM[1]FF[4]SZ[19]")
		for k, p := range g {
			c := "BW"[k%2]
			if p < 0 {
				fmt.Fprintf(&sb, ";%c[]", c)
				continue
			}
			fmt.Fprintf(&sb, ";%c[%c%c]", c, 'a'+p%19, 'a'+p/19)
		}
		sgfs = append(sgfs, []byte(sb.String()+")"))
	}
	b.Run("exact_digest", func(b *testing.B) {
		for b.Loop() {
			seen := map[[32]byte]int{}
			for _, s := range sgfs {
				n, d := tournaments.MovesDigest(s)
				if n >= MinIdenticalMoves {
					seen[d]++
				}
			}
		}
	})
	b.Run("symmetric_near", func(b *testing.B) {
		for b.Loop() {
			var buf []byte
			rs := make([]tournaments.RecordMoves, 0, len(sgfs))
			for i, s := range sgfs {
				var x tournaments.RecordMoves
				x.Size, x.Points, buf = tournaments.MovePoints(buf[:0], s)
				x.Tournament = int64(i)
				rs = append(rs, x)
			}
			if len(matchRecords(rs, MinIdenticalMoves)) < 300 {
				b.Fatal("copies not found")
			}
		}
	})
}
