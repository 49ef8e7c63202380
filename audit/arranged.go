package audit

import (
	"fmt"
	"math"
	"slices"

	"github.com/dankyu/dankyu/registry"
)

// Results arranged among a closed group are judged against what the
// players' strengths predict. The strengths are estimated from the year's
// own games (as of the snapshot's position, so the indicator is
// reproducible, which the ratings book's recomputed ratings are not): a
// logistic model, P(a beats b) = 1 / (1 + e^(−k(sa − sb))), each player's
// strength starting from the rank entered for him in his events (his best
// known rank otherwise) and moved by his games against opponents he met
// in one event only. The games between players who met in two events or
// more are the ones judged, and are left out of the estimate (a group
// cannot vouch for itself). For each player with such games in two events
// or more, the number of them he won is compared with its distribution
// under the model, the uncertainty of the strengths included: a result
// that the model gives a probability of at most ArrangedAlpha, either way
// (far more one-sided, or far more even, than the strengths say), marks
// the player. The agency's count is compared with the count the model
// expects, and stands on its own once large.
const (
	ratingSlope   = 0.8   // k: the log-odds per grade of difference
	priorSD       = 1.0   // how far a player's strength may lie from his entered rank, in grades
	unknownSD     = 5.0   // … when no rank is known
	unknownRank   = -10.0 // the strength assumed without any rank (10 kyu)
	ArrangedAlpha = 0.002 // the probability under the model from which a player's results are marked
	arrangedMin   = 2     // games against repeated opponents, at least
)

// rankScale puts a rank on a scale of grades (1 kyu 0, 1 dan 1).
func rankScale(r registry.Rank) float64 {
	if r < 0 {
		return float64(r) + 1
	}
	return float64(r)
}

