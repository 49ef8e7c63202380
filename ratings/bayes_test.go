package ratings

import (
	"math"
	"testing"
)

func evenGame(day int32, b, w int32, rb, rw float64, winner byte) Game {
	return Game{Day: day, Black: b, White: w, BlackRank: Rank{rb, true}, WhiteRank: Rank{rw, true}, Komi: 7.5, HasKomi: true, Winner: winner}
}

func TestBayesNewcomerMovesMoreThanEstablished(t *testing.T) {
	s := NewBayes(4, 2100, DefaultBayes())
	// Players 0 and 1 play 30 games against each other first.
	for d := int32(0); d < 30; d++ {
		w := byte('B')
		if d%2 == 1 {
			w = 'W'
		}
		s.Update([]Game{evenGame(d, 0, 1, 2100, 2100, w)})
	}
	before0 := s.m[0]
	s.Update([]Game{evenGame(30, 0, 2, 2100, 2100, 'B')}) // 0 beats newcomer 2
	s.Update([]Game{evenGame(30, 3, 1, 2100, 2100, 'B')}) // newcomer 3 beats 1
	if up0, up3 := s.m[0]-before0, s.m[3]-2100; !(up3 > 2*up0) || up0 <= 0 {
		t.Errorf("established winner gained %v, newcomer winner %v", up0, up3)
	}
	if !(s.v[3] < DefaultBayes().SD0*DefaultBayes().SD0) {
		t.Error("a game did not reduce the newcomer's variance")
	}
}

func TestBayesUncertaintyGrowsWithTimeAndFlattens(t *testing.T) {
	s := NewBayes(2, 2100, DefaultBayes())
	for d := int32(0); d < 20; d++ {
		s.Update([]Game{evenGame(d, 0, 1, 2100, 2100, 'B')})
	}
	now := s.Predict(&Game{Day: 20, Black: 0, White: 1, Komi: 7.5, HasKomi: true})
	later := s.Predict(&Game{Day: 2000, Black: 0, White: 1, Komi: 7.5, HasKomi: true})
	if !(now > later && later > 0.5) {
		t.Errorf("P(black) %v now, %v after years away: want closer to 1/2 but still above", now, later)
	}
	if v := s.belief(0, Rank{}, 100000).v; v > DefaultBayes().SD0*DefaultBayes().SD0 {
		t.Errorf("variance %v above its cap", v)
	}
}

func TestBayesDeclaredRankMovesRating(t *testing.T) {
	s := NewBayes(2, 2100, DefaultBayes())
	s.Update([]Game{evenGame(0, 0, 1, 2100, 2100, 'B')})
	m := s.m[0]
	same := s.belief(0, Rank{2100, true}, 0)
	promoted := s.belief(0, Rank{2400, true}, 0)
	if same.m != m {
		t.Errorf("the same rank moved the rating from %v to %v", m, same.m)
	}
	if !(promoted.m > m && promoted.m < 2400 && promoted.v < same.v) {
		t.Errorf("a 3-grade promotion: %v -> %+v", m, promoted)
	}
}

func TestBayesPredictions(t *testing.T) {
	tests := []struct {
		name  string
		g     Game
		check func(p float64) bool
	}{
		{"equal ranks, komi 7.5: even", evenGame(0, 0, 1, 2100, 2100, 'B'), func(p float64) bool { return near(p, 0.5, 1e-12) }},
		{"stronger black favoured", evenGame(0, 0, 1, 2400, 2100, 'B'), func(p float64) bool { return p > 0.55 && p < 1 }},
		{"5 stones even 4.5 grades", Game{Black: 0, White: 1, BlackRank: Rank{1650, true}, WhiteRank: Rank{2100, true}, Handicap: 5, Komi: 0.5, HasKomi: true}, func(p float64) bool { return near(p, 0.5, 1e-12) }},
		{"no-komi favours black", Game{Black: 0, White: 1, BlackRank: Rank{2100, true}, WhiteRank: Rank{2100, true}, Komi: 0.5, HasKomi: true}, func(p float64) bool { return p > 0.5 }},
	}
	for _, tt := range tests {
		s := NewBayes(2, 2100, DefaultBayes())
		if p := s.Predict(&tt.g); !tt.check(p) {
			t.Errorf("%s: P(black) = %v", tt.name, p)
		}
	}
	// Swapping colours in an even game mirrors the prediction.
	s := NewBayes(2, 2100, DefaultBayes())
	a, b := evenGame(0, 0, 1, 2300, 2000, 'B'), evenGame(0, 1, 0, 2000, 2300, 'B')
	if pa, pb := s.Predict(&a), s.Predict(&b); !near(pa, 1-pb, 1e-12) {
		t.Errorf("P %v and swapped %v do not sum to 1", pa, pb)
	}
}

