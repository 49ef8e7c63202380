package tournaments

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
)

// Entrant is a participant as standings see him.
type Entrant struct {
	ID   int // 1..N within the event
	Name string
	// WithdrewAfter is the last round he took part in when he withdrew, 0
	// when he did not withdraw (see ApplyWithdrawals).
	WithdrewAfter int
	Withdrawn     bool
	// MMS0 is the McMahon starting score in points (2 per band), for McMahon events.
	MMS0 int
}

// Game is one pairing of a round and its outcome.
type Game struct {
	Round         int
	Board         int
	Black, White  int // entrant IDs
	Result        Result
	Handicap      int
	BlackWarnings int
	WhiteWarnings int
	// Record is the SGF of the game, if one was uploaded.
	Record string
}

// Bye is a round an entrant was not paired, and what it scored.
type Bye struct {
	Round  int
	Player int
	Points int
}

// Order is how standings are ranked.
type Order string

const (
	// RoundRobinOrder: points, winners' score (胜者小分: the points of the
	// opponents beaten plus half of those drawn), fewer warnings, lot.
	RoundRobinOrder Order = "round_robin"
	// SwissTotalOrder is article 27's Swiss (A): total = points + SOS ÷ (½ ×
	// 最高积分) − rounds, then fewer warnings, lot. 最高积分 is read as the
	// highest score possible (2 a round), the default: then an opponent
	// field that scored half the possible points adds exactly nothing, which
	// is what the "− rounds" term is there for, and the total does not move
	// with what the leader happened to reach.
	SwissTotalOrder Order = "swiss_total"
	// SwissTotalReachedOrder reads 最高积分 as the highest score a player
	// actually reached.
	SwissTotalReachedOrder Order = "swiss_total_reached"
	// SwissSOSOrder is article 27's Swiss (B): points, opponents' points
	// (SOS), fewer warnings, lot.
	SwissSOSOrder Order = "swiss_sos"
	// SwissSOSExtendedOrder puts SOSOS and SODOS, as EGD and OpenGotha users
	// know them, after SOS and before warnings: an option, and how
	// imported files rank.
	SwissSOSExtendedOrder Order = "swiss_sos_extended"
	// McMahonOrder: McMahon score (start + points), SOSM, SOSOSM, warnings, lot.
	McMahonOrder Order = "mcmahon"
)

// Orders lists the standings orders, in the order forms show them.
func Orders() []Order {
	return []Order{RoundRobinOrder, SwissTotalOrder, SwissTotalReachedOrder, SwissSOSOrder, SwissSOSExtendedOrder, McMahonOrder}
}

// Ties says what happens to players equal on every criterion (art. 27 C):
// a lot (the default), shared places, or a playoff the organiser holds.
type Ties string

const (
	TiesByLot   Ties = "lot"
	TiesShared  Ties = "shared"
	TiesPlayoff Ties = "playoff"
)

// Standing is one line of the standings. Scores are in points (win 2,
// draw 1); WinnersScore2 is twice the winners' score, which can be a half.
type Standing struct {
	Place         int
	Entrant       int
	Name          string
	Points        int
	Wins          int
	Draws         int
	Losses        int
	Played        int
	Warnings      int
	SOS           int
	SOSOS         int
	SODOS2        int // twice the sum of beaten opponents' points plus half the drawn ones'
	WinnersScore2 int
	MMS           int
	SOSM          int
	SOSOSM        int
	Total         float64 // Swiss (A) total; 0 for other orders
	Withdrawn     bool
	// Tied is set when the place is shared with another player equal on
	// every criterion (events that share places or hold a playoff).
	Tied bool
	// PlayoffPoints are the points of his playoff games, the last
	// criterion of an event that breaks ties by playoff.
	PlayoffPoints int
	key           []int
	lot           uint64
}

// Field is everything standings are computed from.
type Field struct {
	Entrants []Entrant
	Games    []Game
	Byes     []Bye
	Rounds   int // rounds of the event (played or scheduled), for Swiss (A)
	Seed     int64
	Ties     Ties // "" is by lot
	// Playoff holds the games of playoff rounds (Ties = playoff): they
	// count for nothing but separating players equal on every criterion.
	Playoff []Game
}

// lot is the drawing of lots: a hash of the seed and the name, so that the
// same event imported from two formats draws the same.
func lot(seed int64, name string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s", seed, name)
	return h.Sum64()
}

