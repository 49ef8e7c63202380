package tournaments

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// MaxPlayerEvents bounds how many of a player's events PlayerEvents returns.
const MaxPlayerEvents = 50

// PlayerEvents returns the ids of the events a registered player took part
// in, newest first, at most limit (and MaxPlayerEvents): his page lists
// them with his games.
func (s *Service) PlayerEvents(ctx context.Context, playerID int64, limit int) ([]int64, error) {
	if limit <= 0 || limit > MaxPlayerEvents {
		limit = MaxPlayerEvents
	}
	rows, err := s.db.Query(ctx, `SELECT t.id FROM participants p JOIN tournaments t ON t.id = p.tournament_id
		WHERE p.player_id = $1 ORDER BY t.start_date DESC, t.id DESC LIMIT $2`, playerID, limit)
	if err != nil {
		return nil, fmt.Errorf("events of player %d: %w", playerID, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("events of player %d: %w", playerID, err)
	}
	return ids, nil
}