// Tuned on a real subset, our system predicts better than a coin and than
// its own defaults, and Predict never changes the state.
func TestBayesLearnsOnRealGames(t *testing.T) {
	gs := readTestdata(t, "kgs-split.csv")
	m := Models()[0]
	unknown := MedianFirstRank(gs.Games, len(gs.Players))
	init := make([]float64, len(m.Params))
	for i, p := range m.Params {
		init[i] = p.Init
	}
	x := Tune(m, gs.Games, len(gs.Players), unknown, ByGame, 30)
	score := func(x []float64) float64 {
		return Score(Replay(gs.Games, m.New(x, len(gs.Players), unknown), ByGame), gs.Games).LogLoss
	}
	if l0, l := score(init), score(x); !(l <= l0 && l < math.Ln2-0.02) {
		t.Errorf("log-loss %v tuned, %v default, %v coin", l, l0, math.Ln2)
	}
	s := m.New(x, len(gs.Players), unknown)
	p1 := Replay(gs.Games, s, ByGame)
	s2 := m.New(x, len(gs.Players), unknown)
	for i := range gs.Games {
		s2.Predict(&gs.Games[i]) // extra calls must not matter
		if p := s2.Predict(&gs.Games[i]); p != p1[i] {
			t.Fatalf("game %d: %v after an extra Predict, %v without", i, p, p1[i])
		}
		s2.Update(gs.Games[i : i+1])
	}
}

// On a few hundred games the pull toward the defaults holds the tuned
// parameters nearer to them than a search without it, at some cost in
// training fit, and the tuned objective is never worse than the defaults'.
func TestTunePullsTowardDefaults(t *testing.T) {
	gs := readTestdata(t, "egc2013-rounds1-3.csv")
	m := Models()[0]
	n, players := len(gs.Games), len(gs.Players)
	unknown := MedianFirstRank(gs.Games, players)
	fit := func(x []float64) float64 {
		return Score(Replay(gs.Games, m.New(x, players, unknown), ByGame), gs.Games).LogLoss
	}
	dist := func(x []float64) float64 { return tunePull(m, x, 1) }
	free := tune(m, gs.Games, players, unknown, ByGame, 80, math.Inf(1))
	pulled := Tune(m, gs.Games, players, unknown, ByGame, 80)
	if !(dist(pulled) < dist(free)) {
		t.Errorf("distance from the defaults %v pulled, %v free (%v, %v)", dist(pulled), dist(free), pulled, free)
	}
	if !(fit(free) <= fit(pulled)) {
		t.Errorf("training log-loss %v free, %v pulled", fit(free), fit(pulled))
	}
	def := Defaults(m)
	obj := func(x []float64) float64 { return fit(x) + tunePull(m, x, tunePriorSD)/float64(n) }
	if !(obj(pulled) <= obj(def)) {
		t.Errorf("objective %v tuned, %v at the defaults", obj(pulled), obj(def))
	}
}

// The grades enter the combination as a logit on the ratings' own win
// model, so that the prior sd learn means the same on the grades' weight
// as on the ratings': a grade difference of d GoR is worth what a rating
// difference of d is, whatever the width.
func TestBayesGradeFeatureOnTheRatingsScale(t *testing.T) {
	for _, tc := range []struct {
		width, span  float64
		rb, rw, adv  float64
		unknownBlack bool
	}{
		{350, 1e6, 2100, 1800, 0, false},
		{175, 1e6, 2100, 1800, 0, false},
		{350, 1200, 2400, 2000, 150, false},
		{247.5, 1e6, 1500, 1900, 250, true},
	} {
		p := DefaultBayes()
		p.Width, p.Span = tc.width, tc.span
		s := NewBayes(2, 2100, p)
		b := belief{m: tc.rb - 50, v: 100, rank: tc.rb}
		if tc.unknownBlack {
			b = belief{m: tc.rb, v: 100, rank: math.NaN()}
		}
		w := belief{m: tc.rw + 70, v: 100, rank: tc.rw}
		f := s.gradeFeats(0.3, b, w, tc.adv)
		// The same difference between the ratings themselves: the
		// ratings' logit before uncertainty.
		rb, _, _ := s.game(belief{m: tc.rb}, belief{m: tc.rw}, tc.adv)
		if math.Abs(f[1]-rb) > 1e-12 || f[0] != 1 || f[2] != 0.3 {
			t.Errorf("%+v: features %v, want (1, %v, 0.3)", tc, f, rb)
		}
		if tc.span == 1e6 {
			if want := (tc.rb + tc.adv - tc.rw) / tc.width; math.Abs(f[1]-want) > 1e-3 {
				t.Errorf("%+v: grade logit %v, want about %v", tc, f[1], want)
			}
		}
	}
}

// A newcomer's first grade is less certain the weaker it is: Kyu per 10
// grades below 1k/1d, less above; Kyu 0 (a parameter set stored before
// Kyu existed) or 1 is the same SD0 at every grade.
func TestBayesNewcomerUncertaintyByGrade(t *testing.T) {
	for _, tc := range []struct {
		kyu, gor, wantSD float64
	}{
		{1.25, 2050, 280},
		{1.25, 1050, 280 * 1.25},
		{1.25, 50, 280 * 1.25 * 1.25},
		{1.25, 2550, 280 / math.Sqrt(1.25)},
		{1.25, -2000, 280 * math.Pow(1.25, 2.95)}, // floored at 30k
		{1, 50, 280},
		{0, 50, 280},
	} {
		p := DefaultBayes()
		p.SD0, p.Kyu = 280, tc.kyu
		s := NewBayes(1, 2100, p)
		b := s.belief(0, Rank{GoR: tc.gor, Known: true}, 0)
		if got := math.Sqrt(b.v); math.Abs(got-tc.wantSD) > 1e-9 {
			t.Errorf("kyu %v, first grade %v: sd %v, want %v", tc.kyu, tc.gor, got, tc.wantSD)
		}
	}
}
