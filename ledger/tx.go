package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Mutate runs fn in a transaction and, when key is not empty, records its
// answer under (actor, key): a later call with the same key and the same
// request returns that answer without running fn again; the same key with a
// different request is ErrConflict. Errors are not recorded, so a failed
// request may be retried with its key. fn gets the clock's time once, so
// every row and event of one change carries the same moment.
func Mutate[T any](ctx context.Context, s *Store, actor Actor, key, method string, req any, fn func(tx *Tx, now time.Time) (T, error)) (T, error) {
	var zero T
	reqJSON, err := json.Marshal(req)
	if err != nil {
		return zero, fmt.Errorf("%s: encode request: %w", method, err)
	}
	reqHash := sha256.Sum256(append([]byte(method+"\x00"), reqJSON...))
	var out T
	err = pgx.BeginFunc(ctx, s.db, func(ptx pgx.Tx) error {
		tx := &Tx{Tx: ptx}
		if key != "" {
			if len(key) > 200 {
				return ReasonIdempotencyKeyTooLong.OnField("idempotency-key")
			}
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, actor.String()+"\x1f"+key); err != nil {
				return fmt.Errorf("lock idempotency key: %w", err)
			}
			var (
				gotMethod string
				gotHash   []byte
				resp      []byte
			)
			err := tx.QueryRow(ctx, `SELECT method, request_hash, response FROM idempotency_keys WHERE actor = $1 AND key = $2`,
				actor.String(), key).Scan(&gotMethod, &gotHash, &resp)
			switch {
			case err == nil:
				if gotMethod != method || string(gotHash) != string(reqHash[:]) {
					return ReasonIdempotencyKeyReused.New("key", key, "method", gotMethod)
				}
				return json.Unmarshal(resp, &out)
			case !errors.Is(err, pgx.ErrNoRows):
				return fmt.Errorf("read idempotency key: %w", err)
			}
		}
		now := s.Now()
		res, err := fn(tx, now)
		if err != nil {
			return err
		}
		if err := tx.flushEvents(ctx); err != nil {
			return err
		}
		out = res
		if key == "" {
			return nil
		}
		resp, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("encode response: %w", err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO idempotency_keys (actor, key, method, request_hash, response, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, actor.String(), key, method, reqHash[:], resp, now)
		if err != nil {
			return fmt.Errorf("record idempotency key: %w", err)
		}
		return nil
	})
	if err != nil {
		return zero, err
	}
	return out, nil
}

// Transact runs fn in a transaction of its own (no idempotency key), for
// work the system does by itself, and appends its events before commit.
func Transact(ctx context.Context, s *Store, fn func(tx *Tx) error) error {
	return pgx.BeginFunc(ctx, s.db, func(ptx pgx.Tx) error {
		tx := &Tx{Tx: ptx}
		if err := fn(tx); err != nil {
			return err
		}
		return tx.flushEvents(ctx)
	})
}

// Savepoint runs fn in a savepoint of tx: when fn fails, what it wrote and
// the events it queued are undone and tx goes on, so one change may try a
// step that can be refused (e.g. filing an application) without losing the
// rest.
func (tx *Tx) Savepoint(ctx context.Context, fn func(tx *Tx) error) error {
	sp, err := tx.Tx.Begin(ctx)
	if err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	inner := &Tx{Tx: sp}
	if err := fn(inner); err != nil {
		if rbErr := sp.Rollback(ctx); rbErr != nil {
			return errors.Join(err, fmt.Errorf("roll back to savepoint: %w", rbErr))
		}
		return err
	}
	if err := sp.Commit(ctx); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	tx.pending = append(tx.pending, inner.pending...)
	return nil
}
