package rules

import "testing"

// oneChain is a 19×19 board covered by one black chain with an eye every
// fourth point, and every point of the board written as a dead stone
// (GTP): the list that once cost a walk of the whole chain per entry.
func oneChain(b testing.TB) (*Board, []string) {
	b.Helper()
	board, err := NewBoard(19)
	if err != nil {
		b.Fatal(err)
	}
	var list []string
	for y := range 19 {
		for x := range 19 {
			if x%4 != 2 || y%4 != 2 {
				board.Setup(Black, board.At(x, y))
			}
			list = append(list, GTPPoint(Coord{x, y}, 19))
		}
	}
	return board, list
}

func benchmarkCount(b *testing.B, every bool) {
	board, list := oneChain(b)
	if !every {
		list = list[:1] // A19, a stone of the chain
	}
	b.ReportAllocs()
	for b.Loop() {
		dead, _, err := deadPoints(board, list)
		if err != nil {
			b.Fatal(err)
		}
		if c := board.CountArea(dead); c.Removed[Black] != 19*19-25 {
			b.Fatal("the chain was not removed")
		}
	}
}

// BenchmarkCountEveryPointDead reads a dead-stone list naming every point
// of a board covered by one chain and counts: each point is marked once
// and the chain walked once, so it costs a small factor of the baseline
// (reading 361 points instead of one); it once walked the chain for every
// entry.
func BenchmarkCountEveryPointDead(b *testing.B) { benchmarkCount(b, true) }

// BenchmarkCountOnePointDead is the baseline: the same chain named by one
// of its stones, the same board counted.
func BenchmarkCountOnePointDead(b *testing.B) { benchmarkCount(b, false) }

// TestDeadChainWalkedOnce: however many of a chain's points a dead-stone
// list names, the count removes the chain's stones once each.
func TestDeadChainWalkedOnce(t *testing.T) {
	board, list := oneChain(t)
	dead, empty, err := deadPoints(board, list)
	if err != nil {
		t.Fatal(err)
	}
	stones := 19*19 - 25
	if len(dead)+len(empty) > 19*19 {
		t.Fatalf("%d dead and %d empty points named on a board of 361", len(dead), len(empty))
	}
	if c := board.CountArea(dead); c.Removed[Black] != stones || c.Territory[Black]+c.Neutral+c.Territory[White] != 19*19 {
		t.Fatalf("%+v, want the %d stones removed once", c, stones)
	}
}
