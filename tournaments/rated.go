package tournaments

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// RatedGame is a game played on the board, as ratings and the audit read
// it: who played whom (registered players by id, guests by name), at which
// ranks, with which advantage and result; without the record's body.
type RatedGame struct {
	Tournament         int64
	Date               time.Time // the event's first day
	Round, Board       int
	BlackID, WhiteID   int64 // 0 for a guest
	BlackName          string
	WhiteName          string
	BlackRank          registry.Rank
	WhiteRank          registry.Rank
	Handicap           int
	Komi               float64
	Result             Result // BlackWins, WhiteWins or Draw: forfeits and unplayed games are not rated
	HasRecord, Flagged bool
}

// RatedGames lists the games played on the board in events that started
// from from (inclusive) to to (exclusive), in order of event, round and
// board. A game whose result was voided for cheating is not rated.
func RatedGames(ctx context.Context, q ledger.Querier, from, to time.Time) ([]RatedGame, error) {
	rows, err := q.Query(ctx, `SELECT t.id, t.start_date, g.round, g.board,
			coalesce(b.player_id, 0), coalesce(w.player_id, 0), b.name, w.name, b.rank, w.rank,
			g.handicap, t.komi, `+ratedResultSQL+`, g.record <> '', g.flagged
		FROM tournament_games g
		JOIN tournaments t ON t.id = g.tournament_id
		JOIN participants b ON b.tournament_id = g.tournament_id AND b.number = g.black
		JOIN participants w ON w.tournament_id = g.tournament_id AND w.number = g.white
		WHERE t.start_date >= $1 AND t.start_date < $2 AND (`+ratedResultSQL+`) <> '' AND g.voided = ''
		ORDER BY t.start_date, t.id, g.round, g.board`, from, to)
	if err != nil {
		return nil, fmt.Errorf("rated games: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (RatedGame, error) {
		var g RatedGame
		err := r.Scan(&g.Tournament, &g.Date, &g.Round, &g.Board, &g.BlackID, &g.WhiteID, &g.BlackName, &g.WhiteName,
			&g.BlackRank, &g.WhiteRank, &g.Handicap, &g.Komi, &g.Result, &g.HasRecord, &g.Flagged)
		return g, err
	})
}
