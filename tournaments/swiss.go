package tournaments

import (
	"math/rand/v2"
	"sort"
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
func PairSwiss(players []SwissPlayer, seed uint64) (SwissRound, error) {
	ps := append([]SwissPlayer(nil), players...)
	sort.SliceStable(ps, func(a, b int) bool {
		x, y := ps[a], ps[b]
		if x.Score != y.Score {
			return x.Score > y.Score
		}
		if x.Strength != y.Strength {
			return x.Strength > y.Strength
		}
		return x.ID < y.ID
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
	p := &pairer{ps: ps, used: make([]bool, len(ps)), partner: make([]int, len(ps)), budget: 2_000_000}
	if !p.pair(0) {
		return SwissRound{}, ReasonNoPairing.New("players", strconv.Itoa(len(ps)))
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(ps))))
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
	}
	return round, nil
}

type pairer struct {
	ps      []SwissPlayer
	used    []bool
	partner []int
	budget  int
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

// candidates orders the partners tried for player i: first the player
// half a score group below (split), then the rest of the group, then the
// lower groups in order.
func (p *pairer) candidates(i int) []int {
	var group, rest []int
	for j := i + 1; j < len(p.ps); j++ {
		if p.used[j] {
			continue
		}
		if p.ps[j].Score == p.ps[i].Score {
			group = append(group, j)
		} else {
			rest = append(rest, j)
		}
	}
	// the unpaired top of the group is i and group; i takes the one half-way down
	half := (len(group)+1)/2 - 1
	if half < 0 {
		half = 0
	}
	out := make([]int, 0, len(group)+len(rest))
	if len(group) > 0 {
		out = append(out, group[half:]...)
		for k := half - 1; k >= 0; k-- {
			out = append(out, group[k])
		}
	}
	return append(out, rest...)
}

func (p *pairer) pair(from int) bool {
	i := from
	for i < len(p.ps) && p.used[i] {
		i++
	}
	if i == len(p.ps) {
		return true
	}
	p.used[i] = true
	for _, j := range p.candidates(i) {
		if p.budget--; p.budget < 0 {
			break
		}
		if !compatible(p.ps[i], p.ps[j]) {
			continue
		}
		p.used[j] = true
		p.partner[i], p.partner[j] = j, i
		if p.pair(i + 1) {
			return true
		}
		p.used[j] = false
	}
	p.used[i] = false
	return false
}
