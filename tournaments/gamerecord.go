package tournaments

import (
	"context"
	"fmt"

	"github.com/dankyu/dankyu/ledger"
)

// GameRecord returns one game of an event with its SGF record (empty when
// none was uploaded), for its page.
func (s *Service) GameRecord(ctx context.Context, id int64, round, board int) (GameRow, error) {
	g, err := s.game(ctx, s.db, id, round, board)
	if err != nil {
		return GameRow{}, err
	}
	if g.HasRecord {
		if err := s.db.QueryRow(ctx, `SELECT record FROM tournament_games WHERE tournament_id = $1 AND round = $2 AND board = $3`,
			id, round, board).Scan(&g.Record); err != nil {
			return GameRow{}, ledger.PgErr(err, fmt.Sprintf("record of tournament %d round %d board %d", id, round, board))
		}
	}
	return g, nil
}
