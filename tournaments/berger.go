package tournaments

import "strconv"

// Pair is one pairing: players numbered from 1; B == 0 is a bye for A.
type Pair struct {
	A, B int
}

// Bye reports whether the pair is a bye.
func (p Pair) Bye() bool { return p.B == 0 }

// MaxRoundRobinPlayers bounds a round robin (a field beyond it is a Swiss event).
const MaxRoundRobinPlayers = 1000

// RoundRobin returns the rounds of a round robin for n players from the
// Berger tables as the FIDE handbook prints them (C.05, Annex 1): each pair
// in the printed order, the first-named player first. An odd field plays
// the table of n+1 with the last number as the bye, so every player sits out
// once. A double round robin repeats the cycle with each pair reversed, which
// swaps the colours.
func RoundRobin(n int, double bool) ([][]Pair, error) {
	if n < 2 || n > MaxRoundRobinPlayers {
		return nil, ReasonRoundRobinSize.New("players", strconv.Itoa(n), "max", strconv.Itoa(MaxRoundRobinPlayers))
	}
	m := n
	if m%2 == 1 {
		m++ // the bye is player m
	}
	half, rot := m/2, m-1
	// table holds round 1: table 1 is 1 against m, table k is k against m+1-k.
	table := make([]Pair, half)
	table[0] = Pair{1, m}
	for k := 2; k <= half; k++ {
		table[k-1] = Pair{k, m + 1 - k}
	}
	shift := func(p int) int { return (p-1+half)%rot + 1 }
	var rounds [][]Pair
	for r := 1; r <= rot; r++ {
		round := make([]Pair, 0, half)
		for k, p := range table {
			if k == 0 {
				// the fixed player m is named second in odd rounds, first in even ones
				other := p.A
				if p.A == m {
					other = p.B
				}
				p = Pair{other, m}
				if r%2 == 0 {
					p = Pair{m, other}
				}
			}
			round = append(round, p)
		}
		rounds = append(rounds, round)
		// next round: every number but m moves on by half the field
		next := make([]Pair, half)
		for k, p := range round {
			a, b := p.A, p.B
			if a != m {
				a = shift(a)
			}
			if b != m {
				b = shift(b)
			}
			next[k] = Pair{a, b}
		}
		table = next
	}
	if double {
		cycle := len(rounds)
		for r := range cycle {
			rev := make([]Pair, len(rounds[r]))
			for k, p := range rounds[r] {
				rev[k] = Pair{p.B, p.A}
			}
			rounds = append(rounds, rev)
		}
	}
	if n != m { // odd field: the pair with player m is the bye
		for _, round := range rounds {
			for k, p := range round {
				switch m {
				case p.A:
					round[k] = Pair{p.B, 0}
				case p.B:
					round[k] = Pair{p.A, 0}
				}
			}
		}
	}
	return rounds, nil
}