// hermite are the nodes and weights of a five-point Gauss–Hermite rule for
// the standard normal distribution.
var hermite = [5][2]float64{{-2.856970, 0.011257}, {-1.355626, 0.222076}, {0, 0.533333}, {1.355626, 0.222076}, {2.856970, 0.011257}}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// arranged measures results_against_ratings over the rated games: the
// played, decisive games between two registered players of the events
// ending in the period (pair rows, judged set where the pair met in two
// events or more).
func (f *facts) arranged(games []pairRow) {
	idx := map[int64]int32{}
	var ids []int64
	at := func(id int64) int32 {
		i, ok := idx[id]
		if !ok {
			i = int32(len(ids))
			idx[id] = i
			ids = append(ids, id)
		}
		return i
	}
	// each game's two players by index, looked up once: the Newton steps
	// below read them eight times a game (the map lookups were 40% of it)
	pairs := make([][2]int32, len(games))
	for k, g := range games {
		pairs[k] = [2]int32{at(g.key[g.side]), at(g.key[1-g.side])} // the winner first
	}
	idx = nil // read no more: the map goes before the steps' slices come
	n := len(ids)
	// the prior: the mean of the ranks entered for the player
	mu, sd := make([]float64, n), make([]float64, n)
	cnt := make([]float64, n)
	for k, g := range games {
		for _, x := range [2]struct {
			i int32
			r registry.Rank
		}{{pairs[k][0], g.ranks[g.side].rank()}, {pairs[k][1], g.ranks[1-g.side].rank()}} {
			if x.r != registry.NoRank {
				i := x.i
				mu[i] += rankScale(x.r)
				cnt[i]++
			}
		}
	}
	for i, id := range ids {
		switch {
		case cnt[i] > 0:
			mu[i], sd[i] = mu[i]/cnt[i], priorSD
		default:
			mu[i], sd[i] = unknownRank, unknownSD
			if ps := f.player(id); ps != nil {
				if r := ps.bestBefore(f.period.End); r != registry.NoRank {
					mu[i], sd[i] = rankScale(r), priorSD
				}
			}
		}
	}
	// the judged games of each player
	type judgedGame struct {
		opp   int32
		won   bool
		event int64
	}
	per := make([][]judgedGame, n)
	for k, g := range games {
		if !g.judged {
			continue
		}
		a, b := pairs[k][0], pairs[k][1]
		per[a] = append(per[a], judgedGame{b, true, g.event})
		per[b] = append(per[b], judgedGame{a, false, g.event})
	}
	// the games not judged, by their players' indices, in place of the
	// pairs: the games themselves (the caller's pair rows, 34 MB at
	// national scale) are not needed past here
	steps := pairs[:0]
	for k, g := range games {
		if !g.judged {
			steps = append(steps, pairs[k])
		}
	}
	games = nil
	// the estimate: a few Newton steps of the posterior mode, from the
	// games not judged
	s := slices.Clone(mu)
	grad, hess := make([]float64, n), make([]float64, n)
	for range 8 {
		for i := range n {
			grad[i] = -(s[i] - mu[i]) / (sd[i] * sd[i])
			hess[i] = 1 / (sd[i] * sd[i])
		}
		for _, st := range steps {
			a, b := st[0], st[1]
			p := logistic(ratingSlope * (s[a] - s[b]))
			w := ratingSlope * ratingSlope * p * (1 - p)
			grad[a] += ratingSlope * (1 - p)
			grad[b] -= ratingSlope * (1 - p)
			hess[a] += w
			hess[b] += w
		}
		for i := range n {
			s[i] += grad[i] / hess[i]
		}
	}
	variance := make([]float64, n)
	for i := range n {
		variance[i] = 1 / hess[i] // of the last step: near enough the mode's
	}
	var ps []float64
	for i := range n {
		gs := per[i]
		if len(gs) < arrangedMin {
			continue
		}
		slices.SortFunc(gs, func(x, y judgedGame) int { return int(x.event - y.event) })
		if gs[0].event == gs[len(gs)-1].event {
			continue
		}
		// the organiser of most of these games (the later event's on a tie)
		byOrg := map[string]int{}
		org, most := "", 0
		won := 0
		opps := map[int32]bool{}
		for _, g := range gs {
			o := f.events[g.event].facts.Organiser
			byOrg[o]++
			if byOrg[o] >= most {
				org, most = o, byOrg[o]
			}
			if g.won {
				won++
			}
			opps[g.opp] = true
		}
		// the distribution of wins: the player's own strength integrated
		// over its uncertainty, each opponent's folded into the game's
		// probability
		dist := make([]float64, len(gs)+1)
		ps = ps[:0]
		for _, node := range hermite {
			own := s[i] + node[0]*math.Sqrt(variance[i])
			ps = ps[:0]
			for _, g := range gs {
				shrink := 1 / math.Sqrt(1+math.Pi/8*ratingSlope*ratingSlope*variance[g.opp])
				ps = append(ps, logistic(ratingSlope*(own-s[g.opp])*shrink))
			}
			for w, q := range poissonBinomial(ps) {
				dist[w] += node[1] * q
			}
		}
		mean := 0.0
		for w, q := range dist {
			mean += float64(w) * q
		}
		tail := func(w int) float64 { // P(a result at least as far from the mean as w)
			d := math.Abs(float64(w)-mean) - 1e-9
			t := 0.0
			for v, q := range dist {
				if math.Abs(float64(v)-mean) >= d {
					t += q
				}
			}
			return t
		}
		m := f.m(org, KeyResultsAgainstRatings)
		m.base++
		for w, q := range dist {
			if tail(w) <= ArrangedAlpha {
				m.expected += q
			}
		}
		p := tail(won)
		if p > ArrangedAlpha {
			continue
		}
		how := "more even"
		if math.Abs(float64(won)-float64(len(gs))/2) > math.Abs(mean-float64(len(gs))/2) {
			how = "more one-sided"
		}
		it := playerRef(ids[i])
		it.Note = fmt.Sprintf("won %d of %d games against %d opponents met in two events or more; the ratings expect %.1f (%s, p = %.2g)",
			won, len(gs), len(opps), mean, how, p)
		f.count(org, KeyResultsAgainstRatings, it)
	}
}

// poissonBinomial is the distribution of the number of successes of
// independent trials with the probabilities ps.
func poissonBinomial(ps []float64) []float64 {
	d := make([]float64, len(ps)+1)
	d[0] = 1
	for k, p := range ps {
		for w := k + 1; w >= 1; w-- {
			d[w] = d[w]*(1-p) + d[w-1]*p
		}
		d[0] *= 1 - p
	}
	return d
}
