package ledger_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/ledger"
)

// TestTreeNeedCoversProofs: the stored hashes the one-statement read
// fetches for a tree of n leaves and some leaves are every hash tlog reads
// for the tree's root and those leaves' inclusion proofs (its own dry run
// lists them), for every n up to 300 and trees far larger; and the
// leaves of a count of stored hashes are tlog's.
func TestTreeNeedCoversProofs(t *testing.T) {
	ctx := context.Background()
	pool, _ := harness.NewEmptyDB(t)
	need := `SELECT ` + fmt.Sprintf(ledger.TreeNeedSQL, "$1::bigint", "$2::bigint[]")
	leaves := `SELECT ` + fmt.Sprintf(ledger.TreeLeavesSQL, "$1::bigint")
	check := func(n int64, ids []int64) {
		t.Helper()
		var asked []int64
		r := tlog.HashReaderFunc(func(x []int64) ([]tlog.Hash, error) {
			asked = append(asked, x...)
			return make([]tlog.Hash, len(x)), nil
		})
		if _, err := tlog.TreeHash(n, r); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if id >= 1 && id <= n {
				if _, err := tlog.ProveRecord(n, id-1, r); err != nil {
					t.Fatal(err)
				}
			}
		}
		var got []int64
		if err := pool.QueryRow(ctx, need, n, ids).Scan(&got); err != nil {
			t.Fatal(err)
		}
		for _, x := range asked {
			if !slices.Contains(got, x) {
				t.Fatalf("n=%d ids=%v: tlog reads hash %d, the SQL fetches %v", n, ids, x, got)
			}
		}
		// a superset, not the whole tree: at most two hashes a level
		if limit := 2 * 64 * (len(ids) + 1); len(got) > limit {
			t.Fatalf("n=%d: %d hashes fetched", n, len(got))
		}
		var back *int64
		if err := pool.QueryRow(ctx, leaves, tlog.StoredHashCount(n)).Scan(&back); err != nil {
			t.Fatal(err)
		}
		if back == nil || *back != n {
			t.Fatalf("the leaves of %d stored hashes: %v, want %d", tlog.StoredHashCount(n), back, n)
		}
	}
	for n := int64(0); n <= 300; n++ {
		ids := []int64{1, n / 3, n / 2, n - 1, n, n + 1}
		check(n, ids)
	}
	for _, n := range []int64{1 << 20, 1<<20 + 1, 1<<20 + 1<<10, 10_000_019, 1<<40 - 1} {
		check(n, []int64{1, n / 7, n - 1, n})
	}
	// a count of stored hashes no whole tree has
	var back *int64
	if err := pool.QueryRow(ctx, leaves, int64(2)).Scan(&back); err != nil || back != nil {
		t.Fatalf("the leaves of 2 stored hashes: %v %v", back, err)
	}
}

// TestReceiptsOfOneStatement: receipts built from one statement's read of
// an entity's events and the tree are the receipts Receipts makes with its
// own queries, check with the verifier key, and need no further query.
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
	// the same key over no database: ReceiptsOf asks nothing more
	offline, err := ledger.NewTreeSigner(noDB{t}, skey, vkey)
	if err != nil {
		t.Fatal(err)
	}
	q := `SELECT x.entity, lg.* FROM (VALUES ($1::text)) x(entity) CROSS JOIN LATERAL (` +
		ledger.EventsAndTreeSQL("test", "x.entity", 2) + `) lg`
	for _, entity := range []string{"0", "3", "10", "none"} {
		r := ledger.NewTreeRead("test")
		var got string
		if err := pool.QueryRow(ctx, q, entity, []string{"test.event"}).Scan(append([]any{&got}, r.Targets()...)...); err != nil {
			t.Fatal(err)
		}
		events := r.Events()
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
		rcs, err := offline.ReceiptsOf(ctx, events, r)
		if err != nil {
			t.Fatal(err)
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
}

func testKey(t *testing.T) (skey, vkey string) {
	t.Helper()
	skey, vkey, err := note.GenerateKey(rand.Reader, ledger.DefaultOrigin)
	if err != nil {
		t.Fatal(err)
	}
	return skey, vkey
}

// noDB fails the test on any query.
type noDB struct{ t *testing.T }

func (d noDB) Query(context.Context, string, ...any) (pgx.Rows, error) {
	d.t.Fatal("a query after the one statement")
	return nil, nil
}

func (d noDB) QueryRow(context.Context, string, ...any) pgx.Row {
	d.t.Fatal("a query after the one statement")
	return nil
}
