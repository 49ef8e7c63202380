package ratings

import "fmt"

// System is what a replay needs from a rating system.
type System interface {
	// Predict returns P(black wins) from the ratings before the game.
	Predict(g *Game) float64
	// Update uses the results of a batch of games, all rated from the
	// ratings before the batch (for a batch of one, simply that game).
	Update(batch []Game)
}

// Batch says how many results a replay withholds before it updates.
type Batch int

const (
	ByGame  Batch = iota // update after every game
	ByRound              // predict all games of one (event, round, date), then update
)

// ParseBatch reads "game" or "round".
func ParseBatch(s string) (Batch, error) {
	switch s {
	case "game":
		return ByGame, nil
	case "round":
		return ByRound, nil
	}
	return 0, fmt.Errorf("batch %q: want game or round", s)
}

func (b Batch) String() string {
	if b == ByRound {
		return "round"
	}
	return "game"
}

// Replay runs sys over games in order and returns, for each game, P(black
// wins) computed before its result (and, with ByRound, before any result of
// its round) was used. A round is a run of consecutive games with the same
// event, round and date: a key met again later starts a new batch, so no
// prediction can see a later result.
func Replay(games []Game, sys System, batch Batch) []float64 {
	p := make([]float64, len(games))
	for i := 0; i < len(games); {
		j := i + 1
		if batch == ByRound {
			for j < len(games) && sameRound(&games[i], &games[j]) {
				j++
			}
		}
		for k := i; k < j; k++ {
			p[k] = sys.Predict(&games[k])
		}
		sys.Update(games[i:j])
		i = j
	}
	return p
}

func sameRound(a, b *Game) bool {
	return a.Day == b.Day && a.Event == b.Event && a.Round == b.Round
}
