package registry

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// PubliclyListed reads those of the players ids whom the public player
// search lists, by id: records kept (not merged into another) of adults,
// the search's rule for a public reader (SearchPlayers), so that the open
// data's lists show nobody the search hides. The others are left out.
func (s *Service) PubliclyListed(ctx context.Context, ids []int64) (map[int64]Player, error) {
	out := map[int64]Player{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.store.DB().Query(ctx, `SELECT `+playerColumns+` FROM players
		WHERE id = ANY($1) AND merged_into IS NULL AND birth_date <= $2`, ids, lastAdultBirthDate(s.store.Now()))
	if err != nil {
		return nil, fmt.Errorf("publicly listed players: %w", err)
	}
	ps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Player, error) { return scanPlayer(r) })
	if err != nil {
		return nil, fmt.Errorf("publicly listed players: %w", err)
	}
	for _, p := range ps {
		out[p.ID] = p
	}
	return out, nil
}
