package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// TestQueuedLogHeadHoldsTheLog: a change that reads the log's end ahead
// (QueueLogHead, sent with its own statements) holds the log's lock from
// then to its commit, so another appender waits and the read end is still
// the end when the change appends: both events are in the log, chained,
// the change's first, and the tree covers them.
func TestQueuedLogHeadHoldsTheLog(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	s := ledger.New(pool, time.Now, nil)
	at := time.Date(2026, time.March, 1, 2, 0, 0, 0, time.UTC)
	appendOne(t, s, at, 0)
	other := make(chan error, 1)
	err := ledger.Transact(ctx, s, func(tx *ledger.Tx) error {
		b := &pgx.Batch{}
		b.Queue(`SELECT 1`)
		tx.QueueLogHead(b)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		go func() {
			other <- ledger.Transact(ctx, s, func(tx *ledger.Tx) error {
				return ledger.Append(ctx, tx, at, system, "test", "other", testEvent{"test.event", 2})
			})
		}()
		// the other appender is waiting for the log's lock
		for waiting := 0; waiting == 0; {
			if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&waiting); err != nil {
				return err
			}
			select {
			case err := <-other:
				t.Fatalf("another append ended (%v) while the log's end was held", err)
			default:
			}
		}
		return ledger.Append(ctx, tx, at, system, "test", "ahead", testEvent{"test.event", 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-other; err != nil {
		t.Fatal(err)
	}
	n, err := ledger.VerifyLog(ctx, pool)
	if err != nil || n != 3 {
		t.Fatalf("log of %d events: %v", n, err)
	}
	rows, _ := pool.Query(ctx, `SELECT entity_id FROM events ORDER BY id`)
	order, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(order) != 3 || order[1] != "ahead" || order[2] != "other" {
		t.Fatalf("events in order %q (%v), want 0, ahead, other", order, err)
	}
	if h := head(t, pool); h.N != 3 {
		t.Fatalf("the tree covers %d events, want 3", h.N)
	}
}
