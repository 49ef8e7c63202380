package ledger

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Querier is what read-only queries need: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Clock is the one source of time for every rule: injected at the entry
// point (time.Now in production, a settable clock in tests) and passed into
// SQL as a parameter wherever a query decides by "now".
type Clock func() time.Time

// Store is the database with the one clock and the logger, handed to every
// domain package.
type Store struct {
	db  *pgxpool.Pool
	now Clock
	log *slog.Logger
	// idemTTL is how long an idempotency record answers retries.
	idemTTL time.Duration
	// idemKey keys the hashes of requests kept with idempotency records
	// (loaded once): a plain hash of a request holding an identity number
	// could be reversed by trying the numbers of a birth date.
	idemKey atomic.Pointer[[]byte]
	// observe hears of each event a committed transaction wrote (metrics).
	observe func(action string)
	// observeCommit hears of each event itself, once committed.
	observeCommit func(Event)
	// refusal, once set (RefuseWrites), fails every transaction.
	refusal atomic.Pointer[Error]
	// tip is the end of the event log as this store last appended it.
	tip logTip
}

// ObserveEvents calls observe with the action of every event a transaction
// of this store committed (at wiring, before the store is used): the
// server counts, say, the certificates issued.
func (s *Store) ObserveEvents(observe func(action string)) { s.observe = observe }

// ObserveCommits calls observe with every event a transaction of this
// store committed, once it has (at wiring, before the store is used): the
// server purges a shared cache's copies of what a revocation changed. It
// runs on the committing goroutine, so it must not block.
func (s *Store) ObserveCommits(observe func(Event)) { s.observeCommit = observe }

// committed tells the observers what tx wrote, once it has committed.
func (s *Store) committed(tx *Tx) {
	if tx == nil {
		return
	}
	s.tip.advance(tx.next)
	for _, e := range tx.written {
		if s.observe != nil {
			s.observe(e.Action)
		}
		if s.observeCommit != nil {
			s.observeCommit(e)
		}
	}
}

// DefaultIdempotencyTTL is how long a retry with the same key gets the
// first answer: long enough for any client's retries, short enough that
// the records do not pile up forever.
const DefaultIdempotencyTTL = 7 * 24 * time.Hour

// New returns a store over db; a nil clock is time.Now and a nil logger
// discards.
func New(db *pgxpool.Pool, now Clock, log *slog.Logger) *Store {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{db: db, now: now, log: log, idemTTL: DefaultIdempotencyTTL}
}

// SetIdempotencyTTL sets how long idempotency records are kept (at wiring,
// before the store is used); d <= 0 keeps the default.
func (s *Store) SetIdempotencyTTL(d time.Duration) {
	if d > 0 {
		s.idemTTL = d
	}
}

// DB returns the pool.
func (s *Store) DB() *pgxpool.Pool { return s.db }

// Now reads the clock, at the precision PostgreSQL keeps.
func (s *Store) Now() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// Log returns the logger.
func (s *Store) Log() *slog.Logger { return s.log }

// requestKey is the shared secret that keys request hashes.
func (s *Store) requestKey(ctx context.Context) ([]byte, error) {
	if k := s.idemKey.Load(); k != nil {
		return *k, nil
	}
	k, err := s.SharedSecret(ctx, "idempotency-requests")
	if err != nil {
		return nil, err
	}
	s.idemKey.Store(&k)
	return k, nil
}

// SharedSecret returns the named random secret every server process of this
// database agrees on (e.g. the portal's form-signing key), creating it on
// first use.
func (s *Store) SharedSecret(ctx context.Context, name string) ([]byte, error) {
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
