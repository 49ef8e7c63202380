package book

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
)

// Point is a player's rating after one event.
type Point struct {
	Tournament int64
	EventName  string
	Date       time.Time
	Rating, SD float64
	Games      int
	Wins       float64 // draws count half
	ComputedBy string  // incremental or recompute
	Run        int64
	Estimate   ratings.Estimate
}

// Rating is a player's rating as it stands, with its history (oldest
// first) and a rank estimate.
type Rating struct {
	Player
	Rating, SD float64
	Games      int
	Estimate   ratings.Estimate // the grade the rating stands for, with its 95 % interval
	UpdatedAt  time.Time
	History    []Point
}

const ratingColumns = `id, coalesce(player_id, 0), name, country, egd_pin, province, mean, variance, games, coalesce(updated_at, 'epoch'::timestamptz)`

func scanRating(r pgx.Row) (Rating, error) {
	var (
		x Rating
		v float64
	)
	err := r.Scan(&x.RatingID, &x.PlayerID, &x.Name, &x.Country, &x.EGDPin, &x.Province, &x.Rating, &v, &x.Games, &x.UpdatedAt)
	x.SD = math.Sqrt(v)
	x.Estimate = ratings.EstimateRank(x.Rating, x.SD)
	return x, err
}

// PlayerRating returns a registered player's rating and history;
// ReasonNotRated when none of his games has been rated.
func (b *Book) PlayerRating(ctx context.Context, playerID int64) (Rating, error) {
	return b.rating(ctx, b.store.DB(), `player_id = $1`, playerID)
}

// CurrentRating reads a registered player's current rating in q (the
// caller's transaction); rated is false when none of his games is rated.
func (b *Book) CurrentRating(ctx context.Context, q ledger.Querier, playerID int64) (rating float64, rated bool, err error) {
	err = q.QueryRow(ctx, `SELECT mean FROM rating_players WHERE seen AND player_id = $1`, playerID).Scan(&rating)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, fmt.Errorf("current rating of player %d: %w", playerID, err)
	}
	return rating, true, nil
}

// RatingByID returns anyone's rating (guests too) by the book's id.
func (b *Book) RatingByID(ctx context.Context, ratingID int64) (Rating, error) {
	return b.rating(ctx, b.store.DB(), `id = $1`, ratingID)
}

func (b *Book) rating(ctx context.Context, q ledger.Querier, where string, id int64) (Rating, error) {
	x, err := scanRating(q.QueryRow(ctx, `SELECT `+ratingColumns+` FROM rating_players WHERE seen AND `+where, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Rating{}, ReasonNotRated.New("player", strconv.FormatInt(id, 10))
	}
	if err != nil {
		return Rating{}, fmt.Errorf("rating %d: %w", id, err)
	}
	x.History, err = history(ctx, q, x.RatingID)
	return x, err
}

func history(ctx context.Context, q ledger.Querier, ratingID int64) ([]Point, error) {
	rows, err := q.Query(ctx, `SELECT tournament_id, event_name, event_date, rating, sd, games, wins, computed_by, run_id
		FROM rating_history WHERE rating_player_id = $1 ORDER BY seq`, ratingID)
	if err != nil {
		return nil, fmt.Errorf("rating history: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Point, error) {
		var p Point
		err := r.Scan(&p.Tournament, &p.EventName, &p.Date, &p.Rating, &p.SD, &p.Games, &p.Wins, &p.ComputedBy, &p.Run)
		p.Estimate = ratings.EstimateRank(p.Rating, p.SD)
		return p, err
	})
}

// ListQuery selects a public rating list: registered players of one
// province (code, e.g. "11"; empty for all, guests included) and of one
// estimated rank (e.g. "3d", "5k"; empty for all), strongest first.
type ListQuery struct {
	Province string
	Rank     string
	Limit    int // default and at most MaxList (MaxList+1 to learn whether more follow)
	Offset   int
}

// MaxList is the longest list one call returns.
const MaxList = 200

// MaxOffset bounds how deep into a list a page may start.
const MaxOffset = 1_000_000

// ListRatings returns the rating list the query selects.
func (b *Book) ListRatings(ctx context.Context, q ListQuery) ([]Rating, error) {
	lo, hi := math.Inf(-1), math.Inf(1)
	if q.Rank != "" {
		r, err := registry.ParseRank(q.Rank)
		if err != nil || r == registry.NoRank {
			return nil, ReasonListRank.OnField("rank", "value", q.Rank)
		}
		// the ratings that round to this grade (GoRRank), the floor and
		// the top taking everything beyond them
		g := ratings.GradeGoR(int(r))
		lo, hi = g-50, g+50
		if r == registry.LowestKyu {
			lo = math.Inf(-1)
		}
	}
	if q.Province != "" {
		if _, ok := registry.ProvinceByCode(q.Province); !ok {
			return nil, ReasonListProvince.OnField("province_code", "value", q.Province)
		}
	}
	// a caller may ask for one row past a full page, to learn whether a
	// next page exists
	limit := q.Limit
	if limit <= 0 || limit > MaxList+1 {
		limit = MaxList
	}
	rows, err := b.store.DB().Query(ctx, `SELECT `+ratingColumns+` FROM rating_players
		WHERE seen AND ($1 = '' OR province = $1) AND mean >= $2 AND mean < $3
		ORDER BY mean DESC, id LIMIT $4 OFFSET $5`, q.Province, lo, hi, limit, min(max(q.Offset, 0), MaxOffset))
	if err != nil {
		return nil, fmt.Errorf("rating list: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Rating, error) { return scanRating(r) })
}
