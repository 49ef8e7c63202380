package ratings

import "math"

// PointsPerStone is the value of one handicap stone in points of komi: the
// first move is worth about 7 points (fair komi), a stone twice that.
const PointsPerStone = 14

// GoRPerStone turns stones into rating points for every system: one grade
// is one stone is 100 GoR.
const GoRPerStone = 100

// StonesToBlack is the one formula every system uses for black's advantage,
// in stones:
//
//	base(h) - trunc(komi)/14,  base = 1/2 for h = 0 or 1, h - 1/2 for h >= 2
//
// so a no-komi game is half a stone, h stones with komi 0.5 are h - 1/2 (the
// EGD's 100 * (h - 0.5)), and komi 7.5 in an even game cancels black's first
// move (6.5 leaves black 1/14 stone). Komi is truncated to whole points
// because a half point only breaks ties, and because the AGA stores 7.5 as 7
// and 0.5 as 0. A missing komi is taken as 0.5 with handicap, 6.5 without.
func StonesToBlack(handicap int, komi float64, hasKomi bool) float64 {
	base := 0.5
	if handicap >= 2 {
		base = float64(handicap) - 0.5
	}
	if !hasKomi {
		komi = 6.5
		if handicap >= 2 {
			komi = 0.5
		}
	}
	s := base - math.Trunc(komi)/PointsPerStone
	// Absurd reverse komi (KGS has -100) would dominate any rating difference.
	return min(max(s, -9.5), 9.5)
}

// advantage is black's advantage in GoR points.
func advantage(g *Game) float64 {
	return GoRPerStone * StonesToBlack(g.Handicap, g.Komi, g.HasKomi)
}

// startRating is a newcomer's rating: the declared rank, else the fallback
// (the median first rank of the training part).
func startRating(r Rank, unknown float64) float64 {
	if r.Known {
		return r.GoR
	}
	return unknown
}
