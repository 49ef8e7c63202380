package ratings

import "math"

// EloParams are Elo's two parameters, on the GoR scale.
type EloParams struct {
	K     float64 // points moved by a full surprise
	Scale float64 // a difference of Scale points is 10:1 odds
}

// DefaultElo is the textbook K = 20 with a scale of 400 points.
func DefaultElo() EloParams { return EloParams{K: 20, Scale: 400} }

// Elo is the plain logistic Elo system with a fixed K, one scale for every
// strength, newcomers at their rank.
type Elo struct {
	p       EloParams
	unknown float64
	r       []float64
	seen    []bool
	acc     deltas
}

// NewElo rates players 0..players-1.
func NewElo(players int, unknown float64, p EloParams) *Elo {
	return &Elo{p: p, unknown: unknown, r: make([]float64, players), seen: make([]bool, players), acc: newDeltas(players)}
}

func (s *Elo) rating(p int32, rank Rank) float64 {
	if !s.seen[p] {
		return startRating(rank, s.unknown)
	}
	return s.r[p]
}

func (s *Elo) expected(g *Game) float64 {
	d := s.rating(g.Black, g.BlackRank) + advantage(g) - s.rating(g.White, g.WhiteRank)
	return 1 / (1 + math.Pow(10, -d/s.p.Scale))
}

func (s *Elo) Predict(g *Game) float64 { return s.expected(g) }

func (s *Elo) Update(batch []Game) {
	for i := range batch {
		g := &batch[i]
		d := s.p.K * (g.Score() - s.expected(g))
		s.acc.add(g.Black, s.rating(g.Black, g.BlackRank), d)
		s.acc.add(g.White, s.rating(g.White, g.WhiteRank), -d)
	}
	s.acc.apply(s.r, s.seen, math.Inf(-1))
}
