package ledger_test

import (
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/mod/sumdb/note"

	"github.com/dankyu/dankyu/ledger"
)

// countingDB counts the queries a signer makes.
type countingDB struct {
	pool *pgxpool.Pool
	n    *atomic.Int64
}

func (d countingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	d.n.Add(1)
	return d.pool.Query(ctx, sql, args...)
}

func (d countingDB) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	d.n.Add(1)
	return d.pool.QueryRow(ctx, sql, args...)
}

// TestReceiptsOfOneStatement: receipts built from one statement's read of
// an entity's events, proved from the tree head the signer keeps, are the
// receipts Receipts makes with its own queries and check with the
// verifier key; once the signer has published the tree's head and cached
// the proofs' hashes it asks nothing more; a cache that disagrees with
// the database is never served (the receipts are made again from the
// database's hashes, and still check); a record that is not the tree's
// gets no receipt, from the head in memory or the database's; an event
// beyond the head kept (the tree grew), or a later head published, is
// proved in the tree as it is now.
func TestReceiptsOfOneStatement(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewDB(t)
	store := ledger.New(pool, time.Now, nil)
	at := time.Date(2026, time.March, 1, 2, 0, 0, 0, time.UTC)
	for i := range 77 {
		appendOne(t, store, at.Add(time.Duration(i)*time.Second), i%11)
	}
	skey, vkey := testKey(t)
	signer, err := ledger.NewTreeSigner(pool, skey, vkey)
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int64
	one, err := ledger.NewTreeSigner(countingDB{pool, &asked}, skey, vkey)
	if err != nil {
		t.Fatal(err)
	}
	q := `SELECT x.entity, ` + ledger.EventColumnsSQL() + ` FROM (VALUES ($1::text)) x(entity)` +
		ledger.EventsJoinSQL("test", "x.entity", 2) + ` ORDER BY ev.id`
	read := func(entity string) ([]ledger.Event, *ledger.TreeRead) {
		t.Helper()
		r := ledger.NewTreeRead("test")
		rows, err := pool.Query(ctx, q, entity, []string{"test.event"})
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var got string
			if err := rows.Scan(append([]any{&got}, r.Targets()...)...); err != nil {
				t.Fatal(err)
			}
			r.Next()
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return r.Events(), r
	}
	check := func(entity string, wantQueries int64) {
		t.Helper()
		events, r := read(entity)
		want, err := ledger.EventsFor(ctx, pool, "test", entity)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != len(want) {
			t.Fatalf("entity %s: %d events, want %d", entity, len(events), len(want))
		}
		for i := range want {
			// the content read hashes to the row's hash: read exactly
			if events[i].ID != want[i].ID || string(ledger.ChainHash(events[i].PrevHash, events[i])) != string(want[i].Hash) {
				t.Fatalf("entity %s: event %d read otherwise than EventsFor reads it", entity, want[i].ID)
			}
		}
		before := asked.Load()
		rcs, err := one.ReceiptsOf(ctx, events, r)
		if err != nil {
			t.Fatal(err)
		}
		if wantQueries >= 0 && asked.Load()-before != wantQueries {
			t.Fatalf("entity %s: %d queries after the statement, want %d", entity, asked.Load()-before, wantQueries)
		}
		old, err := signer.Receipts(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		for i, rc := range rcs {
			if rc == nil || old[i] == nil {
				t.Fatalf("entity %s: receipt %d missing", entity, i)
			}
			if err := rc.Check(vkey); err != nil {
				t.Fatalf("entity %s: %v", entity, err)
			}
			if rc.Size != old[i].Size || rc.TreeHash != old[i].TreeHash || !slices.Equal(rc.Proof, old[i].Proof) {
				t.Fatalf("entity %s: receipt %d differs from Receipts'", entity, i)
			}
		}
	}
	check("3", -1) // first sight of the tree: its root and proofs read
	check("3", 0)  // seen: nothing more to ask
	check("none", 0)
	check("10", -1) // other leaves: their proofs' hashes read once
	check("10", 0)
	if n := one.SpoilCache(); n == 0 {
		t.Fatal("nothing cached")
	}
	check("10", -1) // a spoilt cache: proofs from the database, still checking
	check("10", 0)
	// a record that is not the tree's: refused against the head kept and
	// against the database's tree alike, and the next answer still checks
	events, r := read("10")
	events[len(events)-1].Hash = slices.Clone(events[len(events)-1].Hash)
	events[len(events)-1].Hash[0] ^= 0xff
	if rcs, err := one.ReceiptsOf(ctx, events, r); err == nil {
		t.Fatalf("a record that is not the tree's got receipts %v", rcs)
	} else if _, ok := errors.AsType[*ledger.TreeMismatch](err); !ok {
		t.Fatalf("a record that is not the tree's: %v, want a tree mismatch", err)
	}
	check("10", -1)
	check("10", 0)
	appendOne(t, store, at.Add(time.Hour), 3)
	check("3", -1) // the tree grew: its new root read
	check("3", 0)
	// the tree grew elsewhere and its new head was published (a
	// checkpoint asked for): proved against that head, read once
	appendOne(t, store, at.Add(2*time.Hour), 5)
	if _, err := one.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	check("3", -1)
	check("3", 0)
}

func testKey(t *testing.T) (skey, vkey string) {
	t.Helper()
	skey, vkey, err := note.GenerateKey(rand.Reader, ledger.DefaultOrigin)
	if err != nil {
		t.Fatal(err)
	}
	return skey, vkey
}

// TestEventsOfActionsJoinSQL: the actions are written into the statement
// only as plain names; anything else (a quote) is refused.
func TestEventsOfActionsJoinSQL(t *testing.T) {
	if q := ledger.EventsOfActionsJoinSQL("certificate", "c.number", []string{"certificate.issued", "certificate.revoked"}); !strings.Contains(q, `e.action IN ('certificate.issued', 'certificate.revoked')`) {
		t.Errorf("actions not in the statement: %s", q)
	}
	for _, bad := range [][]string{{"x'); DROP TABLE events; --"}, {"certificate.Issued"}, nil} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%q: no panic", bad)
				}
			}()
			ledger.EventsOfActionsJoinSQL("certificate", "c.number", bad)
		}()
	}
}
