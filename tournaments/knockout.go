package tournaments

import "strconv"

// seedOrder is the bracket positions of seeds 1..size (size a power of
// two): 1 and 2 can meet only in the final, 1–4 only in the semi-finals …
func seedOrder(size int) []int {
	order := []int{1}
	for n := 2; n <= size; n *= 2 {
		next := make([]int, 0, n)
		for _, s := range order {
			next = append(next, s, n+1-s)
		}
		order = next
	}
	return order
}

// KnockoutBracket returns the first round of a single-elimination bracket
// for n seeded players (1 the strongest): the bracket is filled to a power of
// two and the missing places are byes for the top seeds.
func KnockoutBracket(n int) ([]Pair, error) {
	if n < 2 || n > 4096 {
		return nil, ReasonKnockoutSize.New("players", strconv.Itoa(n), "max", "4096")
	}
	size := 1
	for size < n {
		size *= 2
	}
	order := seedOrder(size)
	var pairs []Pair
	for i := 0; i < size; i += 2 {
		a, b := order[i], order[i+1]
		if b > n {
			b = 0
		}
		pairs = append(pairs, Pair{a, b})
	}
	return pairs, nil
}

// NextKnockoutRound pairs the winners of a round in bracket order.
func NextKnockoutRound(winners []int) ([]Pair, error) {
	if len(winners) < 2 || len(winners)%2 != 0 {
		return nil, ReasonKnockoutWinners.New("winners", strconv.Itoa(len(winners)))
	}
	var pairs []Pair
	for i := 0; i < len(winners); i += 2 {
		pairs = append(pairs, Pair{winners[i], winners[i+1]})
	}
	return pairs, nil
}

// replayBracket returns the games of one round of a single elimination:
// round 1 from the entries in seed order (strongest first, the top seeds
// getting the byes of an incomplete bracket), each later round from the
// winners of the one before, as winner reports them. Once one entry is
// left it is returned as the champion, with no games.
func replayBracket(seeds []int, round int, winner func(round int, p Pair) (int, error)) ([]Pair, int, error) {
	bracket, err := KnockoutBracket(len(seeds))
	if err != nil {
		return nil, 0, err
	}
	slots := make([]Pair, len(bracket))
	for i, p := range bracket {
		slots[i] = Pair{A: seeds[p.A-1]}
		if !p.Bye() {
			slots[i].B = seeds[p.B-1]
		}
	}
	for k := 1; k < round; k++ {
		var winners []int
		for _, p := range slots {
			if p.Bye() {
				winners = append(winners, p.A)
				continue
			}
			w, err := winner(k, p)
			if err != nil {
				return nil, 0, err
			}
			winners = append(winners, w)
		}
		if len(winners) == 1 {
			return nil, winners[0], nil
		}
		if slots, err = NextKnockoutRound(winners); err != nil {
			return nil, 0, err
		}
	}
	var games []Pair
	for _, p := range slots {
		if !p.Bye() {
			games = append(games, p)
		}
	}
	return games, 0, nil
}
