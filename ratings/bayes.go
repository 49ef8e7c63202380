package ratings

import "math"

// BayesParams are the parameters of the project's own system.
type BayesParams struct {
	SD0    float64 // newcomer's standard deviation, GoR points
	Drift  float64 // growth of the deviation, GoR points per sqrt(day)
	Play   float64 // growth of the deviation per game played (players learn by playing), GoR points
	RankSD float64 // how far a newly declared rank is trusted, GoR points
	Width  float64 // logistic width at 1 dan (2100), GoR points: e:1 odds
	Span   float64 // the width shrinks linearly to 0 at 2100 + Span (tuned >= 1200: never steeper than the GoR)
	// Learn is the prior sd of the weights that combine the ratings with
	// the declared grades (see Grades); 0 turns the combination off and
	// predicts from the ratings alone.
	Learn float64
	// Kyu is how much more uncertain a newcomer's first grade is 10 grades
	// weaker (SD0 × Kyu^((2050 − r)/1000) at first grade r; < 1 at the dan
	// grades), as the AGA seeds a kyu wider than a dan; 0 or 1: the same
	// SD0 at every grade (a parameter set stored before Kyu existed).
	Kyu float64
}

// DefaultBayes are the parameters a registry rates with before it has
// tuned on its own games. Chosen on the four shared splits together (KGS,
// AGA, EGC 2013, Tygem; docs/ratings.md), not tuned on one: a newcomer
// at 1k/1d trusted to about 2.8 grades, a 10k 3.4, a 5d 2.5 (an entry
// grade is worth more than a self-declared one: EGC 2013, all newcomers at
// their EGD grades, wants less, AGA more; KGS, AGA and EGC tuned Kyu 1.36–1.49),
// a deviation growing 12 GoR per sqrt(day) away (a
// player seen again after a year is 2.3 grades uncertain), a width of 270
// GoR the same at every strength (the old defaults' GoR-like 171,
// steepening toward a pole at 3300, were three times too confident: their
// calibration slope was 0.56 on KGS), and the grades' weight learned from
// the results (Learn 0.5).
func DefaultBayes() BayesParams {
	return BayesParams{SD0: 280, Drift: 12, Play: 3, RankSD: 500, Width: 270, Span: 1e6, Learn: 0.5, Kyu: 1.25}
}

// Bayes is the project's own rating system: every player is a Gaussian
// belief N(m, v) on the GoR scale, updated by assumed-density filtering (a
// Glicko-1-like Newton step) on the GoR's own win model,
//
//	P(black wins) = 1 / (1 + e^(beta(r_white) - beta(r_black + adv))),
//	beta(r) = -(Span / Width) ln(2100 + Span - r),
//
// (the GoR's is Width 1200/7, Span 1200: its 3300 pole), so that a stone may
// weigh more among strong players than among weak ones, as in the EGD, and the prediction is flattened by both players'
// uncertainty (Glicko's g factor). Three things the GoR lacks:
//   - uncertainty: a newcomer moves fast, an established player slowly;
//   - time: the variance grows by Drift^2 per day away, capped at SD0^2,
//     so a returning player is again uncertain;
//   - declared ranks: each time a player declares a new rank (a promotion on
//     a server, a new entry grade at a tournament), that rank is a noisy
//     observation of the rating (sd RankSD) and is combined with the belief
//     by a Kalman step, as the AGA reseeds self-promoted players.
//
// It is incremental (one pass, constant work per game) where WHR refits the
// whole history, which keeps a replay of a million games near parsing speed.
type Bayes struct {
	p       BayesParams
	unknown float64
	m, v    []float64
	last    []int32
	rank    []float64 // last declared rank, GoR; NaN if none yet
	seen    []bool
	// per batch
	hsum, gsum []float64
	in         []bool
	touched    []int32
	pre        []belief
	grades     Grades
	feats      [][gradeFeatures]float64
}

type belief struct{ m, v, rank float64 }

// NewBayes rates players 0..players-1.
func NewBayes(players int, unknown float64, p BayesParams) *Bayes {
	return &Bayes{p: p, unknown: unknown,
		m: make([]float64, players), v: make([]float64, players), last: make([]int32, players),
		rank: make([]float64, players), seen: make([]bool, players),
		hsum: make([]float64, players), gsum: make([]float64, players), in: make([]bool, players),
		grades: NewGrades(p.Learn)}
}

// belief is p's prior for a game on day where p declares rank: the stored
// belief grown by the time away, then moved toward a newly declared rank.
func (s *Bayes) belief(p int32, rank Rank, day int32) belief {
	v0 := s.p.SD0 * s.p.SD0
	if !s.seen[p] {
		r := startRating(rank, s.unknown)
		f := 1.0 // the newcomer's sd over SD0
		if s.p.Kyu > 0 {
			f = math.Pow(s.p.Kyu, (2050-min(max(r, -900), 2700))/1000)
		}
		if !rank.Known {
			return belief{r, v0 * f * f, math.NaN()}
		}
		return belief{r, v0 * f * f, r}
	}
	b := belief{s.m[p], s.v[p], s.rank[p]}
	b.v = min(b.v+s.p.Drift*s.p.Drift*float64(max(day-s.last[p], 0))+s.p.Play*s.p.Play, v0)
	if rank.Known && rank.GoR != b.rank {
		tau2 := s.p.RankSD * s.p.RankSD
		k := b.v / (b.v + tau2)
		b.m += k * (rank.GoR - b.m)
		b.v *= 1 - k
		b.rank = rank.GoR
	}
	return b
}

