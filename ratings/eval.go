package ratings

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Metrics are the protocol's scores of a set of predictions.
type Metrics struct {
	N        int
	LogLoss  float64 // natural log, p clipped to [1e-6, 1-1e-6]
	Brier    float64
	Accuracy float64 // a prediction of exactly 0.5 counts half
	Slope    float64 // logistic regression of the outcome on logit p: 1 = calibrated, < 1 over-confident
}

// LogLoss is one game's log-loss for P(black wins) p and black's score y.
func LogLoss(p, y float64) float64 {
	p = min(max(p, 1e-6), 1-1e-6)
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// Score scores predictions p of games.
func Score(p []float64, games []Game) Metrics {
	m := Metrics{N: len(p)}
	if len(p) == 0 {
		return Metrics{LogLoss: math.NaN(), Brier: math.NaN(), Accuracy: math.NaN(), Slope: math.NaN()}
	}
	y := make([]float64, len(p))
	for i := range p {
		y[i] = games[i].Score()
		m.LogLoss += LogLoss(p[i], y[i])
		m.Brier += (p[i] - y[i]) * (p[i] - y[i])
		switch {
		case p[i] == 0.5 || y[i] == 0.5:
			m.Accuracy += 0.5
		case (p[i] > 0.5) == (y[i] == 1):
			m.Accuracy++
		}
	}
	n := float64(len(p))
	m.LogLoss, m.Brier, m.Accuracy = m.LogLoss/n, m.Brier/n, m.Accuracy/n
	m.Slope = CalibrationSlope(p, y)
	return m
}

// CalibrationSlope fits y ~ sigmoid(a + b logit p) by maximum likelihood
// (Newton's method with step halving) and returns b; NaN when it is not
// identified (constant p).
func CalibrationSlope(p, y []float64) float64 {
	x := make([]float64, len(p))
	for i := range p {
		q := min(max(p[i], 1e-6), 1-1e-6)
		x[i] = math.Log(q / (1 - q))
	}
	nll := func(a, b float64) float64 {
		var s float64
		for i := range x {
			z := a + b*x[i]
			// -log sigmoid(z) = log(1 + e^-z), computed stably
			s += y[i]*softplus(-z) + (1-y[i])*softplus(z)
		}
		return s
	}
	a, b := 0.0, 1.0
	cur := nll(a, b)
	for it := 0; it < 100; it++ {
		var g0, g1, h00, h01, h11 float64
		for i := range x {
			mu := 1 / (1 + math.Exp(-(a + b*x[i])))
			w := mu * (1 - mu)
			g0 += y[i] - mu
			g1 += (y[i] - mu) * x[i]
			h00 += w
			h01 += w * x[i]
			h11 += w * x[i] * x[i]
		}
		det := h00*h11 - h01*h01
		if !(det > 1e-12*h00*h11) {
			return math.NaN()
		}
		da := (h11*g0 - h01*g1) / det
		db := (h00*g1 - h01*g0) / det
		step := 1.0
		for ; step > 1e-6; step /= 2 {
			if n := nll(a+step*da, b+step*db); n <= cur {
				a, b, cur = a+step*da, b+step*db, n
				break
			}
		}
		if step <= 1e-6 || math.Abs(step*da)+math.Abs(step*db) < 1e-9 {
			break
		}
	}
	return b
}

func softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	return math.Log1p(math.Exp(z))
}

// Interval is a mean and its bootstrap 95 % interval.
type Interval struct{ Mean, Lo, Hi float64 }

// PairedBootstrap is the mean of a[i] - b[i] and its percentile 95 %
// interval over n resamples of the games, from a fixed seed so that a
// report can be reproduced.
func PairedBootstrap(a, b []float64, n int, seed uint64) Interval {
	d := make([]float64, len(a))
	var sum float64
	for i := range a {
		d[i] = a[i] - b[i]
		sum += d[i]
	}
	if len(d) == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN()}
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	means := make([]float64, n)
	for k := range means {
		var s float64
		for range d {
			s += d[rng.IntN(len(d))]
		}
		means[k] = s / float64(len(d))
	}
	slices.Sort(means)
	return Interval{Mean: sum / float64(len(d)), Lo: means[int(0.025*float64(n))], Hi: means[min(int(0.975*float64(n)), n-1)]}
}

