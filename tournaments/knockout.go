package tournaments

import "fmt"

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
		return nil, fmt.Errorf("knockout of %d players: want 2 to 4096", n)
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
		return nil, fmt.Errorf("next knockout round from %d winners: want an even number, at least 2", len(winners))
	}
	var pairs []Pair
	for i := 0; i < len(winners); i += 2 {
		pairs = append(pairs, Pair{winners[i], winners[i+1]})
	}
	return pairs, nil
}
