package ratings

import "math"

// GoR is the EGD rating system as recalculated since April 2021:
//
//	r' = r + con(r) (Sa - Se) + bonus(r)
//	con(r) = ((3300 - r) / 200)^1.6, bonus(r) = ln(1 + e^((2300 - r)/80)) / 5
//	Se = 1 / (1 + e^(beta(r_opp) - beta(r))), beta(r) = -7 ln(3300 - r)
//
// with the floor at 30 kyu (-900). It has no free parameter. Handicap and
// komi raise black's rating by 100 * StonesToBlack in Se only; con and
// bonus use the players' own ratings, as in the EGD.
type GoR struct {
	unknown float64
	r       []float64
	seen    []bool
	acc     deltas
}

// GoRFloor is the lowest GoR (30 kyu).
const GoRFloor = -900

// NewGoR rates players 0..players-1; a newcomer of unknown rank starts at unknown.
func NewGoR(players int, unknown float64) *GoR {
	return &GoR{unknown: unknown, r: make([]float64, players), seen: make([]bool, players), acc: newDeltas(players)}
}

// GoRExpected is the EGD's expected score of a player rated r against opp.
//
// Ratings reach 3300 only through a large handicap added to a top
// rating; the clamp keeps the quotient finite. e^(beta(opp) - beta(r)) is ((3300-r)/(3300-opp))^7: a quotient and three
// products where the formula takes two logarithms and an exponential (the
// replay's hottest arithmetic).
func GoRExpected(r, opp float64) float64 {
	q := max(3300-r, 1) / max(3300-opp, 1)
	q2 := q * q
	return 1 / (1 + q2*q2*q2*q)
}

// GoRCon is the EGD's update factor: large for weak players, small for strong.
func GoRCon(r float64) float64 { return math.Pow(max(3300-r, 0)/200, 1.6) }

// GoRBonus is the EGD's anti-deflation term, about 0.5 at 1 dan and
// vanishing for strong players.
func GoRBonus(r float64) float64 { return math.Log1p(math.Exp((2300-r)/80)) / 5 }

// GoRUpdate is one player's new rating after one game with score sa
// against opp; adv is the player's handicap advantage in GoR points.
func GoRUpdate(r, opp, adv, sa float64) float64 {
	return max(r+GoRCon(r)*(sa-GoRExpected(r+adv, opp))+GoRBonus(r), GoRFloor)
}

// Rating is a player's current GoR (newcomers at their rank).
func (s *GoR) Rating(p int32, rank Rank) float64 {
	if !s.seen[p] {
		return startRating(rank, s.unknown)
	}
	return s.r[p]
}

func (s *GoR) Predict(g *Game) float64 {
	return GoRExpected(s.Rating(g.Black, g.BlackRank)+advantage(g), s.Rating(g.White, g.WhiteRank))
}

func (s *GoR) Update(batch []Game) {
	for i := range batch {
		g := &batch[i]
		rb, rw := s.Rating(g.Black, g.BlackRank), s.Rating(g.White, g.WhiteRank)
		se := GoRExpected(rb+advantage(g), rw)
		sa := g.Score()
		s.acc.add(g.Black, rb, GoRCon(rb)*(sa-se)+GoRBonus(rb))
		s.acc.add(g.White, rw, GoRCon(rw)*(se-sa)+GoRBonus(rw))
	}
	s.acc.apply(s.r, s.seen, GoRFloor)
}
