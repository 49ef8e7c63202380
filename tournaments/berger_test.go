package tournaments

import (
	"fmt"
	"testing"
)

// fideSix is the Berger table for 5 or 6 players as printed in the FIDE
// Handbook, C.05 Annex 1.
var fideSix = [][]Pair{
	{{1, 6}, {2, 5}, {3, 4}},
	{{6, 4}, {5, 3}, {1, 2}},
	{{2, 6}, {3, 1}, {4, 5}},
	{{6, 5}, {1, 4}, {2, 3}},
	{{3, 6}, {4, 2}, {5, 1}},
}

// fideFour is the FIDE table for 3 or 4 players.
var fideFour = [][]Pair{
	{{1, 4}, {2, 3}},
	{{4, 3}, {1, 2}},
	{{2, 4}, {3, 1}},
}

// fideEight is the FIDE table for 7 or 8 players.
var fideEight = [][]Pair{
	{{1, 8}, {2, 7}, {3, 6}, {4, 5}},
	{{8, 5}, {6, 4}, {7, 3}, {1, 2}},
	{{2, 8}, {3, 1}, {4, 7}, {5, 6}},
	{{8, 6}, {7, 5}, {1, 4}, {2, 3}},
	{{3, 8}, {4, 2}, {5, 1}, {6, 7}},
	{{8, 7}, {1, 6}, {2, 5}, {3, 4}},
	{{4, 8}, {5, 3}, {6, 2}, {7, 1}},
}

func TestBergerMatchesFIDE(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want [][]Pair
	}{{4, fideFour}, {6, fideSix}, {8, fideEight}} {
		got, err := RoundRobin(tt.n, false)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%d players:\n got %v\nwant %v", tt.n, got, tt.want)
		}
	}
}

func TestBergerOddFieldByes(t *testing.T) {
	got, _ := RoundRobin(5, false)
	want := [][]Pair{
		{{1, 0}, {2, 5}, {3, 4}},
		{{4, 0}, {5, 3}, {1, 2}},
		{{2, 0}, {3, 1}, {4, 5}},
		{{5, 0}, {1, 4}, {2, 3}},
		{{3, 0}, {4, 2}, {5, 1}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("5 players:\n got %v\nwant %v", got, want)
	}
}

// TestRoundRobinProperties: every pair meets exactly once per cycle, every
// player plays once per round, and the double cycle swaps colours.
func TestRoundRobinProperties(t *testing.T) {
	for n := 2; n <= 31; n++ {
		rounds, err := RoundRobin(n, true)
		if err != nil {
			t.Fatal(err)
		}
		cycle := n - 1 + n%2
		if len(rounds) != 2*cycle {
			t.Fatalf("%d players: %d rounds, want %d", n, len(rounds), 2*cycle)
		}
		met := map[[2]int]int{}
		byes := map[int]int{}
		for r, round := range rounds {
			seen := map[int]bool{}
			for _, p := range round {
				if seen[p.A] || (p.B != 0 && seen[p.B]) {
					t.Fatalf("%d players, round %d: a player twice", n, r+1)
				}
				seen[p.A], seen[p.B] = true, true
				if p.Bye() {
					byes[p.A]++
					continue
				}
				met[[2]int{p.A, p.B}]++
			}
		}
		for a := 1; a <= n; a++ {
			for b := a + 1; b <= n; b++ {
				if met[[2]int{a, b}] != 1 || met[[2]int{b, a}] != 1 {
					t.Fatalf("%d players: %d–%d met %d/%d times by colour", n, a, b, met[[2]int{a, b}], met[[2]int{b, a}])
				}
			}
			if n%2 == 1 && byes[a] != 2 {
				t.Fatalf("%d players: player %d had %d byes in two cycles", n, a, byes[a])
			}
		}
	}
}
