package ratings

import (
	"math"
	"testing"
)

// The worked examples of ratings.md (EGD, since April 2021).
func TestGoRWorkedExamples(t *testing.T) {
	tests := []struct {
		name           string
		r, opp, sa     float64
		want, con, exp float64
	}{
		{"2100 beats 2100", 2100, 2100, 1, 2109.306, 17.5809, 0.5},
		{"2100 loses to 2100", 2100, 2100, 0, 2091.725, 17.5809, 0.5},
		{"2674.564 loses to 2611.051", 2674.564, 2611.051, 0, 2670.456, 6.1979, 0.66307},
	}
	for _, tt := range tests {
		if got := GoRCon(tt.r); !near(got, tt.con, 5e-5) {
			t.Errorf("%s: con %v, want %v", tt.name, got, tt.con)
		}
		if got := GoRExpected(tt.r, tt.opp); !near(got, tt.exp, 5e-6) {
			t.Errorf("%s: Se %v, want %v", tt.name, got, tt.exp)
		}
		if got := GoRUpdate(tt.r, tt.opp, 0, tt.sa); !near(got, tt.want, 5e-4) {
			t.Errorf("%s: new rating %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := GoRBonus(2100); !near(got, 0.5158, 5e-5) {
		t.Errorf("bonus at 2100 = %v, want 0.5158", got)
	}
}

func TestGoRFloorAndHandicap(t *testing.T) {
	if got := GoRUpdate(-900, -900, 0, 0); got != GoRFloor {
		t.Errorf("a 30k who loses goes to %v, want the floor %v", got, GoRFloor)
	}
	// 1850 with 5 stones against 2300 is an even bet, so a win gains half of con plus the bonus.
	want := 1850 + GoRCon(1850)*0.5 + GoRBonus(1850)
	if got := GoRUpdate(1850, 2300, 450, 1); !near(got, want, 1e-9) {
		t.Errorf("handicap win: %v, want %v", got, want)
	}
}

// Replaying a system through games must give what the formulas give, with
// newcomers starting at their rank, and a round rated from pre-round ratings.
func TestGoRReplay(t *testing.T) {
	d1, k1 := Rank{2100, true}, Rank{2000, true}
	games := []Game{
		{Day: 1, Event: "e", Round: "1", Black: 0, White: 1, BlackRank: d1, WhiteRank: k1, Komi: 6.5, HasKomi: true, Winner: 'W'},
		{Day: 1, Event: "e", Round: "1", Black: 2, White: 0, BlackRank: d1, WhiteRank: d1, Komi: 7.5, HasKomi: true, Winner: 'W'},
	}
	adv0 := advantage(&games[0])
	for _, tt := range []struct {
		batch Batch
		want0 float64 // player 0 after both games
	}{
		{ByGame, GoRUpdate(GoRUpdate(2100, 2000, adv0, 0), 2100, 0, 1)},
		{ByRound, 2100 + (GoRUpdate(2100, 2000, adv0, 0) - 2100) + (GoRUpdate(2100, 2100, 0, 1) - 2100)},
	} {
		s := NewGoR(3, 1900)
		p := Replay(games, s, tt.batch)
		if !near(p[0], GoRExpected(2100+adv0, 2000), 1e-12) {
			t.Errorf("batch %v: first prediction %v", tt.batch, p[0])
		}
		if got := s.Rating(0, Rank{}); !near(got, tt.want0, 1e-9) {
			t.Errorf("batch %v: player 0 ends at %v, want %v", tt.batch, got, tt.want0)
		}
	}
	if s := NewGoR(1, 1900); s.Rating(0, Rank{}) != 1900 {
		t.Error("an unknown rank does not start at the fallback")
	}
	if math.IsNaN(NewGoR(2, 0).Predict(&Game{Black: 0, White: 1, BlackRank: Rank{2940, true}, WhiteRank: Rank{0, true}, Handicap: 9, Komi: 0.5, HasKomi: true})) {
		t.Error("a top rating with a large handicap gives NaN")
	}
}

// TestGoRExpectedMatchesBeta checks the power form of GoRExpected against
// the EGD's formula with beta(r) = -7 ln(3300 - r), over the whole scale.
func TestGoRExpectedMatchesBeta(t *testing.T) {
	beta := func(r float64) float64 { return -7 * math.Log(max(3300-r, 1)) }
	for r := -900.0; r <= 3400; r += 37 {
		for opp := -900.0; opp <= 3400; opp += 41 {
			want := 1 / (1 + math.Exp(beta(opp)-beta(r)))
			if got := GoRExpected(r, opp); math.Abs(got-want) > 1e-12 {
				t.Fatalf("GoRExpected(%v, %v) = %v, want %v", r, opp, got, want)
			}
		}
	}
}
