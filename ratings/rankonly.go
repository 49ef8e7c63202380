package ratings

// RankOnly is the baseline that knows nothing but the two declared ranks
// and the handicap: P(black wins) = σ(a + b·d), d the rank difference plus
// black's advantage in stones, with a and b fitted by online logistic
// regression on the earlier games only (the same Bayesian step as Grades,
// prior weights 0, sd 1). A player of unknown rank counts at the last rank
// he declared, else at the fallback rank. Where ranks are an association's
// current grades this is a strong baseline; where they are self-declared,
// a weak one.
type RankOnly struct {
	unknown float64
	last    []float64
	known   []bool
	w       Grades
	feats   [][gradeFeatures]float64
}

// NewRankOnly rates players 0..players-1.
func NewRankOnly(players int, unknown float64) *RankOnly {
	w := NewGrades(1)
	w.Mean[2] = 0 // the third input, the ratings' logit, is always 0 here
	return &RankOnly{unknown: unknown, last: make([]float64, players), known: make([]bool, players), w: w}
}

func (s *RankOnly) rank(p int32, r Rank) float64 {
	switch {
	case r.Known:
		return r.GoR
	case s.known[p]:
		return s.last[p]
	}
	return s.unknown
}

func (s *RankOnly) feat(g *Game) [gradeFeatures]float64 {
	return [gradeFeatures]float64{1, (s.rank(g.Black, g.BlackRank) + advantage(g) - s.rank(g.White, g.WhiteRank)) / GoRPerStone, 0}
}

func (s *RankOnly) Predict(g *Game) float64 { return s.w.Predict(s.feat(g)) }

func (s *RankOnly) Update(batch []Game) {
	s.feats = s.feats[:0]
	for i := range batch {
		s.feats = append(s.feats, s.feat(&batch[i]))
	}
	for i := range batch {
		s.w.Update(s.feats[i], batch[i].Score())
		g := &batch[i]
		for _, pr := range [2]struct {
			p int32
			r Rank
		}{{g.Black, g.BlackRank}, {g.White, g.WhiteRank}} {
			if pr.r.Known {
				s.last[pr.p], s.known[pr.p] = pr.r.GoR, true
			}
		}
	}
}
