package tournaments

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// RatingEntrant is one side of a rated game as ratings identify him: a
// registered player by id, a guest by his EGD PIN or his name and country;
// Rank is the rank he entered the event at (certified, else declared).
type RatingEntrant struct {
	PlayerID int64 // 0 for a guest
	Name     string
	Country  string
	EGDPin   string
	Rank     registry.Rank
}

// RatingGame is a game of a finished event as ratings read it.
type RatingGame struct {
	Tournament   int64
	EventName    string
	Date         time.Time // the event's first day
	Round, Board int
	Black, White RatingEntrant
	Handicap     int
	Komi         float64 // the event's komi
	Result       Result  // BlackWins, WhiteWins or Draw
}

// FinishedRatingGames lists the games played on the board in finished
// events (played or imported), only tournament's when it is not 0, in the
// order they are rated: by the event's first day, the event, round and
// board. Games won by default, byes, unplayed and void games are not
// among them: only a result on the board is rated.
func FinishedRatingGames(ctx context.Context, q ledger.Querier, tournament int64) ([]RatingGame, error) {
	rows, err := q.Query(ctx, `SELECT t.id, t.name, t.start_date, g.round, g.board,
			coalesce(b.player_id, 0), b.name, b.country, b.egd_pin, b.rank,
			coalesce(w.player_id, 0), w.name, w.country, w.egd_pin, w.rank,
			g.handicap, t.komi, `+ratedResultSQL+`
		FROM tournament_games g
		JOIN tournaments t ON t.id = g.tournament_id
		JOIN participants b ON b.tournament_id = g.tournament_id AND b.number = g.black
		JOIN participants w ON w.tournament_id = g.tournament_id AND w.number = g.white
		WHERE t.status = 'finished' AND ($1 = 0 OR t.id = $1) AND (`+ratedResultSQL+`) <> '' AND g.voided = ''
		ORDER BY t.start_date, t.id, g.round, g.board`, tournament)
	if err != nil {
		return nil, fmt.Errorf("rating games: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (RatingGame, error) {
		var g RatingGame
		err := r.Scan(&g.Tournament, &g.EventName, &g.Date, &g.Round, &g.Board,
			&g.Black.PlayerID, &g.Black.Name, &g.Black.Country, &g.Black.EGDPin, &g.Black.Rank,
			&g.White.PlayerID, &g.White.Name, &g.White.Country, &g.White.EGDPin, &g.White.Rank,
			&g.Handicap, &g.Komi, &g.Result)
		return g, err
	})
}
