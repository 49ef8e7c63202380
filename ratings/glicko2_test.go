package ratings

import (
	"math"
	"testing"
)

// Glickman's worked example (tau 0.5): 1500/200/0.06 plays 1400/30 (win),
// 1550/100 (loss) and 1700/300 (loss) in one period.
func TestGlicko2PaperExample(t *testing.T) {
	p := DefaultGlicko2()
	s := NewGlicko2(4, 2100, p)
	for i, pl := range []struct{ r, rd float64 }{{1500, 200}, {1400, 30}, {1550, 100}, {1700, 300}} {
		s.mu[i] = (pl.r - 1500) / p.Scale
		s.phi[i] = pl.rd / p.Scale
		s.vol[i] = 0.06
		s.seen[i] = true
	}
	even := func(opp int32, w byte) Game {
		return Game{Day: 0, Black: 0, White: opp, Komi: 7.5, HasKomi: true, Winner: w}
	}
	s.Update([]Game{even(1, 'B'), even(2, 'W'), even(3, 'W')})
	if r := 1500 + s.mu[0]*p.Scale; math.Abs(r-1464.05) > 0.01 {
		t.Errorf("rating %.3f, want 1464.05", r)
	}
	if rd := s.phi[0] * p.Scale; math.Abs(rd-151.52) > 0.01 {
		t.Errorf("RD %.3f, want 151.52", rd)
	}
	if math.Abs(s.vol[0]-0.059996) > 1e-6 {
		t.Errorf("volatility %.7f, want 0.059996", s.vol[0])
	}
}

func TestGlicko2DeviationGrowsWithTime(t *testing.T) {
	p := DefaultGlicko2()
	s := NewGlicko2(2, 2100, p)
	g := Game{Day: 10, Black: 0, White: 1, BlackRank: Rank{2100, true}, WhiteRank: Rank{2100, true}, Komi: 7.5, HasKomi: true, Winner: 'B'}
	s.Update([]Game{g})
	soon := s.player(0, Rank{}, 10).phi
	later := s.player(0, Rank{}, 400).phi
	if !(later > soon) || later > p.RD0/p.Scale+1e-12 {
		t.Errorf("deviation %v at once, %v after 390 days (cap %v)", soon, later, p.RD0/p.Scale)
	}
	if s.mu[0] <= 0 || s.mu[1] >= 0 {
		t.Errorf("the winner did not rise: %v, %v", s.mu[0], s.mu[1])
	}
}
