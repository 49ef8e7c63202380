package registry

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// The exports below let the other domain packages read and change players
// inside their own transactions.

// PlayerTx reads a player inside tx; with lock set the row stays locked until
// the transaction ends.
func PlayerTx(ctx context.Context, tx pgx.Tx, id int64, lock bool) (Player, error) {
	q := `SELECT ` + playerColumns + ` FROM players WHERE id = $1`
	if lock {
		q += ` FOR UPDATE`
	}
	p, err := scanPlayer(tx.QueryRow(ctx, q, id))
	if err != nil {
		return Player{}, playerErr(err, id)
	}
	return p, nil
}

// SetRank changes a player's rank inside tx and logs why (the certificate
// that caused it).
func SetRank(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, playerID int64, from, to Rank, why string) error {
	if from == to {
		return nil
	}
	if _, err := tx.Exec(ctx, `UPDATE players SET rank = $2, updated_at = $3 WHERE id = $1`, playerID, to, now); err != nil {
		return ledger.PgErr(err, fmt.Sprintf("set rank of player %d", playerID))
	}
	return ledger.AppendEvent(ctx, tx, now, actor, "player.rank_changed", "player", strconv.FormatInt(playerID, 10),
		map[string]any{"from": from.String(), "to": to.String(), "because": why})
}

// playerErr words a failed read of player id: not found, or what PgErr says.
func playerErr(err error, id int64) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ReasonNoSuchPlayer.New("player", strconv.FormatInt(id, 10))
	}
	return ledger.PgErr(err, fmt.Sprintf("player %d", id))
}