// Split is one evaluation split of the protocol: the games of one
// population, whose evaluation part is a suffix of them in file order.
type Split struct {
	Name string
	In   func(*Game) bool // the population
	Eval func(*Game) bool // true from the first evaluation game on
}

func dayOf(date string) int32 {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		panic(err) // only called with constants
	}
	return int32(t.Unix() / 86400)
}

// Splits are the protocol's evaluation splits.
func Splits() []Split {
	kgs, tygem := dayOf("2015-08-07"), dayOf("2016-08-05")
	return []Split{
		{"kgs", func(g *Game) bool { return g.Event == "kgs" }, func(g *Game) bool { return g.Day >= kgs }},
		{"aga", func(g *Game) bool { return strings.HasPrefix(g.Event, "tourn") }, func(g *Game) bool {
			n, err := strconv.Atoi(strings.TrimPrefix(g.Event, "tourn"))
			return err == nil && n >= 106
		}},
		{"egc", func(g *Game) bool { return g.Event == "EGC2013main" }, func(g *Game) bool {
			r, err := strconv.Atoi(g.Round)
			return err == nil && r >= 6
		}},
		{"tygem", func(g *Game) bool { return g.Event == "tygem" }, func(g *Game) bool { return g.Day >= tygem }},
	}
}

// SplitByName finds one of Splits.
func SplitByName(name string) (Split, error) {
	var names []string
	for _, s := range Splits() {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Split{}, fmt.Errorf("split %q: want one of %s", name, strings.Join(names, ", "))
}

// Part is the population of a split in a games file: its rows (0-based
// data rows of the file), their games, and where evaluation starts.
type Part struct {
	Rows  []int
	Games []Game
	Cut   int // Games[:Cut] train, Games[Cut:] evaluation
}

// Select takes split's games from gs. It fails if the population is empty
// or the evaluation games are not a suffix of it.
func (sp Split) Select(gs *Games) (Part, error) {
	pt := Part{Cut: -1}
	for i := range gs.Games {
		g := &gs.Games[i]
		if !sp.In(g) {
			continue
		}
		ev := sp.Eval(g)
		switch {
		case ev && pt.Cut < 0:
			pt.Cut = len(pt.Games)
		case !ev && pt.Cut >= 0:
			return Part{}, fmt.Errorf("split %s: row %d is a training game after the first evaluation game", sp.Name, i)
		}
		pt.Rows = append(pt.Rows, i)
		pt.Games = append(pt.Games, *g)
	}
	if len(pt.Games) == 0 {
		return Part{}, fmt.Errorf("split %s: no games of its population in the file", sp.Name)
	}
	if pt.Cut < 0 {
		pt.Cut = len(pt.Games)
	}
	return pt, nil
}

// MedianFirstRank is the median GoR of the rank each player declared in
// his first game in games (players whose first rank is unknown left out), the protocol's rating for a newcomer of unknown rank
// (2100 if no rank is known).
func MedianFirstRank(games []Game, players int) float64 {
	seen := make([]bool, players)
	var first []float64
	for i := range games {
		g := &games[i]
		for _, pr := range [2]struct {
			p int32
			r Rank
		}{{g.Black, g.BlackRank}, {g.White, g.WhiteRank}} {
			if !seen[pr.p] {
				seen[pr.p] = true
				if pr.r.Known {
					first = append(first, pr.r.GoR)
				}
			}
		}
	}
	if len(first) == 0 {
		return 2100
	}
	slices.Sort(first)
	n := len(first)
	if n%2 == 1 {
		return first[n/2]
	}
	return (first[n/2-1] + first[n/2]) / 2
}

// Result is one system's scores on one split.
type Result struct {
	Model  string
	Tuned  bool // false: the model's defaults, no tuning
	Params []float64
	Train  Metrics
	Eval   Metrics
	Pred   []float64 // whole population, file order
	Losses []float64 // per evaluation game
}

// Report is every system on one split, tuned on its training part.
type Report struct {
	Split   string
	Batch   Batch
	Unknown float64
	Train   int
	Eval    int
	Results []Result
}

// Evaluate tunes each model on the training part of pt, replays the whole
// population with the tuned parameters and scores both parts. The first
// model (ours) is scored with its defaults too, first: what a registry
// that has not tuned gets.
func Evaluate(pt Part, players int, batch Batch, models []Model, budget int) (*Report, error) {
	if pt.Cut == 0 {
		return nil, errors.New("evaluate: no training games before the split")
	}
	train := pt.Games[:pt.Cut]
	unknown := MedianFirstRank(train, players)
	rep := &Report{Batch: batch, Unknown: unknown, Train: pt.Cut, Eval: len(pt.Games) - pt.Cut}
	for i, m := range models {
		x := Tune(m, train, players, unknown, batch, budget)
		if i == 0 && len(m.Params) > 0 {
			rep.Results = append(rep.Results, score(pt, m, Defaults(m), players, unknown, batch, false))
		}
		rep.Results = append(rep.Results, score(pt, m, x, players, unknown, batch, len(m.Params) > 0))
	}
	return rep, nil
}

// Defaults are a model's untuned parameters.
func Defaults(m Model) []float64 {
	x := make([]float64, len(m.Params))
	for i, p := range m.Params {
		x[i] = p.Init
	}
	return x
}

func score(pt Part, m Model, x []float64, players int, unknown float64, batch Batch, tuned bool) Result {
	train := pt.Games[:pt.Cut]
	p := Replay(pt.Games, m.New(x, players, unknown), batch)
	res := Result{Model: m.Name, Tuned: tuned, Params: x, Pred: p,
		Train: Score(p[:pt.Cut], train), Eval: Score(p[pt.Cut:], pt.Games[pt.Cut:])}
	for i := pt.Cut; i < len(p); i++ {
		res.Losses = append(res.Losses, LogLoss(p[i], pt.Games[i].Score()))
	}
	return res
}

// CutAtDay is where the evaluation part of games starts: the first game on
// or after day (len(games) if none). Games must be in time order.
func CutAtDay(games []Game, day int32) int {
	for i := range games {
		if games[i].Day >= day {
			return i
		}
	}
	return len(games)
}

// CutAtFraction is where the last fraction frac of games starts, moved
// back to the start of its round with ByRound, so that no game of the
// evaluation part shares a batch with a training game.
func CutAtFraction(games []Game, frac float64, batch Batch) int {
	cut := min(max(int(float64(len(games))*(1-frac)+0.5), 0), len(games))
	if batch == ByRound {
		for cut > 0 && cut < len(games) && sameRound(&games[cut-1], &games[cut]) {
			cut--
		}
	}
	return cut
}

// Tuning is the result of tuning ours on the earlier games of a history
// and scoring it on the later ones: the tuned parameters, and the
// evaluation part's metrics with the defaults, the tuned parameters and the
// rank-only baseline (no evaluation part: zero N and NaN figures).
type Tuning struct {
	Params                   []float64
	Train, EvalGames         int
	Default, Tuned, RankOnly Metrics
}

// TuneHistory tunes m on games[:cut] (never on a game it then predicts) and
// scores games[cut:] replayed after the whole history.
func TuneHistory(m Model, games []Game, cut, players int, batch Batch, budget int) (Tuning, error) {
	if cut <= 0 {
		return Tuning{}, errors.New("tune: no games before the evaluation part")
	}
	pt := Part{Games: games, Cut: cut}
	unknown := MedianFirstRank(games[:cut], players)
	x := Tune(m, games[:cut], players, unknown, batch, budget)
	t := Tuning{Params: x, Train: cut, EvalGames: len(games) - cut}
	t.Default = score(pt, m, Defaults(m), players, unknown, batch, false).Eval
	t.Tuned = score(pt, m, x, players, unknown, batch, true).Eval
	ro := Model{Name: "rankonly", New: func(_ []float64, players int, unknown float64) System { return NewRankOnly(players, unknown) }}
	t.RankOnly = score(pt, ro, nil, players, unknown, batch, false).Eval
	return t, nil
}
