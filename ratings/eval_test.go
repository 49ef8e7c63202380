package ratings

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func results(w ...byte) []Game {
	g := make([]Game, len(w))
	for i := range w {
		g[i].Winner = w[i]
	}
	return g
}

func TestScore(t *testing.T) {
	tests := []struct {
		name           string
		p              []float64
		games          []Game
		ll, brier, acc float64
	}{
		{"coin", []float64{0.5, 0.5}, results('B', 'W'), math.Ln2, 0.25, 0.5},
		{"right and sure", []float64{0.9, 0.2}, results('B', 'W'), -(math.Log(0.9) + math.Log(0.8)) / 2, (0.01 + 0.04) / 2, 1},
		{"one wrong", []float64{0.9, 0.6}, results('B', 'W'), -(math.Log(0.9) + math.Log(0.4)) / 2, (0.01 + 0.36) / 2, 0.5},
		{"clipped", []float64{0, 1}, results('B', 'B'), -(math.Log(1e-6) + math.Log(1-1e-6)) / 2, 0.5, 0.5},
		{"draw counts half", []float64{0.7}, results('D'), -(0.5*math.Log(0.7) + 0.5*math.Log(0.3)), 0.04, 0.5},
	}
	for _, tt := range tests {
		m := Score(tt.p, tt.games)
		if m.N != len(tt.p) || !near(m.LogLoss, tt.ll, 1e-12) || !near(m.Brier, tt.brier, 1e-12) || !near(m.Accuracy, tt.acc, 1e-12) {
			t.Errorf("%s: %+v, want log-loss %v Brier %v accuracy %v", tt.name, m, tt.ll, tt.brier, tt.acc)
		}
	}
	if m := Score(nil, nil); !math.IsNaN(m.LogLoss) || m.N != 0 {
		t.Errorf("no games: %+v", m)
	}
}

// Outcomes drawn from sigmoid(k logit p) have calibration slope k.
func TestCalibrationSlope(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, k := range []float64{0.5, 1, 2} {
		n := 40000
		p, y := make([]float64, n), make([]float64, n)
		for i := range p {
			p[i] = 0.05 + 0.9*rng.Float64()
			l := math.Log(p[i] / (1 - p[i]))
			if rng.Float64() < 1/(1+math.Exp(-k*l)) {
				y[i] = 1
			}
		}
		if b := CalibrationSlope(p, y); math.Abs(b-k) > 0.08*k {
			t.Errorf("slope %v, want about %v", b, k)
		}
	}
	if b := CalibrationSlope([]float64{0.6, 0.6, 0.6}, []float64{1, 0, 1}); !math.IsNaN(b) {
		t.Errorf("constant p gives slope %v, want NaN", b)
	}
}

func TestPairedBootstrap(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	b := []float64{0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5}
	if iv := PairedBootstrap(a, b, 200, 1); iv.Mean != 0.5 || iv.Lo != 0.5 || iv.Hi != 0.5 {
		t.Errorf("a constant difference: %+v", iv)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	x, y := make([]float64, 2000), make([]float64, 2000)
	for i := range x {
		x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()+0.3
	}
	iv := PairedBootstrap(x, y, 1000, 1)
	// The standard error of the mean difference is sqrt(2/2000) = 0.032.
	if !(iv.Lo < iv.Mean && iv.Mean < iv.Hi) || math.Abs((iv.Hi-iv.Lo)-2*1.96*0.0316) > 0.02 || iv.Hi > 0 {
		t.Errorf("noisy difference of -0.3: %+v", iv)
	}
	if again := PairedBootstrap(x, y, 1000, 1); again != iv {
		t.Error("the same seed gave another interval")
	}
}

func TestSplits(t *testing.T) {
	gs := readTestdata(t, "kgs-split.csv")
	kgs, err := SplitByName("kgs")
	if err != nil {
		t.Fatal(err)
	}
	pt, err := kgs.Select(gs)
	if err != nil {
		t.Fatal(err)
	}
	if pt.Cut != 1500 || len(pt.Games) != 1800 || pt.Rows[1500] != 1500 {
		t.Errorf("cut %d of %d games", pt.Cut, len(pt.Games))
	}
	if _, err := SplitByName("fox"); err == nil || !strings.Contains(err.Error(), "kgs, aga, egc, tygem") {
		t.Errorf("unknown split: %v", err)
	}
	aga, _ := SplitByName("aga")
	if _, err := aga.Select(gs); err == nil {
		t.Error("the AGA split found games in a KGS file")
	}
	// An evaluation game followed by a training game breaks the protocol.
	swapped := &Games{Players: gs.Players, Games: append(append([]Game(nil), gs.Games[1500:1501]...), gs.Games[:3]...)}
	if _, err := kgs.Select(swapped); err == nil || !strings.Contains(err.Error(), "after the first evaluation game") {
		t.Errorf("training after evaluation: %v", err)
	}
	egc, _ := SplitByName("egc")
	ept, err := egc.Select(readTestdata(t, "egc2013-rounds1-3.csv"))
	if err != nil || ept.Cut != len(ept.Games) {
		t.Errorf("EGC rounds 1-3 are all training: cut %d of %d, %v", ept.Cut, len(ept.Games), err)
	}
	apt, err := aga.Select(readTestdata(t, "aga-700.csv"))
	if err != nil || apt.Cut != len(apt.Games) {
		t.Errorf("AGA tourn0.. are all training: cut %d of %d, %v", apt.Cut, len(apt.Games), err)
	}
}

func TestMedianFirstRank(t *testing.T) {
	g := func(b, w int32, rb, rw Rank) Game { return Game{Black: b, White: w, BlackRank: rb, WhiteRank: rw} }
	d1, d3, k5, none := Rank{2100, true}, Rank{2300, true}, Rank{1600, true}, Rank{}
	tests := []struct {
		name  string
		games []Game
		want  float64
	}{
		{"first rank only", []Game{g(0, 1, d1, d3), g(0, 2, d3, k5)}, 2100},
		{"unknown first rank skipped", []Game{g(0, 1, none, d3), g(0, 2, k5, d1)}, (2300 + 2100) / 2.0},
		{"none known", []Game{g(0, 1, none, none)}, 2100},
	}
	for _, tt := range tests {
		if got := MedianFirstRank(tt.games, 3); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestEvaluate(t *testing.T) {
	gs := readTestdata(t, "kgs-split.csv")
	kgs, _ := SplitByName("kgs")
	pt, err := kgs.Select(gs)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(pt, len(gs.Players), ByGame, Models(), 12)
	if err != nil {
		t.Fatal(err)
	}
	// ours twice (defaults, then tuned), every baseline once
	if rep.Train != 1500 || rep.Eval != 300 || len(rep.Results) != len(Models())+1 || rep.Results[0].Tuned || !rep.Results[1].Tuned {
		t.Fatalf("report %d/%d, %d results", rep.Train, rep.Eval, len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.Train.N != 1500 || r.Eval.N != 300 || len(r.Losses) != 300 || len(r.Pred) != 1800 {
			t.Errorf("%s: %+v %+v", r.Model, r.Train, r.Eval)
		}
		var sum float64
		for _, l := range r.Losses {
			sum += l
		}
		if !near(sum/300, r.Eval.LogLoss, 1e-12) {
			t.Errorf("%s: losses average %v, log-loss %v", r.Model, sum/300, r.Eval.LogLoss)
		}
	}
	if _, err := Evaluate(Part{Games: pt.Games, Cut: 0}, len(gs.Players), ByGame, Models(), 1); err == nil {
		t.Error("no training part accepted")
	}
}
