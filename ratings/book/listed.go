package book

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
)

// Listed is a registered player's rating as the open data's rating lists
// carry it: the rating as it stands, how many events were rated for him
// and the last of them.
type Listed struct {
	Rating           // without History
	Events    int    // rated events
	LastEvent int64  // the last rated event (tournament id)
	LastDate  string // its date, YYYY-MM-DD
}

// ListCursor is where a page of ListedPage ended: its last row's rating
// and book id. The zero cursor starts at the top.
type ListCursor struct {
	Mean float64
	ID   int64
}

// MaxListedPage bounds one page of ListedPage.
const MaxListedPage = 1000

// ListedPage returns the next page of the registered players' rating list
// of a province (code; "" for all), strongest first, after the cursor:
// keyset pages, so that a whole list is read in bounded pieces and each
// page costs the same however deep it starts. Guests are not listed: the
// registry's lists are of its players (the EGD lists the others).
func (b *Book) ListedPage(ctx context.Context, province string, after ListCursor, limit int) ([]Listed, error) {
	if province != "" {
		if _, ok := registry.ProvinceByCode(province); !ok {
			return nil, ReasonListProvince.OnField("province_code", "value", province)
		}
	}
	if limit <= 0 || limit > MaxListedPage {
		limit = MaxListedPage
	}
	mean, id := math.Inf(1), int64(math.MaxInt64)
	if after.ID != 0 {
		mean, id = after.Mean, after.ID
	}
	// one statement per filter: a generic plan of ($1 = '' OR …) would not
	// pick the province's index
	where := `seen AND player_id IS NOT NULL AND (mean, id) < ($1, $2)`
	args := []any{mean, id, limit}
	if province != "" {
		where += ` AND province = $4`
		args = append(args, province)
	}
	rows, err := b.store.DB().Query(ctx, `SELECT `+ratingColumns+`,
		(SELECT count(*) FROM rating_history h WHERE h.rating_player_id = rating_players.id),
		coalesce(l.tournament_id, 0), coalesce(l.event_date, 'epoch'::date)
		FROM rating_players
		LEFT JOIN LATERAL (SELECT tournament_id, event_date FROM rating_history h
			WHERE h.rating_player_id = rating_players.id ORDER BY seq DESC LIMIT 1) l ON true
		WHERE `+where+` ORDER BY mean DESC, id DESC LIMIT $3`, args...)
	if err != nil {
		return nil, fmt.Errorf("rating list page: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Listed, error) {
		var (
			x    Listed
			v    float64
			last time.Time
		)
		err := r.Scan(&x.RatingID, &x.PlayerID, &x.Name, &x.Country, &x.EGDPin, &x.Province, &x.Rating.Rating, &v, &x.Games, &x.UpdatedAt,
			&x.Events, &x.LastEvent, &last)
		x.SD = math.Sqrt(v)
		x.Estimate = ratings.EstimateRank(x.Rating.Rating, x.SD)
		x.LastDate = last.Format(time.DateOnly)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("rating list page: %w", err)
	}
	return out, nil
}

// Cursor is where a page ending with x ends.
func (x Listed) Cursor() ListCursor { return ListCursor{Mean: x.Rating.Rating, ID: x.RatingID} }
