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
