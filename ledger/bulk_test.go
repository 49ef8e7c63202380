package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/internal/pgtest"
	"github.com/dankyu/dankyu/ledger"
)

var harness *pgtest.Harness

func TestMain(m *testing.M) { pgtest.Main(m, func(h *pgtest.Harness) { harness = h }) }

var system = ledger.Actor{Kind: ledger.SystemActor, Name: "bulk-test"}

// testEvent is the payload of the tests' events.
type testEvent struct {
	action string
	I      int `json:"i"`
}

func (e testEvent) Action() string { return e.action }

func appendOne(t *testing.T, store *ledger.Store, at time.Time, i int) {
	t.Helper()
	err := ledger.Transact(context.Background(), store, func(tx *ledger.Tx) error {
		return ledger.Append(context.Background(), tx, at, system, "test", fmt.Sprint(i), testEvent{"test.event", i})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func head(t *testing.T, pool *pgxpool.Pool) tlog.Tree {
	t.Helper()
	h, err := ledger.TreeHead(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestBulkAppendIsWhatCommitsWrite appends the same events to two logs, one
// event per transaction in the first and mostly in one bulk append in the
// second: both logs verify, against a checkpoint taken before the bulk, and
// end with the same tree. A Fill sees the tree before its event.
func TestBulkAppendIsWhatCommitsWrite(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, time.March, 1, 2, 0, 0, 0, time.UTC)
	at := func(i int) time.Time { return start.Add(time.Duration(i) * time.Second) }
	const n = 300

	one, _ := harness.NewDB(t)
	store := ledger.New(one, time.Now, nil)
	var heads []tlog.Tree
	for i := range n {
		heads = append(heads, head(t, one))
		appendOne(t, store, at(i), i)
	}

	bulk, _ := harness.NewDB(t)
	bstore := ledger.New(bulk, time.Now, nil)
	for i := range 3 {
		appendOne(t, bstore, at(i), i)
	}
	checkpoint := head(t, bulk)
	var events []ledger.BulkEvent
	var seen []tlog.Tree
	for i := 3; i < n-1; i++ {
		e := ledger.BulkEvent{At: at(i), Actor: system.String(), EntityType: "test", EntityID: fmt.Sprint(i), Payload: testEvent{"test.event", i}}
		if i%50 == 0 {
			e.Payload = testEvent{action: "test.event"}
			e.Fill = func(h tlog.Tree) (ledger.Payload, error) {
				seen = append(seen, h)
				return testEvent{"test.event", i}, nil
			}
		}
		events = append(events, e)
	}
	err := pgx.BeginFunc(ctx, bulk, func(tx pgx.Tx) error {
		res, err := ledger.BulkAppend(ctx, tx, events)
		if err == nil && (res.FirstID != 4 || res.LastID != n-1) {
			err = fmt.Errorf("bulk wrote events %d to %d", res.FirstID, res.LastID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	appendOne(t, bstore, at(n-1), n-1)

	for name, pool := range map[string]*pgxpool.Pool{"one by one": one, "bulk": bulk} {
		if got, err := ledger.VerifyCheckpoint(ctx, pool, checkpoint); err != nil || got != n {
			t.Fatalf("%s: verified %d rows: %v", name, got, err)
		}
	}
	if a, b := head(t, one), head(t, bulk); a != b {
		t.Fatalf("trees differ: one by one %v, bulk %v", a, b)
	}
	for k, h := range seen {
		if want := heads[50*(k+1)]; h != want {
			t.Fatalf("fill %d saw tree %v, want %v", k, h, want)
		}
	}
	if len(seen) != 5 {
		t.Fatalf("%d fills", len(seen))
	}
	// out of time order is refused
	err = pgx.BeginFunc(ctx, bulk, func(tx pgx.Tx) error {
		_, err := ledger.BulkAppend(ctx, tx, []ledger.BulkEvent{
			{At: at(2 * n), Actor: "x", EntityType: "t", EntityID: "1", Payload: testEvent{action: "a"}},
			{At: at(n), Actor: "x", EntityType: "t", EntityID: "2", Payload: testEvent{action: "a"}}})
		return err
	})
	if err == nil {
		t.Fatal("events out of time order were appended")
	}
	// a fill of another action than its event's, or no payload, is refused
	for name, e := range map[string]ledger.BulkEvent{
		"another action": {At: at(2 * n), Actor: "x", EntityType: "t", EntityID: "1", Payload: testEvent{action: "a"},
			Fill: func(tlog.Tree) (ledger.Payload, error) { return testEvent{action: "b"}, nil }},
		"no payload": {At: at(2 * n), Actor: "x", EntityType: "t", EntityID: "1"},
	} {
		err = pgx.BeginFunc(ctx, bulk, func(tx pgx.Tx) error {
			_, err := ledger.BulkAppend(ctx, tx, []ledger.BulkEvent{e})
			return err
		})
		if err == nil {
			t.Fatalf("%s: appended", name)
		}
	}
}

// TestTreeCatchesUpOnOlderRows: a log whose first rows the tree does not
// cover (written before the tree existed) gets them into the tree with the
// next append, so that the tree of the two logs is the same.
func TestTreeCatchesUpOnOlderRows(t *testing.T) {
	at := time.Date(2026, time.March, 1, 2, 0, 0, 0, time.UTC)
	whole, _ := harness.NewDB(t)
	older, _ := harness.NewDB(t)
	for _, pool := range []*pgxpool.Pool{whole, older} {
		store := ledger.New(pool, time.Now, nil)
		for i := range 5 {
			appendOne(t, store, at.Add(time.Duration(i)*time.Second), i)
		}
		if pool == older {
			if _, err := pool.Exec(context.Background(), `ALTER TABLE event_tree DISABLE TRIGGER USER; DELETE FROM event_tree; ALTER TABLE event_tree ENABLE TRIGGER USER`); err != nil {
				t.Fatal(err)
			}
			if h := head(t, older); h.N != 0 {
				t.Fatalf("the tree before catching up: %v", h)
			}
		}
		appendOne(t, store, at.Add(5*time.Second), 5)
	}
	if a, b := head(t, whole), head(t, older); a != b || a.N != 6 {
		t.Fatalf("trees: whole %v, caught up %v", a, b)
	}
}

// TestObserverHearsCommittedEvents: the store's observer (the metrics)
// hears each event of a committed transaction, through Transact and
// Mutate, once; a rolled-back one tells it nothing.
func TestObserverHearsCommittedEvents(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	store := ledger.New(pool, time.Now, nil)
	var heard []string
	store.ObserveEvents(func(action string) { heard = append(heard, action) })
	at := time.Date(2026, time.March, 1, 2, 0, 0, 0, time.UTC)
	appendOne(t, store, at, 1)
	if _, err := ledger.Mutate(ctx, store, system, "key-1", "Test", []any{1}, func(tx *ledger.Tx, now time.Time) (int, error) {
		return 1, errors.Join(ledger.Append(ctx, tx, now, system, "test", "1", testEvent{action: "test.mutated"}),
			ledger.Append(ctx, tx, now, system, "test", "1", testEvent{action: "test.mutated_too"}))
	}); err != nil {
		t.Fatal(err)
	}
	failed := ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
		if err := ledger.Append(ctx, tx, at, system, "test", "2", testEvent{action: "test.rolled_back"}); err != nil {
			return err
		}
		return errors.New("refused")
	})
	if failed == nil {
		t.Fatal("the failing transaction committed")
	}
	if got := strings.Join(heard, " "); got != "test.event test.mutated test.mutated_too" {
		t.Fatalf("heard %q", got)
	}
}
