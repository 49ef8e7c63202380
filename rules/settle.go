package rules

import (
	"fmt"
	"sort"
)

// Settling a counted position whose dead stones nobody gave.
//
// A record that ends by a count (two passes, or a scored RE without them)
// but marks no dead stones still has the dead stones on the board: counted
// as they lie, a game can go to the wrong side by dozens of points. The
// engine then decides the status of each chain by rule, and states a winner
// only when every status it could not decide leaves the winner the same:
//
//   - alive: unconditionally alive by Benson's algorithm, extended so that
//     an enclosed empty region of at least bigEye points, with no enemy
//     stone in it, counts as two eyes of the chains around it (an eye space
//     of seven or more points lives against any attack);
//   - dead: enemy stones lying in a region enclosed by one colour, which
//     have no eye there larger than bigEyeOfDead points, no second eye, and
//     fill at most a third of the region — and only when, with them off the
//     board, every chain around the region is alive by the rule above;
//   - undecided: everything else (seki, fights left open, groups at the
//     edge of two areas). The margin is counted twice, once with every
//     undecided black chain dead and once with every undecided white chain
//     dead; removing stones of one colour never helps that colour, so the
//     true margin lies between the two. Where the game ended without two
//     passes, the neutral points could still go either way and widen the
//     range by their number.
//
// The winner is stated when the whole range lies on one side; otherwise the
// adjudication is deferred to the players' (or the record's) count.

// Settlement kinds.
const (
	SettledByRule = "settled"  // every chain's status decided, or the rest cannot change the winner
	Deferred      = "deferred" // the winner depends on stones the engine cannot decide
)

// Tunables of the settling rules, named so the documentation can cite them.
const (
	bigEye       = 7 // an enclosed enemy-free region this large makes two eyes
	bigEyeOfDead = 2 // the largest eye a group may have and still be judged dead
	deadShare    = 3 // dead stones fill at most 1/deadShare of their region
)

// Settlement is how a count without dead stones given was settled.
type Settlement struct {
	Kind string `json:"kind"` // SettledByRule or Deferred
	// Dead lists the stones found dead (SGF points), Undecided those whose
	// status the rules leave open.
	Dead      []string `json:"dead"`
	Undecided []string `json:"undecided"`
	// MarginLow and MarginHigh bound the margin (black minus white, after
	// komi and compensation) over every status of the undecided stones.
	MarginLow  float64 `json:"margin_low"`
	MarginHigh float64 `json:"margin_high"`
	// Reasons says, one line each, why stones were found dead and what
	// remained open.
	Reasons []string `json:"reasons"`
}

// settlePos is a position under analysis: a copy of the board's colours,
// with stones found dead taken off.
type settlePos struct {
	b     *Board
	color []Color
}

// components labels the connected components of the points for which in
// is true; label -1 marks the others. It returns the labels and the
// components' points.
func (s *settlePos) components(in func(Color) bool) ([]int, [][]Point) {
	label := make([]int, len(s.color))
	for i := range label {
		label[i] = -1
	}
	var comps [][]Point
	var stack []Point
	s.b.Points(func(p Point) {
		if label[p] >= 0 || !in(s.color[p]) {
			return
		}
		id := len(comps)
		var pts []Point
		label[p] = id
		stack = append(stack[:0], p)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pts = append(pts, q)
			for _, n := range s.b.neighbours(q) {
				if s.color[n] != edge && label[n] < 0 && in(s.color[n]) {
					label[n] = id
					stack = append(stack, n)
				}
			}
		}
		comps = append(comps, pts)
	})
	return label, comps
}

// alive returns, for every point, whether it holds a stone of c that is
// alive by Benson's algorithm with the big-eye extension.
func (s *settlePos) alive(c Color) []bool { return s.aliveExcept(c, nil) }

