package audit

import (
	"context"

	"github.com/dankyu/dankyu/ledger"
)

// ScorecardsNow computes the scorecards of year from the log's present
// position, for tests that show a snapshot differs from the present.
func (s *Service) ScorecardsNow(ctx context.Context, year int, agencies []string) (map[string][]Indicator, error) {
	pos, err := ledger.LastEventID(ctx, s.store.DB())
	if err != nil {
		return nil, err
	}
	cards, _, err := s.scorecards(ctx, s.store.DB(), pos, s.cfg.Period(year), agencies)
	return cards, err
}

// ReplayedGame is a game as the audit's pass over the log leaves it.
type ReplayedGame struct {
	Black, White int
	Result       string
	Playoff      bool
}

// ReplayedGames returns every tournament's games, by round and board, as
// the audit's pass over the whole log (up to the end of year's period)
// replays them.
func (s *Service) ReplayedGames(ctx context.Context, year int) (map[int64]map[[2]int]ReplayedGame, error) {
	pos, err := ledger.LastEventID(ctx, s.store.DB())
	if err != nil {
		return nil, err
	}
	f, err := replay(ctx, s.store.DB(), pos, s.cfg.Period(year), nil, nil)
	if err != nil {
		return nil, err
	}
	out := map[int64]map[[2]int]ReplayedGame{}
	for id, t := range f.events {
		out[id] = map[[2]int]ReplayedGame{}
		t.games.each(func(k gameKey, g *gameState) {
			out[id][[2]int{k.round, k.board}] = ReplayedGame{Black: int(g.black), White: int(g.white), Result: f.results[g.result], Playoff: g.playoff}
		})
	}
	return out, nil
}
