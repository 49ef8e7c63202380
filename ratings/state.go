package ratings

import (
	"math"
	"strconv"
)

// BayesState is one player's stored belief in the project's system, so a
// registry can keep ratings between events and go on from them: the mean
// and variance after his last batch, the day of it, and the last declared
// rank seen (NaN when none). A player not Seen has no belief yet and starts
// at his rank.
type BayesState struct {
	Mean, Var float64
	LastDay   int32
	Rank      float64
	Seen      bool
}

// State returns player p's belief as it stands.
func (s *Bayes) State(p int32) BayesState {
	return BayesState{Mean: s.m[p], Var: s.v[p], LastDay: s.last[p], Rank: s.rank[p], Seen: s.seen[p]}
}

// SetState puts back a belief State returned, before any game of p is
// predicted or rated; replaying from restored states gives exactly the
// ratings of one replay of all the games.
func (s *Bayes) SetState(p int32, st BayesState) {
	s.m[p], s.v[p], s.last[p], s.rank[p], s.seen[p] = st.Mean, st.Var, st.LastDay, st.Rank, st.Seen
}

// RegistryBayes were the parameters the registry rated its events with
// before issue 29 (the book now rates with DefaultBayes until it has tuned
// on its own games; kept for the state tests): the project's system tuned on the AGA tournament set (the data closest to
// the registry's over-the-board events), as `dankyu ratings eval --split
// aga` printed them: a wide newcomer prior, slow drift, ranks trusted to
// about 2.5 grades, an almost constant logistic width.
func RegistryBayes() BayesParams {
	return BayesParams{SD0: 300, Drift: 7.071, Play: 0.221, RankSD: 252.3, Width: 407.7, Span: 6.144e5}
}

// GoRRank is the rank a rating stands for on the GoR scale (1d = 2100,
// 100 per grade, 30k floor): dan grades 1..9 positive, kyu grades -1..-30
// negative, rounded to the nearest grade (2050 up to 2149 is 1 dan, 1950 up
// to 2049 is 1 kyu).
func GoRRank(r float64) int {
	g := math.Floor((r-2100)/100+0.5) + 1 // 2100 -> 1 (1d), 2000 -> 0 (1k)
	switch {
	case g >= 1:
		return int(min(g, 9))
	default:
		return int(max(g-1, -30)) // 0 -> -1 (1k), -29 -> -30
	}
}

// RankName writes a GoRRank as 5k or 3d.
func RankName(g int) string {
	if g < 0 {
		return strconv.Itoa(-g) + "k"
	}
	return strconv.Itoa(g) + "d"
}

// Estimate is a rank estimate: the grade the rating stands for and the
// grades at the ends of its 95 % interval (mean ± 1.96 sd).
type Estimate struct {
	Rank, Low, High int
}

// MaxPlayingDan is the strongest amateur playing grade: 8 dan and above
// are honorary grades, no playing strength, so no estimate names them.
const MaxPlayingDan = 7

// PlayingRank is GoRRank bounded to the playing grades, 30 kyu to 7 dan.
func PlayingRank(r float64) int { return min(GoRRank(r), MaxPlayingDan) }

// EstimateRank maps a belief N(mean, sd²) to playing grades (30 kyu –
// 7 dan): a rating or interval end above 7 dan is 7 dan.
func EstimateRank(mean, sd float64) Estimate {
	return Estimate{Rank: PlayingRank(mean), Low: PlayingRank(mean - 1.96*sd), High: PlayingRank(mean + 1.96*sd)}
}

// GradeGoR is a grade (kyu negative, dan positive) on the GoR scale, as
// ParseRank reads it: 1d = 2100, 1k = 2000, 30k = -900.
func GradeGoR(g int) float64 {
	if g > 0 {
		return 2000 + 100*float64(g)
	}
	return max(2100+100*float64(g), -900)
}
