package registry

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Querier is what read-only queries need: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Service is the registry's business logic over its PostgreSQL store.
type Service struct {
	db  *pgxpool.Pool
	now func() time.Time
}

// New returns a registry over db; now is the clock (time.Now in production).
func New(db *pgxpool.Pool, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, now: now}
}

// DB returns the pool, for read-only helpers such as VerifyLog.
func (s *Service) DB() *pgxpool.Pool { return s.db }

// mutate runs fn in a transaction and, when key is not empty, records its
// answer under (actor, key): a later call with the same key and the same
// request returns that answer without running fn again; the same key with a
// different request is ErrConflict. Errors are not recorded, so a failed
// request may be retried with its key.
func mutate[T any](ctx context.Context, s *Service, actor Actor, key, method string, req any, fn func(tx *Tx, now time.Time) (T, error)) (T, error) {
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
				return fieldErr("idempotency-key", "is longer than 200 characters")
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
					return fmt.Errorf("idempotency key %q was first used for a different request (%s): %w", key, gotMethod, ErrConflict)
				}
				return json.Unmarshal(resp, &out)
			case !errors.Is(err, pgx.ErrNoRows):
				return fmt.Errorf("read idempotency key: %w", err)
			}
		}
		now := s.now().UTC().Truncate(time.Microsecond) // what PostgreSQL keeps
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

// pgErr translates PostgreSQL errors into domain errors.
func pgErr(err error, what string) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return fmt.Errorf("%s: %w", what, ErrAlreadyExists)
		case "23503":
			return fmt.Errorf("%s: %w", what, ErrNotFound)
		case "40001", "40P01":
			return fmt.Errorf("%s: %w", what, ErrConflict)
		}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return fmt.Errorf("%s: %w", what, err)
}
