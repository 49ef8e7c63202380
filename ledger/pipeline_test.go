package ledger_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// TestConcurrentRetriesRunOnce: requests with one idempotency key sent at
// once run the change once, and every one of them gets its answer. The
// key's record is read pipelined behind the key's lock, so a request that
// waited for the lock must see the record of the one that held it (a read
// with an older snapshot would run the change again and fail on the
// record's key).
func TestConcurrentRetriesRunOnce(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	store := ledger.New(pool, time.Now, nil)
	if _, err := pool.Exec(ctx, `CREATE TABLE runs (id int PRIMARY KEY, n int NOT NULL); INSERT INTO runs VALUES (1, 0)`); err != nil {
		t.Fatal(err)
	}
	const clients = 8
	answers := make([]int, clients)
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			answers[i], errs[i] = ledger.Mutate(ctx, store, system, "once", "Run", 1, func(tx *ledger.Tx, now time.Time) (int, error) {
				var n int
				if err := tx.QueryRow(ctx, `UPDATE runs SET n = n + 1 WHERE id = 1 RETURNING n`).Scan(&n); err != nil {
					return 0, err
				}
				// hold the key a while, so that the others wait for it
				time.Sleep(20 * time.Millisecond)
				return n, ledger.Append(ctx, tx, now, system, "test", "run", testEvent{"test.event", n})
			})
		})
	}
	wg.Wait()
	for i := range clients {
		if errs[i] != nil || answers[i] != 1 {
			t.Fatalf("request %d: %d, %v; want 1 from the one run", i, answers[i], errs[i])
		}
	}
	var n int
	if err := pool.QueryRow(ctx, `SELECT n FROM runs WHERE id = 1`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the change ran %d times (%v), want once", n, err)
	}
	if got, err := ledger.VerifyLog(ctx, pool); err != nil || got != 1 {
		t.Fatalf("log: %d events, %v; want 1", got, err)
	}
}

// TestRefusedCommitWritesNothing: the last write and the commit are sent
// together; a commit the server refuses (here a deferred constraint) is the
// transaction's error, leaves no event and no idempotency record, and the
// log goes on from where it was.
func TestRefusedCommitWritesNothing(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	store := ledger.New(pool, time.Now, nil)
	if _, err := pool.Exec(ctx, `CREATE TABLE once (v int, CONSTRAINT once_v UNIQUE (v) DEFERRABLE INITIALLY DEFERRED)`); err != nil {
		t.Fatal(err)
	}
	appendOne(t, store, time.Now(), 1)
	_, err := ledger.Mutate(ctx, store, system, "refused", "Twice", 1, func(tx *ledger.Tx, now time.Time) (int, error) {
		if _, err := tx.Exec(ctx, `INSERT INTO once VALUES (1), (1)`); err != nil {
			return 0, err
		}
		return 1, ledger.Append(ctx, tx, now, system, "test", "refused", testEvent{"test.event", 2})
	})
	if err == nil {
		t.Fatal("a commit against a deferred constraint succeeded")
	}
	var rows, keys int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM once), (SELECT count(*) FROM idempotency_keys)`).Scan(&rows, &keys); err != nil || rows != 0 || keys != 0 {
		t.Fatalf("after the refused commit: %d rows, %d idempotency records (%v)", rows, keys, err)
	}
	for i := 2; i < 5; i++ {
		appendOne(t, store, time.Now(), i)
	}
	if got, err := ledger.VerifyLog(ctx, pool); err != nil || got != 4 {
		t.Fatalf("log: %d events, %v; want 4", got, err)
	}
	head, err := ledger.TreeHead(ctx, pool)
	if err != nil || head.N != 4 {
		t.Fatalf("tree: %+v, %v; want 4 records", head, err)
	}
	if n, err := ledger.VerifyCheckpoint(ctx, pool, head); err != nil || n != 4 {
		t.Fatalf("the stored tree against the rows: %d, %v", n, err)
	}
}