// Standings ranks the field by order.
func Standings(f Field, order Order) ([]Standing, error) {
	idx := map[int]int{}
	st := make([]Standing, len(f.Entrants))
	for i, e := range f.Entrants {
		idx[e.ID] = i
		st[i] = Standing{Entrant: e.ID, Name: e.Name, MMS: e.MMS0, Withdrawn: e.Withdrawn, lot: lot(f.Seed, e.Name)}
	}
	get := func(id int) (*Standing, error) {
		i, ok := idx[id]
		if !ok {
			return nil, fmt.Errorf("game names entrant %d, who is not in the field", id)
		}
		return &st[i], nil
	}
	type opp struct {
		id     int
		result int // 2 win, 1 draw, 0 loss, from this side
	}
	opps := make([][]opp, len(st))
	for _, g := range f.Games {
		// a game not decided yet (or being replayed) counts nothing, nor
		// does a final no-result: neither a win nor a loss for anyone
		if !g.Result.Decided() || g.Result == FinalNoResult {
			continue
		}
		b, err := get(g.Black)
		if err != nil {
			return nil, err
		}
		w, err := get(g.White)
		if err != nil {
			return nil, err
		}
		bp, wp := g.Result.Points()
		b.Points += bp
		w.Points += wp
		b.Warnings += g.BlackWarnings
		w.Warnings += g.WhiteWarnings
		tally(b, bp, wp)
		tally(w, wp, bp)
		opps[idx[g.Black]] = append(opps[idx[g.Black]], opp{g.White, bp})
		opps[idx[g.White]] = append(opps[idx[g.White]], opp{g.Black, wp})
	}
	for _, by := range f.Byes {
		s, err := get(by.Player)
		if err != nil {
			return nil, err
		}
		s.Points += by.Points
	}
	for i := range st {
		st[i].MMS += st[i].Points
	}
	for i := range st {
		for _, o := range opps[i] {
			os := st[idx[o.id]]
			st[i].SOS += os.Points
			st[i].SOSM += os.MMS
			switch o.result {
			case WinPoints:
				st[i].WinnersScore2 += 2 * os.Points
				st[i].SODOS2 += 2 * os.Points
			case DrawPoints:
				st[i].WinnersScore2 += os.Points
				st[i].SODOS2 += os.Points
			}
		}
	}
	for i := range st {
		for _, o := range opps[i] {
			st[i].SOSOS += st[idx[o.id]].SOS
			st[i].SOSOSM += st[idx[o.id]].SOSM
		}
	}
	r := f.Rounds
	for i := range st {
		s := &st[i]
		switch order {
		case RoundRobinOrder:
			s.key = []int{s.Points, s.WinnersScore2, -s.Warnings}
		case SwissTotalOrder:
			// total·R = points·R + SOS − R² keeps the comparison exact
			if r <= 0 {
				return nil, fmt.Errorf("swiss total needs the number of rounds")
			}
			s.key = []int{s.Points*r + s.SOS - r*r, -s.Warnings}
			s.Total = float64(s.Points) + float64(s.SOS)/float64(r) - float64(r)
		case SwissTotalReachedOrder:
			// b the highest score reached: total·b = points·b + 2·SOS − R·b
			b := highestReached(st)
			s.key = []int{s.Points*b + 2*s.SOS - r*b, -s.Warnings}
			s.Total = float64(s.Points) + 2*float64(s.SOS)/float64(b) - float64(r)
		case SwissSOSOrder:
			s.key = []int{s.Points, s.SOS, -s.Warnings}
		case SwissSOSExtendedOrder:
			s.key = []int{s.Points, s.SOS, s.SOSOS, s.SODOS2, -s.Warnings}
		case McMahonOrder:
			s.key = []int{s.MMS, s.SOSM, s.SOSOSM, -s.Warnings}
		default:
			return nil, fmt.Errorf("unknown standings order %q", order)
		}
	}
	if f.Ties == TiesPlayoff {
		for _, g := range f.Playoff {
			bp, wp := g.Result.Points()
			if b, err := get(g.Black); err == nil {
				b.PlayoffPoints += bp
			}
			if w, err := get(g.White); err == nil {
				w.PlayoffPoints += wp
			}
		}
		for i := range st {
			st[i].key = append(st[i].key, st[i].PlayoffPoints)
		}
	}
	sort.SliceStable(st, func(a, b int) bool {
		x, y := st[a], st[b]
		if x.Withdrawn != y.Withdrawn && order == RoundRobinOrder {
			return !x.Withdrawn // results voided: listed last
		}
		for k := range x.key {
			if x.key[k] != y.key[k] {
				return x.key[k] > y.key[k]
			}
		}
		if x.lot != y.lot {
			return x.lot < y.lot
		}
		return x.Name < y.Name
	})
	for i := range st {
		st[i].Place = i + 1
		if f.Ties == TiesShared || f.Ties == TiesPlayoff {
			if i > 0 && slices.Equal(st[i].key, st[i-1].key) && st[i].Withdrawn == st[i-1].Withdrawn {
				st[i].Place, st[i].Tied, st[i-1].Tied = st[i-1].Place, true, true
			}
		}
	}
	return st, nil
}

// highestReached is the highest score a player reached, at least one
// point so that a field without a result still ranks.
func highestReached(st []Standing) int {
	best := 1
	for _, s := range st {
		best = max(best, s.Points)
	}
	return best
}

func tally(s *Standing, mine, theirs int) {
	s.Played++
	switch {
	case mine > theirs || (mine == WinPoints && theirs == WinPoints):
		s.Wins++
	case mine == theirs && mine == DrawPoints:
		s.Draws++
	default:
		s.Losses++
	}
}

// ApplyWithdrawals applies the rules for players who left a round robin
// (Chinese rules, art. 28): one who played fewer than half the rounds has
// every result voided; otherwise his results stand and his remaining games
// are forfeits to his opponents. totalRounds is the length of the event.
// In Swiss events results stand and he is simply no longer paired, so
// nothing changes here. It returns the games as they count.
func ApplyWithdrawals(entrants []Entrant, games []Game, totalRounds int) []Game {
	gone := map[int]Entrant{}
	for _, e := range entrants {
		if e.Withdrawn {
			gone[e.ID] = e
		}
	}
	if len(gone) == 0 {
		return games
	}
	played := map[int]int{}
	for _, g := range games {
		if g.Result.Decided() {
			played[g.Black]++
			played[g.White]++
		}
	}
	out := make([]Game, 0, len(games))
	for _, g := range games {
		_, bGone := gone[g.Black]
		_, wGone := gone[g.White]
		void := (bGone && 2*played[g.Black] < totalRounds) || (wGone && 2*played[g.White] < totalRounds)
		if void {
			continue
		}
		if !g.Result.Decided() {
			switch {
			case bGone && wGone:
				g.Result = BothLose
			case bGone:
				g.Result = WhiteForfeit
			case wGone:
				g.Result = BlackForfeit
			}
		}
		out = append(out, g)
	}
	return out
}
