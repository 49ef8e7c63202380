package registry

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// The exports below let the other domain packages (certs, and later
// tournaments and audits) change the registry's database with the same
// discipline: one transaction, idempotency keys, and the chained event log.

// Mutate runs fn in a transaction under the idempotency rules of the registry
// (see mutate).
func Mutate[T any](ctx context.Context, s *Service, actor Actor, key, method string, req any, fn func(tx *Tx, now time.Time) (T, error)) (T, error) {
	return mutate(ctx, s, actor, key, method, req, fn)
}

// Transact runs fn in a transaction of its own (no idempotency key), for
// work the system does by itself, and appends its events before commit.
func Transact(ctx context.Context, s *Service, fn func(tx *Tx) error) error {
	return pgx.BeginFunc(ctx, s.db, func(ptx pgx.Tx) error {
		tx := &Tx{Tx: ptx}
		if err := fn(tx); err != nil {
			return err
		}
		return tx.flushEvents(ctx)
	})
}

// AppendEvent queues one event of tx; it is written, chained, at commit.
func AppendEvent(ctx context.Context, tx *Tx, at time.Time, actor Actor, action, entityType, entityID string, payload any) error {
	_, err := appendEvent(ctx, tx, at, actor, action, entityType, entityID, payload)
	return err
}

// PgErr translates a PostgreSQL error into a domain error, with context.
func PgErr(err error, what string) error { return pgErr(err, what) }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// PlayerTx reads a player inside tx; with lock set the row stays locked until
// the transaction ends.
func PlayerTx(ctx context.Context, tx pgx.Tx, id int64, lock bool) (Player, error) {
	q := `SELECT ` + playerColumns + ` FROM players WHERE id = $1`
	if lock {
		q += ` FOR UPDATE`
	}
	p, err := scanPlayer(tx.QueryRow(ctx, q, id))
	if err != nil {
		return Player{}, pgErr(err, fmt.Sprintf("player %d", id))
	}
	return p, nil
}

// SetRank changes a player's rank inside tx and logs why (the certificate
// that caused it).
func SetRank(ctx context.Context, tx *Tx, now time.Time, actor Actor, playerID int64, from, to Rank, why string) error {
	if from == to {
		return nil
	}
	if _, err := tx.Exec(ctx, `UPDATE players SET rank = $2, updated_at = $3 WHERE id = $1`, playerID, to, now); err != nil {
		return pgErr(err, fmt.Sprintf("set rank of player %d", playerID))
	}
	return AppendEvent(ctx, tx, now, actor, "player.rank_changed", "player", strconv.FormatInt(playerID, 10),
		map[string]any{"from": from.String(), "to": to.String(), "because": why})
}

// SharedSecret returns the named random secret every server process of this
// database agrees on (e.g. the portal's form-signing key), creating it on
// first use.
func (s *Service) SharedSecret(ctx context.Context, name string) ([]byte, error) {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("secret %s: %w", name, err)
	}
	var value string
	err := s.db.QueryRow(ctx, `WITH ins AS (
			INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING value)
		SELECT value FROM ins UNION ALL SELECT value FROM settings WHERE key = $1 LIMIT 1`,
		"secret:"+name, hex.EncodeToString(fresh)).Scan(&value)
	if errors.Is(err, pgx.ErrNoRows) {
		// another process inserted it after this statement's snapshot was taken
		err = s.db.QueryRow(ctx, `SELECT value FROM settings WHERE key = $1`, "secret:"+name).Scan(&value)
	}
	if err != nil {
		return nil, fmt.Errorf("secret %s: %w", name, err)
	}
	return hex.DecodeString(value)
}
