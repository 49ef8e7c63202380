package audit

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Supervisions returns, per agency, the ruling that has it under
// supervision (监管) on day: its newest ruling whose supervision period has
// not ended. Public: the agencies' page shows it while the period lasts.
func (s *Service) Supervisions(ctx context.Context, day time.Time) (map[string]Ruling, error) {
	rows, err := s.store.DB().Query(ctx, `SELECT DISTINCT ON (agency_prefix) `+rulingColumns+` FROM audit_rulings
		WHERE supervision_until >= $1 ORDER BY agency_prefix, year DESC`, dateOf(day))
	if err != nil {
		return nil, fmt.Errorf("supervisions: %w", err)
	}
	rs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Ruling, error) { return scanRuling(r) })
	if err != nil {
		return nil, fmt.Errorf("supervisions: %w", err)
	}
	out := make(map[string]Ruling, len(rs))
	for _, r := range rs {
		out[r.AgencyPrefix] = r
	}
	return out, nil
}
