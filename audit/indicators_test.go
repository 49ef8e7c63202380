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
	pooled := Threshold{Relative: true, Pooled: true, Amber: 2, Red: 3, RedZ: 4, MinCount: 5}
	standalone := pooled
	standalone.AbsAmber, standalone.AbsRed, standalone.AbsAmberCount, standalone.AbsRedCount = 0.25, 0.5, 10, 20
	for _, tt := range []struct {
		name string
		t    Threshold
		in   Indicator
		rate float64
		want Mark
	}{
		{"relative at the median", rel, Indicator{Value: 10, Count: 50, Median: 10, Spread: 2}, 0, Green},
		{"relative 1.7×", rel, Indicator{Value: 17, Count: 50, Median: 10, Spread: 2}, 0, Amber},
		{"relative 3×", rel, Indicator{Value: 30, Count: 50, Median: 10, Spread: 2}, 0, Red},
		{"relative 3× but a wide spread", rel, Indicator{Value: 30, Count: 50, Median: 10, Spread: 8}, 0, Amber},
		{"relative 3× of a tiny agency", rel, Indicator{Value: 30, Count: 3, Median: 10, Spread: 2}, 0, Green},
		{"relative, zero spread", rel, Indicator{Value: 30, Count: 50, Median: 10}, 0, Red},
		{"relative below the median", rel, Indicator{Value: 1, Count: 50, Median: 10, Spread: 2}, 0, Green},
		{"absolute below amber", abs, Indicator{Value: 3, Count: 3}, 0, Green},
		{"absolute amber", abs, Indicator{Value: 4, Count: 4}, 0, Amber},
		{"absolute red", abs, Indicator{Value: 12, Count: 12}, 0, Red},
		{"lower, none", low, Indicator{Value: 0}, 0, Amber},
		{"lower, some", low, Indicator{Value: 3, Count: 3}, 0, Green},
		{"floor", Threshold{Relative: true, Amber: 2, Red: 3, Floor: 0.05}, Indicator{Value: 0.04, Count: 9, Median: 0.001}, 0, Green},
		{"min base", Threshold{Amber: 0.08, Red: 0.2, MinBase: 20}, Indicator{Value: 0.5, Count: 5, Base: 10}, 0, Green},
		{"min base met", Threshold{Amber: 0.08, Red: 0.2, MinBase: 20}, Indicator{Value: 0.4, Count: 12, Base: 30}, 0, Red},
		// pooled: 2 % nationally; a share tests its count against the expected one
		{"pooled at the rate", pooled, Indicator{Value: 0.02, Count: 20, Base: 1000}, 0.02, Green},
		{"pooled 3× with a big base", pooled, Indicator{Value: 0.06, Count: 60, Base: 1000}, 0.02, Red},
		{"pooled 3× of a tiny agency", pooled, Indicator{Value: 0.06, Count: 3, Base: 50}, 0.02, Green},
		{"pooled 1.5× of a large agency", pooled, Indicator{Value: 0.03, Count: 300, Base: 10000}, 0.02, Green},
		{"pooled, rare event, a cluster", pooled, Indicator{Value: 0.01, Count: 10, Base: 1000}, 0.001, Red},
		{"pooled, rare event, one", pooled, Indicator{Value: 0.001, Count: 1, Base: 1000}, 0.0005, Green},
		// the standalone test: no other agency shows the pattern (rate 0)
		{"pooled, unique and large", standalone, Indicator{Value: 0.6, Count: 30, Base: 50}, 0, Red},
		{"pooled, unique and middling", standalone, Indicator{Value: 0.3, Count: 12, Base: 40}, 0, Amber},
		{"pooled, unique but small", standalone, Indicator{Value: 0.6, Count: 6, Base: 10}, 0, Green},
		{"pooled, unique, many but a small share", standalone, Indicator{Value: 0.1, Count: 30, Base: 300}, 0, Green},
		{"pooled without a standalone test, unique", pooled, Indicator{Value: 0.6, Count: 30, Base: 50}, 0, Green},
		{"median, a wide spread hides it, standalone red", Threshold{Relative: true, Amber: 1.6, Red: 2.2, RedZ: 3.5, AbsRed: 400, AbsRedCount: 50},
			Indicator{Value: 500, Count: 100, Median: 100, Spread: 200}, 0, Red},
		{"a count on its own", Threshold{Relative: true, Pooled: true, Amber: 2, Red: 3, RedZ: 4, MinCount: 5, AbsAmberCount: 3, AbsRedCount: 8},
			Indicator{Value: 0.01, Count: 9, Base: 900}, 0.01, Red},
	} {
		if got := markOf(tt.t, tt.in, tt.rate); got != tt.want {
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
			mark := markOf(def.Threshold, in, 0)
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

// TestPooledSharesUnderNaturalVariation draws, for each share judged
// against the pooled national rate and for ten seeds, 34 agencies with 100
// to 3 000 dan certificates whose share varies naturally (±30 % agency
// effect, Poisson counts) around rates from rare (0.3 %) to common (20 %),
// one agency at one more than the red multiple (4× for a red at 3×): it
// goes red whenever its expected count is at least 10, and the others go red
// at most once over all draws.
func TestPooledSharesUnderNaturalVariation(t *testing.T) {
	for _, def := range Definitions() {
		if !def.Threshold.Pooled || def.Threshold.Model {
			continue // a model's indicator is judged against its model (TestResultsAgainstRatings)
		}
		planted := def.Threshold.Red + 1
		for _, base := range []float64{0.003, 0.03, 0.2} {
			if planted*base > 0.9 {
				continue
			}
			falseReds := 0
			for seed := range uint64(10) {
				r := rand.New(rand.NewPCG(seed, 29))
				ins := make([]Indicator, 34)
				var count, total int64
				for i := range ins {
					n := int64(100 + r.IntN(2900))
					rate := base * (0.7 + 0.6*r.Float64())
					if i == 7 {
						n, rate = 1500, planted*base
					}
					k := poisson(r, rate*float64(n))
					ins[i] = Indicator{Count: k, Base: n, Value: float64(k) / float64(n)}
					count, total = count+k, total+n
				}
				for i, in := range ins {
					mark := markOf(def.Threshold, in, othersRate(count, total, in))
					switch {
					case i == 7 && mark != Red && base*1500 >= 10 && in.Value >= def.Threshold.Floor:
						t.Errorf("%s at %.1f %%, seed %d: the planted agency is %s (%d of %d)", def.Key, 100*base, seed, mark, in.Count, in.Base)
					case i != 7 && mark == Red:
						falseReds++
					}
				}
			}
			if falseReds > 1 {
				t.Errorf("%s at %.1f %%: %d normal agencies red over ten seeds", def.Key, 100*base, falseReds)
			}
		}
	}
}
