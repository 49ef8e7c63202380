package ledger

import (
	"context"
	"crypto/hmac"
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
	if err := s.Writable(); err != nil {
		return zero, err
	}
	reqJSON, err := json.Marshal(req)
	if err != nil {
		return zero, fmt.Errorf("%s: encode request: %w", method, err)
	}
	// the request is kept only as a keyed hash (it may hold identity numbers)
	var reqHash []byte
	if key != "" {
		secret, err := s.requestKey(ctx)
		if err != nil {
			return zero, fmt.Errorf("%s: %w", method, err)
		}
		m := hmac.New(sha256.New, secret)
		m.Write(append([]byte(method+"\x00"), reqJSON...))
		reqHash = m.Sum(nil)
	}
	var out T
	done, err := s.inTx(ctx, func(tx *Tx) error {
		if key != "" {
			if len(key) > 200 {
				return ReasonIdempotencyKeyTooLong.OnField("idempotency-key")
			}
			var (
				gotMethod string
				gotHash   []byte
				resp      []byte
				created   time.Time
				readErr   error
			)
			// the key's lock and its record in one round trip: the read is
			// pipelined behind the lock and bound (its snapshot taken) once
			// the lock is held, so it sees the record of a retry that held
			// the key first
			b := &pgx.Batch{}
			b.Queue(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, actor.String()+"\x1f"+key)
			b.Queue(`SELECT method, request_hash, response, created_at FROM idempotency_keys WHERE actor = $1 AND key = $2`,
				actor.String(), key).QueryRow(func(r pgx.Row) error {
				readErr = r.Scan(&gotMethod, &gotHash, &resp, &created)
				return nil
			})
			if err := tx.SendBatch(ctx, b).Close(); err != nil {
				return fmt.Errorf("lock and read idempotency key: %w", err)
			}
			err := readErr
			switch {
			case err == nil && !created.After(s.Now().Add(-s.idemTTL)):
				// expired but not yet swept: the key is free again
				if _, err := tx.Exec(ctx, `DELETE FROM idempotency_keys WHERE actor = $1 AND key = $2`, actor.String(), key); err != nil {
					return fmt.Errorf("delete expired idempotency key: %w", err)
				}
			case err == nil:
				// records from before keyed hashes match their plain hash until they expire
				legacy := sha256.Sum256(append([]byte(method+"\x00"), reqJSON...))
				if gotMethod != method || !(hmac.Equal(gotHash, reqHash) || hmac.Equal(gotHash, legacy[:])) {
					return ReasonIdempotencyKeyReused.New("key", key, "method", gotMethod)
				}
				if err := json.Unmarshal(resp, &out); err != nil {
					return fmt.Errorf("decode idempotency record of %s: %w", method, err)
				}
				if rr, ok := any(&out).(Rereader); ok {
					return rr.Reread(ctx, tx)
				}
				return nil
			case !errors.Is(err, pgx.ErrNoRows):
				return fmt.Errorf("read idempotency key: %w", err)
			}
		}
		now := s.Now()
		res, err := fn(tx, now)
		if err != nil {
			return err
		}
		out = res
		if key == "" {
			return tx.flushEvents(ctx, nil)
		}
		var kept any = res
		if r, ok := any(res).(Redactor); ok {
			kept = r.Redacted()
		}
		resp, err := json.Marshal(kept)
		if err != nil {
			return fmt.Errorf("encode response: %w", err)
		}
		// the record is written by the events' statement: the event-log
		// lock, which every writer waits for, is then held for the append
		// and the commit alone, and whatever the change locked (a series
		// row) is held one round trip less
		record := &rider{sql: `INSERT INTO idempotency_keys (actor, key, method, request_hash, response, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, args: []any{actor.String(), key, method, reqHash, resp, now}}
		if err := tx.flushEvents(ctx, record); err != nil {
			return fmt.Errorf("record idempotency key and events: %w", err)
		}
		return nil
	})
	if err != nil {
		return zero, err
	}
	s.committed(done)
	return out, nil
}

// inTx runs fn in a transaction on a connection of its own and commits it,
// unless fn's last write did (tx.ended, see lastWrite); on an error or a
// panic it is rolled back, unless it already ended.
func (s *Store) inTx(ctx context.Context, fn func(tx *Tx) error) (*Tx, error) {
	c, err := s.db.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("acquire connection: %w", err)
	}
	// a connection left inside a transaction (a failed rollback) is
	// closed by the pool, not reused
	defer c.Release()
	ptx, err := c.Begin(ctx)
	if err != nil {
		return nil, err
	}
	tx := &Tx{Tx: ptx, tip: &s.tip}
	finished := false
	defer func() {
		// a commit that failed in the server ended the transaction too
		if !finished && !tx.ended && c.Conn().PgConn().TxStatus() != 'I' {
			_ = ptx.Rollback(ctx)
		}
	}()
	if err := fn(tx); err != nil {
		return nil, err
	}
	if !tx.ended {
		if err := ptx.Commit(ctx); err != nil {
			return nil, err
		}
	}
	finished = true
	return tx, nil
}

// Redactor is an answer with personal data the idempotency record must not
// keep (e.g. a full identity number): the record keeps Redacted(), and the
// answer's type is a Rereader that fills the rest in again on a retry.
type Redactor interface{ Redacted() any }

// Rereader completes an answer decoded from its idempotency record by
// reading the entity again, inside the retry's transaction.
type Rereader interface {
	Reread(ctx context.Context, q Querier) error
}

// ExpireIdempotencyKeys deletes the idempotency records older than the
// store's TTL by its clock (the sweeper calls it) and says how many.
func ExpireIdempotencyKeys(ctx context.Context, s *Store) (int64, error) {
	tag, err := s.db.Exec(ctx, `DELETE FROM idempotency_keys WHERE created_at <= $1`, s.Now().Add(-s.idemTTL))
	if err != nil {
		return 0, fmt.Errorf("expire idempotency keys: %w", err)
	}
	return tag.RowsAffected(), nil
}

// Transact runs fn in a transaction of its own (no idempotency key), for
// work the system does by itself, and appends its events before commit.
func Transact(ctx context.Context, s *Store, fn func(tx *Tx) error) error {
	if err := s.Writable(); err != nil {
		return err
	}
	done, err := s.inTx(ctx, func(tx *Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return tx.flushEvents(ctx, nil)
	})
	if err == nil {
		s.committed(done)
	}
	return err
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
