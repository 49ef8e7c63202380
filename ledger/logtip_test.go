package ledger_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/ledger"
)

// TestAppendTipFollowsOtherWriters: a store reuses the tree's right edge
// of its own last append only while the log still ends there. Two stores
// on one database (two processes), a bulk append and a refused
// transaction between their appends leave the same tree as one store
// appending the same events alone, and the stored tree matches the rows;
// so do appends of both stores at once, and an append after the log was
// put back to another history of the same length (a restore).
func TestAppendTipFollowsOtherWriters(t *testing.T) {
	ctx := context.Background()
	at := func(i int) time.Time { return time.Date(2026, time.March, 1, 2, 0, i, 0, time.UTC) }
	alone, _ := harness.NewDB(t)
	mixed, _ := harness.NewDB(t)
	one := ledger.New(alone, time.Now, nil)
	a, b := ledger.New(mixed, time.Now, nil), ledger.New(mixed, time.Now, nil)
	bulk := func(i int) {
		t.Helper()
		err := pgx.BeginFunc(ctx, mixed, func(tx pgx.Tx) error {
			_, err := ledger.BulkAppend(ctx, tx, []ledger.BulkEvent{
				{At: at(i), Actor: system.String(), EntityType: "test", EntityID: fmt.Sprint(i), Payload: testEvent{"test.event", i}},
				{At: at(i + 1), Actor: system.String(), EntityType: "test", EntityID: fmt.Sprint(i + 1), Payload: testEvent{"test.event", i + 1}}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// who appends event i to the mixed log ("bulk" appends i and i+1)
	steps := []string{"a", "a", "a", "b", "a", "refused", "a", "bulk", "", "a", "b", "b", "a", "a", "a", "b", "bulk", "", "a", "a"}
	for i, who := range steps {
		switch who {
		case "a", "b":
			appendOne(t, map[string]*ledger.Store{"a": a, "b": b}[who], at(i), i)
		case "bulk":
			bulk(i)
		case "refused":
			if err := ledger.Transact(ctx, a, func(tx *ledger.Tx) error {
				if err := ledger.Append(ctx, tx, at(i), system, "test", "refused", testEvent{"test.event", -1}); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, `SELECT 1/0`)
				return err
			}); err == nil {
				t.Fatal("a division by zero committed")
			}
			appendOne(t, a, at(i), i)
		}
		if who != "" {
			appendOne(t, one, at(i), i)
		}
		if who == "bulk" {
			appendOne(t, one, at(i+1), i+1)
		}
	}
	if x, y := head(t, alone), head(t, mixed); x != y || x.N != int64(len(steps)) {
		t.Fatalf("trees: one store %v, two stores and bulk %v", x, y)
	}
	var wg sync.WaitGroup
	for s, store := range []*ledger.Store{a, b} {
		wg.Go(func() {
			for i := range 40 {
				err := ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
					return ledger.Append(ctx, tx, at(100+i), system, "test", fmt.Sprint(s), testEvent{"test.event", i})
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	n, err := ledger.VerifyCheckpoint(ctx, mixed, tlog.Tree{})
	if err != nil || n != int64(len(steps)+80) {
		t.Fatalf("after appends at once: %d rows, %v", n, err)
	}
	// a's tip is its last append; the log is restored to another history
	// as long, written by b
	appendOne(t, a, at(200), 200)
	if _, err := mixed.Exec(ctx, `ALTER TABLE events DISABLE TRIGGER USER; ALTER TABLE event_tree DISABLE TRIGGER USER;
		DELETE FROM events; DELETE FROM event_tree; ALTER TABLE events ENABLE TRIGGER USER; ALTER TABLE event_tree ENABLE TRIGGER USER`); err != nil {
		t.Fatal(err)
	}
	for i := range len(steps) + 81 {
		appendOne(t, b, at(300+i), 300+i)
	}
	appendOne(t, a, at(400), 400)
	if n, err := ledger.VerifyCheckpoint(ctx, mixed, tlog.Tree{}); err != nil || n != int64(len(steps)+82) {
		t.Fatalf("after a restore: %d rows, %v", n, err)
	}
}
