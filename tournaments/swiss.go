package tournaments

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
)

// SwissPlayer is a player's state before a Swiss or McMahon round.
type SwissPlayer struct {
	ID       int
	Score    int // points so far; for McMahon, the McMahon score
	Strength int // rank as a number (higher is stronger), orders players within a score
	Met      map[int]bool
	Colour   int // blacks minus whites so far
	HadBye   bool
	// Avoid are the player's keys of the event's pairing constraint (his
	// club, school, family), namespaced by the caller ("club:12"); players
	// sharing one are kept apart where the round allows. Empty outside the
	// rounds the constraint covers.
	Avoid []string
}

// Pairing is one game of a new round: Black and White are player IDs.
type Pairing struct {
	Black, White int
	Nigiri       bool // colours were drawn, the players' balances being equal
}

// SwissRound is a paired round.
type SwissRound struct {
	Pairs []Pairing
	Bye   int // 0 when the field is even
	// Together are the pairs that share an Avoid key: the constraint could
	// not hold for every pair of the round (reported, never refused).
	Together []Pairing
}

// maxColourImbalance is how far blacks and whites may drift apart.
const maxColourImbalance = 2

// PairSwiss pairs a round by score: players are ordered by score, then
// strength, then ID; an odd field gives the bye to the lowest-placed player
// who has not had one; each score group is split in halves, the top half
// meeting the bottom half (sliding down to the next group when it must), no
// two players meet twice and no colour balance passes ±2. The lower balance
// takes black; equal balances draw colours (nigiri) from seed, so the same
// inputs and seed give the same round.
//
// Players sharing an Avoid key (same club, school, family) are kept apart
// like players who have met; when no round keeps them all apart the round
// is paired again without that constraint and the pairs that break it are
// reported in SwissRound.Together (a soft constraint, as OpenGotha and
// pairgoth treat it: the round is never refused for it).
func PairSwiss(players []SwissPlayer, seed uint64) (SwissRound, error) {
	ps := append([]SwissPlayer(nil), players...)
	slices.SortStableFunc(ps, func(x, y SwissPlayer) int {
		if c := cmp.Compare(y.Score, x.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Strength, x.Strength); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	var round SwissRound
	if len(ps)%2 == 1 {
		at := len(ps) - 1
		for i := len(ps) - 1; i >= 0; i-- {
			if !ps[i].HadBye {
				at = i
				break
			}
		}
		round.Bye = ps[at].ID
		ps = append(ps[:at], ps[at+1:]...)
	}
	p := newPairer(ps)
	avoiding := false
	for _, x := range ps {
		if len(x.Avoid) > 0 {
			avoiding = true
			break
		}
	}
	p.avoid = avoiding
	if !p.pair(0) {
		if !avoiding {
			return SwissRound{}, ReasonNoPairing.New("players", strconv.Itoa(len(ps)))
		}
		// the constraint cannot hold for every pair: pair without it
		p = newPairer(ps)
		if !p.pair(0) {
			return SwissRound{}, ReasonNoPairing.New("players", strconv.Itoa(len(ps)))
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(ps))))
	round.Pairs = make([]Pairing, 0, len(ps)/2)
	for i, j := range p.partner {
		if j < i {
			continue
		}
		a, b := ps[i], ps[j]
		pr := Pairing{Black: a.ID, White: b.ID}
		switch {
		case a.Colour > b.Colour:
			pr = Pairing{Black: b.ID, White: a.ID}
		case a.Colour == b.Colour:
			pr.Nigiri = true
			if rng.IntN(2) == 1 {
				pr.Black, pr.White = b.ID, a.ID
			}
		}
		round.Pairs = append(round.Pairs, pr)
		if avoiding && shareKey(a.Avoid, b.Avoid) {
			round.Together = append(round.Together, pr)
		}
	}
	return round, nil
}

// pairer searches depth first for a pairing of ps (sorted by score). It
// allocates its three slices once: the candidates of a player are walked
// in place (the score group is a run of the sorted field), not gathered.
type pairer struct {
	ps       []SwissPlayer
	used     []bool
	partner  []int
	groupEnd []int // groupEnd[i]: the first index past i's score group
	budget   int
	avoid    bool // keep players sharing an Avoid key apart
}

func newPairer(ps []SwissPlayer) *pairer {
	p := &pairer{ps: ps, used: make([]bool, len(ps)), partner: make([]int, len(ps)), groupEnd: make([]int, len(ps)), budget: 2_000_000}
	for i := len(ps) - 1; i >= 0; i-- {
		if i == len(ps)-1 || ps[i+1].Score != ps[i].Score {
			p.groupEnd[i] = i + 1
		} else {
			p.groupEnd[i] = p.groupEnd[i+1]
		}
	}
	return p
}

// shareKey reports whether two players share an Avoid key.
func shareKey(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

func compatible(a, b SwissPlayer) bool {
	if a.Met[b.ID] || b.Met[a.ID] {
		return false
	}
	// one of them takes black: some assignment must keep both within bounds
	ok := func(black, white SwissPlayer) bool {
		return black.Colour+1 <= maxColourImbalance && white.Colour-1 >= -maxColourImbalance
	}
	return ok(a, b) || ok(b, a)
}

// try pairs i with j and the rest after; false when j does not fit or the
// rest cannot be paired.
func (p *pairer) try(i, j int) (done, stop bool) {
	if p.budget--; p.budget < 0 {
		return false, true
	}
	if !compatible(p.ps[i], p.ps[j]) || (p.avoid && shareKey(p.ps[i].Avoid, p.ps[j].Avoid)) {
		return false, false
	}
	p.used[j] = true
	p.partner[i], p.partner[j] = j, i
	if p.pair(i + 1) {
		return true, false
	}
	p.used[j] = false
	return false, false
}

// pair pairs the unused players from index from on. The partners tried for
// player i come in this order: first the player half-way down the unpaired
// rest of i's score group (the split: top half meets bottom half), then
// the rest of that bottom part, then the group's players above the half
// nearest first, then the lower groups in order.
func (p *pairer) pair(from int) bool {
	i := from
	for i < len(p.ps) && p.used[i] {
		i++
	}
	if i == len(p.ps) {
		return true
	}
	p.used[i] = true
	end := p.groupEnd[i]
	m := 0 // unpaired in i's group after i
	for j := i + 1; j < end; j++ {
		if !p.used[j] {
			m++
		}
	}
	half := max((m+1)/2-1, 0)
	// at is the index of the half-th unpaired player of the group
	at, k := end, 0
	for j := i + 1; j < end; j++ {
		if p.used[j] {
			continue
		}
		if k == half {
			at = j
			break
		}
		k++
	}
	for j := at; j < end; j++ {
		if p.used[j] {
			continue
		}
		if done, stop := p.try(i, j); done {
			return true
		} else if stop {
			p.used[i] = false
			return false
		}
	}
	for j := at - 1; j > i; j-- {
		if p.used[j] {
			continue
		}
		if done, stop := p.try(i, j); done {
			return true
		} else if stop {
			p.used[i] = false
			return false
		}
	}
	for j := end; j < len(p.ps); j++ {
		if p.used[j] {
			continue
		}
		if done, stop := p.try(i, j); done {
			return true
		} else if stop {
			p.used[i] = false
			return false
		}
	}
	p.used[i] = false
	return false
}
