package ratings

import "math"

// Glicko2Params are Glicko-2's parameters. Ratings stay on the GoR scale;
// Scale is the GoR width of one internal unit (173.7178 for Elo points).
type Glicko2Params struct {
	Tau   float64 // volatility constraint
	RD0   float64 // newcomer's rating deviation, GoR points
	Vol0  float64 // newcomer's volatility
	Scale float64
}

// DefaultGlicko2 is Glickman's suggestion (RD 350, volatility 0.06, tau 0.5)
// on the Elo scale.
func DefaultGlicko2() Glicko2Params {
	return Glicko2Params{Tau: 0.5, RD0: 350, Vol0: 0.06, Scale: 173.7178}
}

// Glicko2 is Glickman's Glicko-2. A rating period is one batch; between a
// player's batches the deviation grows by the volatility once per elapsed
// day (the paper's "no games in a period"), capped at RD0.
type Glicko2 struct {
	p       Glicko2Params
	unknown float64
	mu      []float64 // internal units, 0 = 2100 GoR
	phi     []float64
	vol     []float64
	last    []int32
	seen    []bool
	// per batch
	vinv, dsum []float64
	in         []bool
	touched    []int32
	pre        []glickoPlayer
}

type glickoPlayer struct{ mu, phi float64 }

// NewGlicko2 rates players 0..players-1.
func NewGlicko2(players int, unknown float64, p Glicko2Params) *Glicko2 {
	return &Glicko2{p: p, unknown: unknown,
		mu: make([]float64, players), phi: make([]float64, players), vol: make([]float64, players),
		last: make([]int32, players), seen: make([]bool, players),
		vinv: make([]float64, players), dsum: make([]float64, players), in: make([]bool, players)}
}

// player is p's rating before a game on day, after the deviation has grown.
func (s *Glicko2) player(p int32, rank Rank, day int32) glickoPlayer {
	phi0 := s.p.RD0 / s.p.Scale
	if !s.seen[p] {
		return glickoPlayer{(startRating(rank, s.unknown) - 2100) / s.p.Scale, phi0}
	}
	phi2 := s.phi[p]*s.phi[p] + s.vol[p]*s.vol[p]*float64(max(day-s.last[p], 0))
	return glickoPlayer{s.mu[p], math.Sqrt(min(phi2, phi0*phi0))}
}

func glickoG(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func (s *Glicko2) Predict(g *Game) float64 {
	b, w := s.player(g.Black, g.BlackRank, g.Day), s.player(g.White, g.WhiteRank, g.Day)
	d := b.mu + advantage(g)/s.p.Scale - w.mu
	return 1 / (1 + math.Exp(-glickoG(math.Hypot(b.phi, w.phi))*d))
}

func (s *Glicko2) Update(batch []Game) {
	for i := range batch {
		g := &batch[i]
		b, w := s.player(g.Black, g.BlackRank, g.Day), s.player(g.White, g.WhiteRank, g.Day)
		d := b.mu + advantage(g)/s.p.Scale - w.mu
		sa := g.Score()
		s.add(g.Black, b, glickoG(w.phi), d, sa)
		s.add(g.White, w, glickoG(b.phi), -d, 1-sa)
	}
	day := batch[len(batch)-1].Day
	for k, p := range s.touched {
		pre := s.pre[k]
		v := 1 / s.vinv[p]
		delta := v * s.dsum[p]
		vol := s.vol[p]
		if !s.seen[p] {
			vol = s.p.Vol0
		}
		vol = glickoVolatility(pre.phi, v, delta, vol, s.p.Tau)
		phiStar2 := pre.phi*pre.phi + vol*vol
		phi := 1 / math.Sqrt(1/phiStar2+1/v)
		s.mu[p] = pre.mu + phi*phi*s.dsum[p]
		s.phi[p] = phi
		s.vol[p] = vol
		s.seen[p] = true
		s.last[p] = day
		s.vinv[p], s.dsum[p], s.in[p] = 0, 0, false
	}
	s.touched, s.pre = s.touched[:0], s.pre[:0]
}

// add takes one game of p: d is p's rating minus the opponent's (advantage
// included), gopp the opponent's g(phi).
func (s *Glicko2) add(p int32, pre glickoPlayer, gopp, d, score float64) {
	if !s.in[p] {
		s.in[p] = true
		s.touched = append(s.touched, p)
		s.pre = append(s.pre, pre)
	}
	e := 1 / (1 + math.Exp(-gopp*d))
	s.vinv[p] += gopp * gopp * e * (1 - e)
	s.dsum[p] += gopp * (score - e)
}

// glickoVolatility is step 5 of Glickman's paper: the Illinois method on
// f(x) = e^x (D^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2.
func glickoVolatility(phi, v, delta, vol, tau float64) float64 {
	a := math.Log(vol * vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		t := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*t*t) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > 1e-6 && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
