package ratings

import (
	"math"
	"testing"
)

// A later result revises a player's earlier days (the point of WHR), and
// the opponent's fixed history is untouched.
func TestWHRRevisesHistory(t *testing.T) {
	s := NewWHR(3, 2100, DefaultWHR())
	s.Update([]Game{evenGame(0, 0, 1, 2100, 2100, 'B')})
	day0 := s.nodes[0][0].r
	if !(day0 > 2100 && s.nodes[1][0].r < 2100) {
		t.Fatalf("after a win %v, loser %v", day0, s.nodes[1][0].r)
	}
	s.Update([]Game{evenGame(10, 0, 2, 2100, 2100, 'W')})
	if len(s.nodes[0]) != 2 || !(s.nodes[0][0].r < day0) {
		t.Errorf("a loss on day 10 did not lower day 0: %v -> %v", day0, s.nodes[0][0].r)
	}
	if p := s.Predict(&Game{Black: 2, White: 1, Komi: 7.5, HasKomi: true}); !(p > 0.5) {
		t.Errorf("P(winner of day 10 beats loser of day 0) = %v", p)
	}
}

// Newton steps on one player's chain converge to the maximum of the
// posterior: after many steps the gradient vanishes.
func TestWHRNewtonConverges(t *testing.T) {
	s := NewWHR(4, 2100, WHRParams{Width: 150, Drift: 10, SD0: 200})
	games := []Game{
		evenGame(0, 0, 1, 2100, 2300, 'B'), evenGame(3, 0, 2, 2100, 2000, 'W'),
		evenGame(9, 3, 0, 2200, 2100, 'W'), evenGame(9, 0, 1, 2100, 2300, 'B'),
	}
	for i := range games {
		s.Update(games[i : i+1])
	}
	for range 20 {
		s.newton(0)
	}
	before := append([]whrNode(nil), s.nodes[0]...)
	s.newton(0)
	for i := range before {
		if d := math.Abs(s.nodes[0][i].r - before[i].r); d > 1e-6 {
			t.Errorf("node %d still moves by %v", i, d)
		}
	}
}
