package tournaments

import (
	"context"
	"fmt"

	"github.com/dankyu/dankyu/ledger"
)

// GameRecord returns one game of an event with its SGF record (empty when
// none was uploaded), for its page.
func (s *Service) GameRecord(ctx context.Context, id int64, round, board int) (GameRow, error) {
	var g GameRow
	err := s.db.QueryRow(ctx, `SELECT round, board, black, white, nigiri, handicap, result, black_warnings, white_warnings,
		record, adjudicated, flagged, flag_reason FROM tournament_games WHERE tournament_id = $1 AND round = $2 AND board = $3`,
		id, round, board).Scan(&g.Round, &g.Board, &g.Black, &g.White, &g.Nigiri, &g.Handicap, &g.Result, &g.BlackWarnings,
		&g.WhiteWarnings, &g.Record, &g.Adjudicated, &g.Flagged, &g.FlagReason)
	if err != nil {
		return GameRow{}, ledger.PgErr(err, fmt.Sprintf("tournament %d round %d board %d", id, round, board))
	}
	g.HasRecord = g.Record != ""
	return g, nil
}