// aliveExcept is alive where no region holding a point of small gets the
// big-eye extension: a region whose stones are judged dead must not be
// what makes its enclosure alive.
func (s *settlePos) aliveExcept(c Color, small []bool) []bool {
	chain, chains := s.components(func(x Color) bool { return x == c })
	_, regions := s.components(func(x Color) bool { return x != c && x != edge })
	// vital[r] maps a chain to the eyes region r gives it (1 or 2).
	vital := make([]map[int]int, len(regions))
	borders := make([]map[int]bool, len(regions))
	for r, pts := range regions {
		borders[r] = map[int]bool{}
		enemy := false
		for _, p := range pts {
			enemy = enemy || s.color[p] == c.Opponent() || (small != nil && small[p])
			for _, n := range s.b.neighbours(p) {
				if s.color[n] == c {
					borders[r][chain[n]] = true
				}
			}
		}
		vital[r] = map[int]int{}
		twoEyes := !enemy && (len(pts) >= bigEye || s.longPath(pts))
		for x := range borders[r] {
			if twoEyes {
				vital[r][x] = 2
				continue
			}
			all := true
			for _, p := range pts {
				if s.color[p] != Empty {
					continue
				}
				adj := false
				for _, n := range s.b.neighbours(p) {
					adj = adj || (s.color[n] == c && chain[n] == x)
				}
				if !adj {
					all = false
					break
				}
			}
			if all {
				vital[r][x] = 1
			}
		}
	}
	live := make([]bool, len(chains))
	for i := range live {
		live[i] = true
	}
	healthy := make([]bool, len(regions))
	for i := range healthy {
		healthy[i] = true
	}
	for changed := true; changed; {
		changed = false
		for x := range chains {
			if !live[x] {
				continue
			}
			eyes := 0
			for r := range regions {
				if healthy[r] {
					eyes += vital[r][x]
				}
			}
			if eyes < 2 {
				live[x], changed = false, true
			}
		}
		for r := range regions {
			if !healthy[r] {
				continue
			}
			for x := range borders[r] {
				if !live[x] {
					healthy[r], changed = false, true
					break
				}
			}
		}
	}
	out := make([]bool, len(s.color))
	for x, pts := range chains {
		if live[x] {
			for _, p := range pts {
				out[p] = true
			}
		}
	}
	return out
}

// longPath reports whether a region is a line of at least four points
// (straight, bent or zigzag, no branch and no square): the defender makes
// two eyes there whatever the attacker plays.
func (s *settlePos) longPath(pts []Point) bool {
	if len(pts) < 4 {
		return false
	}
	in := map[Point]bool{}
	for _, p := range pts {
		in[p] = true
	}
	edges := 0
	for _, p := range pts {
		deg := 0
		for _, n := range s.b.neighbours(p) {
			if in[n] {
				deg++
			}
		}
		if deg > 2 {
			return false
		}
		edges += deg
	}
	return edges/2 == len(pts)-1 // connected with one edge fewer than points: no cycle
}

// deadIn finds the enemy stones of region pts (a region of c: connected
// points that are not c) that the dead rule takes off, or nil.
func (s *settlePos) deadIn(c Color, pts []Point, eyeOf []int, eyes [][]Point) []Point {
	o := c.Opponent()
	var enemy []Point
	inRegion := map[Point]bool{}
	for _, p := range pts {
		inRegion[p] = true
		if s.color[p] == o {
			enemy = append(enemy, p)
		}
	}
	if len(enemy) == 0 || deadShare*len(enemy) > len(pts) {
		return nil
	}
	// The enemy's eyes in the region: empty areas that touch only its stones.
	seen := map[int]bool{}
	for _, p := range pts {
		e := eyeOf[p]
		if e < 0 || seen[e] {
			continue
		}
		seen[e] = true
		if len(eyes[e]) > bigEyeOfDead || len(seen) > 1 {
			return nil
		}
	}
	return enemy
}

