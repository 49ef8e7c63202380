package ratings

import "math"

// Param is one tunable parameter; every one is positive and is searched
// on a log scale.
type Param struct {
	Name     string
	Init     float64
	Min, Max float64
}

// Model is a rating system with its tunable parameters.
type Model struct {
	Name   string
	Params []Param
	New    func(x []float64, players int, unknown float64) System
}

// Models are the project's system first, then the baselines.
func Models() []Model {
	d, e, g, w := DefaultBayes(), DefaultElo(), DefaultGlicko2(), DefaultWHR()
	return []Model{
		{Name: "bayes", Params: []Param{
			{"sd0", d.SD0, 20, 1000}, {"drift", d.Drift, 0.01, 200}, {"play", d.Play, 0.01, 200}, {"rank_sd", d.RankSD, 5, 5000},
			{"width", d.Width, 20, 5000}, {"span", d.Span, 1200, 1e6}, {"learn", d.Learn, 0.01, 10}, {"kyu", d.Kyu, 0.25, 8},
		}, New: func(x []float64, players int, unknown float64) System {
			return NewBayes(players, unknown, BayesFrom(x))
		}},
		{Name: "rankonly", New: func(_ []float64, players int, unknown float64) System { return NewRankOnly(players, unknown) }},
		{Name: "gor2021", New: func(_ []float64, players int, unknown float64) System { return NewGoR(players, unknown) }},
		{Name: "elo", Params: []Param{{"k", e.K, 0.5, 500}, {"scale", e.Scale, 20, 5000}},
			New: func(x []float64, players int, unknown float64) System {
				return NewElo(players, unknown, EloParams{K: x[0], Scale: x[1]})
			}},
		{Name: "glicko2", Params: []Param{
			{"tau", g.Tau, 0.01, 3}, {"rd0", g.RD0, 10, 2000}, {"vol0", g.Vol0, 0.0001, 2}, {"scale", g.Scale, 10, 2000},
		}, New: func(x []float64, players int, unknown float64) System {
			return NewGlicko2(players, unknown, Glicko2Params{Tau: x[0], RD0: x[1], Vol0: x[2], Scale: x[3]})
		}},
		{Name: "whr", Params: []Param{{"width", w.Width, 10, 5000}, {"drift", w.Drift, 0.01, 200}, {"sd0", w.SD0, 5, 2000}},
			New: func(x []float64, players int, unknown float64) System {
				return NewWHR(players, unknown, WHRParams{Width: x[0], Drift: x[1], SD0: x[2]})
			}},
	}
}

// Tune minimises the training log-loss of m plus a pull toward its
// defaults: a log-normal prior on each parameter, centred on its default
// with sd tunePriorSD in log units (a factor e), counted as one game's worth
// per parameter per n training games, so that it binds on a few hundred
// games and fades on many (a MAP estimate). Our defaults are calibrated on
// every shared split; tuned without the pull on EGC 2013's 1 284 training
// games the search turned the grades' learned weight off (learn 0.5 to
// 0.01: an online learner costs while it warms up on the training games and
// pays after them), fitting rounds 1–5 better and 6–10 no better.
//
// The search is by coordinates on a log scale: each parameter is
// multiplied or divided by a factor while that helps; sweeps repeat until
// one changes nothing, then the factor shrinks (2, 1.41, 1.19, 1.09). At
// most budget replays. Derivative-free because a replay is not smooth in
// its parameters (floors, caps), and few parameters make it cheap enough.
func Tune(m Model, train []Game, players int, unknown float64, batch Batch, budget int) []float64 {
	return tune(m, train, players, unknown, batch, budget, tunePriorSD)
}

// tune is Tune with the prior's sd; +Inf: no pull.
func tune(m Model, train []Game, players int, unknown float64, batch Batch, budget int, priorSD float64) []float64 {
	x := make([]float64, len(m.Params))
	for i, p := range m.Params {
		x[i] = p.Init
	}
	if len(x) == 0 || budget <= 0 {
		return x
	}
	loss := func(x []float64) float64 {
		p := Replay(train, m.New(x, players, unknown), batch)
		var s float64
		for i := range p {
			s += LogLoss(p[i], train[i].Score())
		}
		return s/float64(len(p)) + tunePull(m, x, priorSD)/float64(len(p))
	}
	best := loss(x)
	evals := 1
	for _, f := range []float64{2, math.Sqrt2, math.Pow(2, 0.25), math.Pow(2, 0.125)} {
		for improved := true; improved && evals < budget; {
			improved = false
			for i, p := range m.Params {
				for _, dir := range []float64{f, 1 / f} {
					for evals < budget {
						y := append([]float64(nil), x...)
						y[i] = min(max(x[i]*dir, p.Min), p.Max)
						if y[i] == x[i] {
							break
						}
						l := loss(y)
						evals++
						if !(l < best-1e-7) {
							break
						}
						x, best, improved = y, l, true
					}
				}
			}
		}
	}
	return x
}

// tunePriorSD is the prior sd of a tuned parameter around its default, in
// log units.
const tunePriorSD = 1.0

// tunePull is the negative log prior of x (constant dropped): the sum over
// the parameters of ln(x/default)^2 / (2 sd^2).
func tunePull(m Model, x []float64, sd float64) float64 {
	var s float64
	for i, p := range m.Params {
		d := math.Log(x[i] / p.Init)
		s += d * d / (2 * sd * sd)
	}
	return s
}

// BayesVector is p in the order of bayes' Model's Params.
func BayesVector(p BayesParams) []float64 {
	return []float64{p.SD0, p.Drift, p.Play, p.RankSD, p.Width, p.Span, p.Learn, p.Kyu}
}

// BayesFrom reads bayes' parameters in the order of its Model's Params.
func BayesFrom(x []float64) BayesParams {
	return BayesParams{SD0: x[0], Drift: x[1], Play: x[2], RankSD: x[3], Width: x[4], Span: x[5], Learn: x[6], Kyu: x[7]}
}
