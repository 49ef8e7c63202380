package audit

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRobust(t *testing.T) {
	for _, tt := range []struct {
		xs             []float64
		median, spread float64
	}{
		{nil, 0, 0},
		{[]float64{5}, 5, 0},
		{[]float64{1, 2, 3, 4, 100}, 3, 1.4826},
		{[]float64{2, 2, 2, 2}, 2, 0},
		{[]float64{1, 3}, 2, 1.4826},
	} {
		m, s := robust(tt.xs)
		if math.Abs(m-tt.median) > 1e-9 || math.Abs(s-tt.spread) > 1e-9 {
			t.Errorf("robust(%v) = %v, %v; want %v, %v", tt.xs, m, s, tt.median, tt.spread)
		}
	}
}

func TestMarkOf(t *testing.T) {
	rel := Threshold{Relative: true, Amber: 1.6, Red: 2.2, RedZ: 3.5, MinCount: 10}
	abs := Threshold{Amber: 4, Red: 10}
	low := Threshold{Lower: true, Amber: 1}
	for _, tt := range []struct {
		name string
		t    Threshold
		in   Indicator
		want Mark
	}{
		{"relative at the median", rel, Indicator{Value: 10, Count: 50, Median: 10, Spread: 2}, Green},
		{"relative 1.7×", rel, Indicator{Value: 17, Count: 50, Median: 10, Spread: 2}, Amber},
		{"relative 3×", rel, Indicator{Value: 30, Count: 50, Median: 10, Spread: 2}, Red},
		{"relative 3× but a wide spread", rel, Indicator{Value: 30, Count: 50, Median: 10, Spread: 8}, Amber},
		{"relative 3× of a tiny agency", rel, Indicator{Value: 30, Count: 3, Median: 10, Spread: 2}, Green},
		{"relative, zero spread", rel, Indicator{Value: 30, Count: 50, Median: 10}, Red},
		{"relative below the median", rel, Indicator{Value: 1, Count: 50, Median: 10, Spread: 2}, Green},
		{"absolute below amber", abs, Indicator{Value: 3, Count: 3}, Green},
		{"absolute amber", abs, Indicator{Value: 4, Count: 4}, Amber},
		{"absolute red", abs, Indicator{Value: 12, Count: 12}, Red},
		{"lower, none", low, Indicator{Value: 0}, Amber},
		{"lower, some", low, Indicator{Value: 3, Count: 3}, Green},
		{"floor", Threshold{Relative: true, Amber: 2, Red: 3, Floor: 0.05}, Indicator{Value: 0.04, Count: 9, Median: 0.001}, Green},
		{"min base", Threshold{Amber: 0.08, Red: 0.2, MinBase: 20}, Indicator{Value: 0.5, Count: 5, Base: 10}, Green},
		{"min base met", Threshold{Amber: 0.08, Red: 0.2, MinBase: 20}, Indicator{Value: 0.4, Count: 12, Base: 30}, Red},
	} {
		if got := markOf(tt.t, tt.in); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestIssuingRateThresholdsUnderNaturalVariation draws, for ten seeds, 34
// agencies of very different sizes whose dan certificates per player vary
// naturally (a ±25 % agency effect and Poisson counts), one of them issuing
// at 3× the rate: the default threshold marks that one red and at most one
// other red over the ten seeds.
func TestIssuingRateThresholdsUnderNaturalVariation(t *testing.T) {
	var def Definition
	for _, d := range Definitions() {
		if d.Key == KeyDanIssuedPerPlayer {
			def = d
		}
	}
	falseReds := 0
	for seed := range uint64(10) {
		r := rand.New(rand.NewPCG(seed, 13))
		values := make([]float64, 34)
		ins := make([]Indicator, 34)
		for i := range 34 {
			players := int64(1000 + r.IntN(30000))
			rate := 0.012 * (0.75 + 0.5*r.Float64())
			if i == 7 {
				rate = 0.012 * 3
			}
			n := poisson(r, rate*float64(players))
			m := &measure{count: n, base: players}
			ins[i] = Indicator{Count: n, Base: players, Value: value(def, m)}
			values[i] = ins[i].Value
		}
		median, spread := robust(values)
		for i, in := range ins {
			in.Median, in.Spread = median, spread
			mark := markOf(def.Threshold, in)
			switch {
			case i == 7 && mark != Red:
				t.Errorf("seed %d: the 3× issuer is %s (value %.2f, median %.2f, spread %.2f)", seed, mark, in.Value, median, spread)
			case i != 7 && mark == Red:
				falseReds++
			}
		}
	}
	if falseReds > 1 {
		t.Errorf("%d normal agencies red over ten seeds", falseReds)
	}
}

// poisson draws a Poisson count (normal approximation above 50).
func poisson(r *rand.Rand, mean float64) int64 {
	if mean > 50 {
		return int64(math.Max(0, math.Round(mean+math.Sqrt(mean)*r.NormFloat64())))
	}
	l, k, p := math.Exp(-mean), int64(0), 1.0
	for {
		p *= r.Float64()
		if p <= l {
			return k
		}
		k++
	}
}