// settleDead applies the dead rule until nothing more dies: stones are
// taken off only when the chains around them are alive without them.
func (s *settlePos) settleDead() (dead []Point, reasons []string) {
	for changed := true; changed; {
		changed = false
		for _, c := range []Color{Black, White} {
			o := c.Opponent()
			// the enemy's eyes: empty areas touching only o
			_, areas := s.components(func(x Color) bool { return x == Empty })
			eyeOf := make([]int, len(s.color))
			for i := range eyeOf {
				eyeOf[i] = -1
			}
			var eyes [][]Point
			for _, pts := range areas {
				onlyO := true
				for _, p := range pts {
					for _, n := range s.b.neighbours(p) {
						onlyO = onlyO && (s.color[n] == o || s.color[n] == Empty || s.color[n] == edge)
					}
				}
				if onlyO {
					for _, p := range pts {
						eyeOf[p] = len(eyes)
					}
					eyes = append(eyes, pts)
				}
			}
			_, regions := s.components(func(x Color) bool { return x != c && x != edge })
			for _, pts := range regions {
				enemy := s.deadIn(c, pts, eyeOf, eyes)
				if enemy == nil {
					continue
				}
				saved := make([]Color, len(enemy))
				for i, p := range enemy {
					saved[i] = s.color[p]
					s.color[p] = Empty
				}
				small := make([]bool, len(s.color))
				for _, p := range pts {
					small[p] = true
				}
				alive := s.aliveExcept(c, small)
				ok := true
				for _, p := range pts {
					for _, n := range s.b.neighbours(p) {
						if s.color[n] == c && !alive[n] {
							ok = false
						}
					}
				}
				if !ok {
					for i, p := range enemy {
						s.color[p] = saved[i]
					}
					continue
				}
				dead = append(dead, enemy...)
				reasons = append(reasons, fmt.Sprintf("%d %s stones (%s…) lie in a region of %d points enclosed by %s stones that are alive without counting that region as more than one eye, with no second eye and no eye over %d points: dead",
					len(enemy), o, s.name(enemy[0]), len(pts), c, bigEyeOfDead))
				changed = true
			}
		}
	}
	return dead, reasons
}

func (s *settlePos) name(p Point) string {
	x, y := s.b.XY(p)
	return SGFPoint(Coord{x, y})
}

// margin counts the position with dead taken off, as the rule set counts.
type marginFunc func(dead []Point) (margin float64, neutral int)

// settleCount settles b's position: which stones are dead, which undecided,
// and the range of the margin. count gives the margin with a set of stones
// taken off; openDame widens the range by the neutral points.
func settleCount(b *Board, count marginFunc, openDame, ing bool) Settlement {
	b.settle()
	s := &settlePos{b: b, color: append([]Color(nil), b.color...)}
	dead, reasons := s.settleDead()
	if reasons == nil {
		reasons = []string{}
	}
	aliveB, aliveW := s.alive(Black), s.alive(White)
	var undecidedB, undecidedW []Point
	b.Points(func(p Point) {
		switch {
		case s.color[p] == Black && !aliveB[p]:
			undecidedB = append(undecidedB, p)
		case s.color[p] == White && !aliveW[p]:
			undecidedW = append(undecidedW, p)
		}
	})
	lo, nlo := count(append(append([]Point(nil), dead...), undecidedB...))
	hi, nhi := count(append(append([]Point(nil), dead...), undecidedW...))
	if openDame {
		lo -= float64(nlo)
		hi += float64(nhi)
	}
	st := Settlement{Kind: SettledByRule, Dead: []string{}, Undecided: []string{}, MarginLow: lo, MarginHigh: hi, Reasons: reasons}
	for _, p := range dead {
		st.Dead = append(st.Dead, s.name(p))
	}
	for _, p := range append(undecidedB, undecidedW...) {
		st.Undecided = append(st.Undecided, s.name(p))
	}
	sort.Strings(st.Dead)
	sort.Strings(st.Undecided)
	if len(st.Undecided) > 0 {
		st.Reasons = append(st.Reasons, fmt.Sprintf("%d black and %d white stones are neither alive nor dead by rule: the margin lies between %s and %s",
			len(undecidedB), len(undecidedW), signed(lo), signed(hi)))
	}
	if openDame && (nlo > 0 || nhi > 0) {
		st.Reasons = append(st.Reasons, "the game ended without two passes: the neutral points could still go to either side")
	}
	if !decidable(lo, hi, ing) {
		st.Kind = Deferred
	}
	return st
}

// decidable reports whether every margin from lo to hi gives one result:
// one side wins throughout, or the count is exact (a draw included; under
// Ing's rules black wins ties).
func decidable(lo, hi float64, ing bool) bool {
	switch {
	case lo == hi, lo > 0 && hi > 0, lo < 0 && hi < 0:
		return true
	}
	return ing && lo >= 0 && hi >= 0
}

