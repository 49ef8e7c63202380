package ratings

import "math"

// WHRParams are the parameters of Whole-History Rating on the GoR scale.
type WHRParams struct {
	Width float64 // logistic width: a difference of Width points is e:1 odds
	Drift float64 // Wiener process: GoR points per sqrt(day)
	SD0   float64 // prior of a player's first rating around his rank
}

// DefaultWHR is Elo's 400-point scale (width 400/ln 10) with Coulom's
// w^2 = 14 Elo^2/day and a prior of one grade.
func DefaultWHR() WHRParams { return WHRParams{Width: 400 / math.Ln10, Drift: math.Sqrt(14), SD0: 100} }

// whrWindow is how many of a player's latest days an update revises; older
// ones stay fixed, so an update costs O(window) however long the history.
const whrWindow = 24

// WHR is Coulom's Whole-History Rating (CG 2008) in its incremental form:
// each player's rating is a time series, one node per day played, linked by
// a Wiener process; after each batch the players of the batch get Newton
// steps on their recent history (tridiagonal, linear time), so results move
// earlier days too. Two departures, both for speed on a million games: the
// steps revise only the last whrWindow days, and there is no periodic full
// pass over all players. Instead of Coulom's virtual win and loss against
// rating 0, the first node has a Gaussian prior at the declared rank.
type WHR struct {
	p       WHRParams
	unknown float64
	nodes   [][]whrNode
	start   []float64
	in      []bool
	touched []int32
	// scratch for the tridiagonal solve
	g, h, c []float64
}

type whrNode struct {
	day   int32
	r     float64
	games []whrRef
}

// whrRef is one game seen from one player: the opponent's node, the
// player's advantage (GoR) and score.
type whrRef struct {
	opp, node  int32
	adv, score float64
}

// NewWHR rates players 0..players-1.
func NewWHR(players int, unknown float64, p WHRParams) *WHR {
	return &WHR{p: p, unknown: unknown, nodes: make([][]whrNode, players), start: make([]float64, players), in: make([]bool, players)}
}

func (s *WHR) rating(p int32, rank Rank) float64 {
	if n := s.nodes[p]; len(n) > 0 {
		return n[len(n)-1].r
	}
	return startRating(rank, s.unknown)
}

func (s *WHR) Predict(g *Game) float64 {
	d := s.rating(g.Black, g.BlackRank) + advantage(g) - s.rating(g.White, g.WhiteRank)
	return 1 / (1 + math.Exp(-d/s.p.Width))
}

// node returns the index of p's node for day, adding it if needed.
func (s *WHR) node(p int32, rank Rank, day int32) int32 {
	n := s.nodes[p]
	if len(n) == 0 {
		s.start[p] = startRating(rank, s.unknown)
	}
	if len(n) == 0 || n[len(n)-1].day != day {
		s.nodes[p] = append(n, whrNode{day: day, r: s.rating(p, rank)})
	}
	return int32(len(s.nodes[p]) - 1)
}

func (s *WHR) Update(batch []Game) {
	for i := range batch {
		g := &batch[i]
		nb, nw := s.node(g.Black, g.BlackRank, g.Day), s.node(g.White, g.WhiteRank, g.Day)
		adv, y := advantage(g), g.Score()
		b, w := &s.nodes[g.Black][nb], &s.nodes[g.White][nw]
		b.games = append(b.games, whrRef{g.White, nw, adv, y})
		w.games = append(w.games, whrRef{g.Black, nb, -adv, 1 - y})
		for _, p := range [2]int32{g.Black, g.White} {
			if !s.in[p] {
				s.in[p] = true
				s.touched = append(s.touched, p)
			}
		}
	}
	for range 2 {
		for _, p := range s.touched {
			s.newton(p)
		}
	}
	for _, p := range s.touched {
		s.in[p] = false
	}
	s.touched = s.touched[:0]
}

// newton is one Newton step on the log-posterior of p's last whrWindow
// nodes, the opponents' ratings held fixed.
func (s *WHR) newton(p int32) {
	nodes := s.nodes[p]
	lo := max(len(nodes)-whrWindow, 0)
	n := len(nodes) - lo
	s.g, s.h, s.c = grow(s.g, n), grow(s.h, n), grow(s.c, n)
	g, h, c := s.g, s.h, s.c // h: diagonal, c[i]: between i and i+1 (both of -H)
	w2 := s.p.Width * s.p.Width
	for i := range n {
		nd := &nodes[lo+i]
		g[i], h[i], c[i] = 0, 1e-9, 0
		for _, ref := range nd.games {
			e := 1 / (1 + math.Exp(-(nd.r+ref.adv-s.nodes[ref.opp][ref.node].r)/s.p.Width))
			g[i] += (ref.score - e) / s.p.Width
			h[i] += e * (1 - e) / w2
		}
		if lo+i == 0 {
			a := 1 / (s.p.SD0 * s.p.SD0)
			g[i] -= a * (nd.r - s.start[p])
			h[i] += a
		}
		if lo+i > 0 {
			prev := &nodes[lo+i-1]
			a := 1 / (s.p.Drift * s.p.Drift * float64(max(nd.day-prev.day, 1)))
			g[i] -= a * (nd.r - prev.r)
			h[i] += a
			if i > 0 {
				g[i-1] -= a * (prev.r - nd.r)
				h[i-1] += a
				c[i-1] = a
			}
		}
	}
	// Solve (-H) d = g by the Thomas algorithm; -H has h on the diagonal
	// and -c off it, and is positive definite.
	for i := 1; i < n; i++ {
		m := -c[i-1] / h[i-1]
		h[i] -= m * -c[i-1]
		g[i] -= m * g[i-1]
	}
	d := g[n-1] / h[n-1]
	nodes[lo+n-1].r += d
	for i := n - 2; i >= 0; i-- {
		d = (g[i] + c[i]*d) / h[i]
		nodes[lo+i].r += d
	}
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}
