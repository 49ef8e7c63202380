package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// expiredPerSpend bounds the ended windows one spend deletes.
const expiredPerSpend = 64

// SpendRateWindow adds n to the count of limit name for client in the
// fixed window that starts at start and ends at end, if the count stays at
// most max, in one atomic upsert: whichever server process asks, one
// budget. ok is false when it would not (nothing is added then).
func (s *Store) SpendRateWindow(ctx context.Context, name, client string, start, end time.Time, n, max int) (bool, error) {
	if n > max {
		return false, nil
	}
	if _, err := s.db.Exec(ctx, `DELETE FROM rate_windows WHERE (name, client, window_start) IN
		(SELECT name, client, window_start FROM rate_windows WHERE expires_at < $1 ORDER BY expires_at LIMIT $2)`,
		s.Now(), expiredPerSpend); err != nil {
		return false, fmt.Errorf("sweep rate windows: %w", err)
	}
	var used int
	err := s.db.QueryRow(ctx, `INSERT INTO rate_windows (name, client, window_start, used, expires_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (name, client, window_start) DO UPDATE SET used = rate_windows.used + EXCLUDED.used
			WHERE rate_windows.used + EXCLUDED.used <= $6
		RETURNING used`, name, client, start, n, end, max).Scan(&used)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("spend rate window: %w", err)
	}
	return true, nil
}