func signed(m float64) string {
	if m > 0 {
		return fmt.Sprintf("B+%g", m)
	}
	if m < 0 {
		return fmt.Sprintf("W+%g", -m)
	}
	return "0"
}

// settles reports whether a count is settled by rule: no dead stones
// given (nor markup taken), a rule set that removes dead stones, and a
// count the record asks for (two passes, or a scored result).
func settles(g *Game, opt Options, rules RuleSet, passes bool) bool {
	if len(opt.Dead) > 0 || opt.AllAlive || rules == TrompTaylor {
		return false
	}
	if opt.DeadFromMarkup && len(g.TerritoryBlack)+len(g.TerritoryWhite) > 0 {
		return false
	}
	re := parseRE(g.Result)
	return passes || (re.how == "score" || re.how == "draw")
}

// ruleDead is the stones the dead rule takes off b.
func ruleDead(b *Board) []Point {
	b.settle()
	s := &settlePos{b: b, color: append([]Color(nil), b.color...)}
	dead, _ := s.settleDead()
	return dead
}

// deadPoints is the settlement's dead stones as points of b.
func (st *Settlement) deadPoints(b *Board) []Point {
	out := make([]Point, 0, len(st.Dead))
	for _, d := range st.Dead {
		c, _, err := ParseSGFPoint(d, b.Size())
		if err == nil {
			out = append(out, b.At(c.X, c.Y))
		}
	}
	return out
}

// areasFor counts b with dead taken off as the rule set counts: black's and
// white's points and the neutral points.
func areasFor(b *Board, rules RuleSet, dead []Point) (black, white float64, neutral int) {
	cnt := b.CountArea(dead)
	switch rules {
	case Japanese:
		black = float64(cnt.Territory[Black] + b.Captured(Black) + cnt.Removed[White])
		white = float64(cnt.Territory[White] + b.Captured(White) + cnt.Removed[Black])
	case TrompTaylor:
		black = float64(cnt.Stones[Black] + cnt.Territory[Black])
		white = float64(cnt.Stones[White] + cnt.Territory[White])
	default: // area counting: points between both sides' live stones count half to each
		black = float64(cnt.Stones[Black]+cnt.Territory[Black]) + float64(cnt.Neutral)/2
		white = float64(cnt.Stones[White]+cnt.Territory[White]) + float64(cnt.Neutral)/2
	}
	return black, white, cnt.Neutral
}

// settledResult states the winner of a settled count whose margin is not
// exact, or defers it; the margin is the least the winner wins by over the
// undecided stones. An exact count (done false) goes on as any count.
func settledResult(r *Result, rules RuleSet) (done bool) {
	st := r.Settlement
	r.Notes = append(r.Notes, st.Reasons...)
	if len(st.Dead) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("counted with %d stones found dead by rule", len(st.Dead)))
	}
	if st.Kind == SettledByRule && st.MarginLow == st.MarginHigh {
		return false
	}
	if st.Kind == Deferred {
		r.Winner, r.MarginPoints = "", 0
		r.Result, r.ResultZH = "?", "需双方确认死子"
		r.Notes = append(r.Notes, fmt.Sprintf("no dead stones given and the winner depends on stones the rules cannot decide (margin between %s and %s): deferred to the players' count (recorded result %q)",
			signed(st.MarginLow), signed(st.MarginHigh), r.RecordedResult))
		return true
	}
	m := st.MarginLow
	if m < 0 {
		m = st.MarginHigh // white wins: the least white margin is the one nearest zero
	}
	r.MarginPoints = m
	r.Winner = "B"
	if m < 0 {
		r.Winner = "W"
	}
	if rules == Ing && st.MarginLow >= 0 {
		r.Winner = "B"
	}
	r.Result, r.ResultZH = formatResult(r.Winner, m, rules)
	r.Notes = append(r.Notes, fmt.Sprintf("the winner is the same whatever the undecided stones are; the margin is at least %s", r.Result))
	return true
}
