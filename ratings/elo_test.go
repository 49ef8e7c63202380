package ratings

import "testing"

func TestElo(t *testing.T) {
	even := Game{Black: 0, White: 1, BlackRank: Rank{2100, true}, WhiteRank: Rank{2100, true}, Komi: 7.5, HasKomi: true, Winner: 'B'}
	tests := []struct {
		name   string
		g      Game
		p      float64
		black1 float64 // black's rating after the game
	}{
		{"even game", even, 0.5, 2110},
		{"one grade stronger black", func() Game { g := even; g.BlackRank.GoR = 2500; g.Winner = 'W'; return g }(), 1 / (1 + 1/10.0), 2500 - 20*10/11.0},
		{"handicap evens out", func() Game { g := even; g.BlackRank.GoR = 1650; g.Handicap = 5; g.Komi = 0.5; return g }(), 0.5, 1660},
	}
	for _, tt := range tests {
		s := NewElo(2, 2100, DefaultElo())
		if got := s.Predict(&tt.g); !near(got, tt.p, 1e-12) {
			t.Errorf("%s: P(black) %v, want %v", tt.name, got, tt.p)
		}
		s.Update([]Game{tt.g})
		if !near(s.r[0], tt.black1, 1e-9) {
			t.Errorf("%s: black rated %v, want %v", tt.name, s.r[0], tt.black1)
		}
		// Elo is zero-sum.
		if !near(s.r[0]+s.r[1], tt.g.BlackRank.GoR+tt.g.WhiteRank.GoR, 1e-9) {
			t.Errorf("%s: ratings sum changed", tt.name)
		}
	}
}
