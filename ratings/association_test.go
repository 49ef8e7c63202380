package ratings

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// associationGames simulates an association's own events: each entrant's
// entry rank is the association's current grade for him, his true strength
// rounded to a grade after a small error (sd gradeSD GoR), re-graded before
// every event as he improves; pairings are McMahon-like (neighbours by
// grade), every game even with komi 6.5, results drawn from the true
// strengths on a logistic of width 150 GoR. The rank difference then
// carries most of what is known, which makes the rank-only baseline strong.
func associationGames(seed uint64, players, events int, gradeSD float64) []Game {
	rng := rand.New(rand.NewPCG(seed, 7))
	strength := make([]float64, players)
	trend := make([]float64, players)
	for p := range strength {
		strength[p] = -600 + 3000*rng.Float64()
		trend[p] = 2 * rng.Float64() * max(2400-strength[p], 0) / 2400 // weaker players improve faster
	}
	var games []Game
	for e := range events {
		day := int32(17000 + 14*e)
		for p := range strength {
			strength[p] += trend[p]*14/7 + 8*rng.NormFloat64()
		}
		entrants := rng.Perm(players)[:players/4]
		grade := map[int32]float64{}
		for _, p := range entrants {
			g := PlayingRank(strength[p] + gradeSD*rng.NormFloat64())
			grade[int32(p)] = GradeGoR(g)
		}
		for r := 1; r <= 5; r++ {
			order := slices.Clone(entrants)
			// neighbours by grade, shuffled a little so pairings vary
			slices.SortFunc(order, func(a, b int) int {
				return int(grade[int32(a)] - grade[int32(b)] + 150*(rng.Float64()-0.5))
			})
			for i := 0; i+1 < len(order); i += 2 {
				b, w := int32(order[i]), int32(order[i+1])
				if rng.IntN(2) == 0 {
					b, w = w, b
				}
				g := Game{Day: day, Event: "ev" + strconv.Itoa(e), Round: strconv.Itoa(r), Black: b, White: w,
					BlackRank: Rank{grade[b], true}, WhiteRank: Rank{grade[w], true}, Komi: 6.5, HasKomi: true, Winner: 'W'}
				adv := advantage(&g)
				if rng.Float64() < 1/(1+math.Exp(-(strength[b]+adv-strength[w])/150)) {
					g.Winner = 'B'
				}
				games = append(games, g)
			}
		}
	}
	return games
}

// On association-style data the default system must beat the rank-only
// baseline and be no worse than WHR tuned on the earlier games.
func TestDefaultBeatsRankOnlyOnAssociationData(t *testing.T) {
	games := associationGames(1, 400, 80, 40)
	cut := len(games) / 2
	pt := Part{Games: games, Cut: cut}
	players := 400
	unknown := MedianFirstRank(games[:cut], players)
	models := map[string]Model{}
	for _, m := range Models() {
		models[m.Name] = m
	}
	def := score(pt, models["bayes"], Defaults(models["bayes"]), players, unknown, ByRound, false)
	rank := score(pt, models["rankonly"], nil, players, unknown, ByRound, false)
	x := Tune(models["whr"], games[:cut], players, unknown, ByRound, 60)
	whr := score(pt, models["whr"], x, players, unknown, ByRound, true)
	t.Logf("eval log-loss: bayes default %.4f (slope %.3f), rank-only %.4f, tuned WHR %.4f", def.Eval.LogLoss, def.Eval.Slope, rank.Eval.LogLoss, whr.Eval.LogLoss)
	if !(def.Eval.LogLoss < rank.Eval.LogLoss) {
		t.Errorf("default bayes %.4f does not beat rank-only %.4f", def.Eval.LogLoss, rank.Eval.LogLoss)
	}
	if !(def.Eval.LogLoss <= whr.Eval.LogLoss) {
		t.Errorf("default bayes %.4f worse than tuned WHR %.4f", def.Eval.LogLoss, whr.Eval.LogLoss)
	}
}