// beta is the strength on the logit scale.
func (s *Bayes) beta(r float64) float64 {
	return -s.p.Span / s.p.Width * math.Log(max(2100+s.p.Span-r, 1))
}

// slope is d beta / dr: the logit per GoR point at r.
func (s *Bayes) slope(r float64) float64 {
	return s.p.Span / s.p.Width / max(2100+s.p.Span-r, 1)
}

// game returns the logit of black's win before uncertainty, and the two
// players' slopes and variances in logit units.
func (s *Bayes) game(b, w belief, adv float64) (x, sb, sw float64) {
	x = s.beta(b.m+adv) - s.beta(w.m)
	return x, s.slope(b.m + adv), s.slope(w.m)
}

func (s *Bayes) Predict(g *Game) float64 {
	b, w := s.belief(g.Black, g.BlackRank, g.Day), s.belief(g.White, g.WhiteRank, g.Day)
	adv := advantage(g)
	x, sb, sw := s.game(b, w, adv)
	x *= glickoG(math.Sqrt(sb*sb*b.v + sw*sw*w.v))
	if s.p.Learn <= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	return s.grades.Predict(s.gradeFeats(x, b, w, adv))
}

// RatingOnly is P(black wins) from the ratings alone, without the learned
// weight of the grades: what the ratings themselves say.
func (s *Bayes) RatingOnly(g *Game) float64 {
	b, w := s.belief(g.Black, g.BlackRank, g.Day), s.belief(g.White, g.WhiteRank, g.Day)
	x, sb, sw := s.game(b, w, advantage(g))
	return 1 / (1 + math.Exp(-glickoG(math.Sqrt(sb*sb*b.v+sw*sw*w.v))*x))
}

// gradeFeats are the combination's inputs for one game: a constant, the
// grades' logit — the two declared grades with black's advantage on the
// ratings' own win model, before uncertainty (a player of unknown grade
// counts at his rating) — and the ratings' logit. Both logits are on one
// scale, so that the prior sd Learn means the same on either weight: with
// the grade difference in stones (1 stone is 0.2–0.4 logit at the tuned
// widths) the grades' weight started 2.5–5 times as uncertain as the
// ratings', and the early predictions were flattened by it, which the
// tuner answered by turning the learning down (Learn 0.125 on EGC 2013).
func (s *Bayes) gradeFeats(x float64, b, w belief, adv float64) [gradeFeatures]float64 {
	rb, rw := b.rank, w.rank
	if math.IsNaN(rb) {
		rb = b.m
	}
	if math.IsNaN(rw) {
		rw = w.m
	}
	return [gradeFeatures]float64{1, s.beta(rb+adv) - s.beta(rw), x}
}

// Grades returns the learned combination of ratings and grades as it stands.
func (s *Bayes) Grades() Grades { return s.grades }

// SetGrades puts back a combination Grades returned.
func (s *Bayes) SetGrades(g Grades) { s.grades = g }

func (s *Bayes) Update(batch []Game) {
	s.feats = s.feats[:0]
	for i := range batch {
		g := &batch[i]
		b, w := s.belief(g.Black, g.BlackRank, g.Day), s.belief(g.White, g.WhiteRank, g.Day)
		adv := advantage(g)
		x, sb, sw := s.game(b, w, adv)
		if s.p.Learn > 0 {
			s.feats = append(s.feats, s.gradeFeats(x*glickoG(math.Sqrt(sb*sb*b.v+sw*sw*w.v)), b, w, adv))
		}
		y := g.Score()
		// Each player's step integrates over the opponent's uncertainty
		// only. It is on the ratings' own model, not the combination with
		// the grades: measured, stepping on the combination (the part of a
		// result the grades explain moving no rating) was slightly worse on
		// every split and on the association fixture.
		s.add(g.Black, b, glickoG(sw*math.Sqrt(w.v)), sb, x, y)
		s.add(g.White, w, glickoG(sb*math.Sqrt(b.v)), sw, -x, 1-y)
	}
	day := batch[len(batch)-1].Day
	for k, p := range s.touched {
		pre := s.pre[k]
		v := 1 / (1/pre.v + s.hsum[p])
		s.m[p] = pre.m + v*s.gsum[p]
		s.v[p] = v
		s.rank[p] = pre.rank
		s.last[p] = day
		s.seen[p] = true
		s.hsum[p], s.gsum[p], s.in[p] = 0, 0, false
	}
	s.touched, s.pre = s.touched[:0], s.pre[:0]
	for i := range s.feats {
		s.grades.Update(s.feats[i], batch[i].Score())
	}
}

// add takes one game of p: x is p's logit of winning, slope its derivative
// in p's rating, gopp the flattening by the opponent's uncertainty.
func (s *Bayes) add(p int32, pre belief, gopp, slope, x, score float64) {
	if !s.in[p] {
		s.in[p] = true
		s.touched = append(s.touched, p)
		s.pre = append(s.pre, pre)
	}
	e := 1 / (1 + math.Exp(-gopp*x))
	c := gopp * slope
	s.hsum[p] += c * c * e * (1 - e)
	s.gsum[p] += c * (score - e)
}
