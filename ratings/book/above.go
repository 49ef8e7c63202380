package book

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// MaxAbove bounds RatedAbove: a place deeper in a list is not counted.
const MaxAbove = 5000

// RatedAbove returns who is rated above a rating in the public list of a
// province (code; "" for the national one, guests too, as 0), strongest
// first, at most limit (and MaxAbove); more is true when the list holds
// more. A player's place is one more than those of them the list shows.
func (b *Book) RatedAbove(ctx context.Context, province string, rating float64, limit int) (ids []int64, more bool, err error) {
	if limit <= 0 || limit > MaxAbove {
		limit = MaxAbove
	}
	where := `seen AND mean > $1`
	args := []any{rating, limit + 1}
	if province != "" {
		where += ` AND province = $3`
		args = append(args, province)
	}
	rows, err := b.store.DB().Query(ctx, `SELECT coalesce(player_id, 0) FROM rating_players WHERE `+where+` ORDER BY mean DESC, id DESC LIMIT $2`, args...)
	if err != nil {
		return nil, false, fmt.Errorf("rated above %.1f: %w", rating, err)
	}
	ids, err = pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, false, fmt.Errorf("rated above %.1f: %w", rating, err)
	}
	if len(ids) > limit {
		return ids[:limit], true, nil
	}
	return ids, false, nil
}
