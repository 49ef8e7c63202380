package ledger_test

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/dankyu/dankyu/ledger"
)

// witnessLog is a database with n events appended, its store and clock.
func witnessLog(t *testing.T, n int) (*pgxpool.Pool, *ledger.Store) {
	t.Helper()
	pool, _ := harness.NewDB(t)
	at := time.Date(2026, time.March, 1, 8, 0, 0, 0, time.UTC)
	store := ledger.New(pool, func() time.Time { return at }, nil)
	for i := range n {
		appendOne(t, store, at, i)
	}
	return pool, store
}

// asSuperuser runs sql past the log's append-only triggers.
func asSuperuser(t *testing.T, pool *pgxpool.Pool, f func(tx pgx.Tx) error) {
	t.Helper()
	err := pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(context.Background(), `SET LOCAL session_replication_role = replica`); err != nil {
			return err
		}
		return f(tx)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readEvents(t *testing.T, pool *pgxpool.Pool) []ledger.Event {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT id, at, actor, action, entity_type, entity_id, payload::text, prev_hash, hash FROM events ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	es, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Event, error) {
		var e ledger.Event
		var payload string
		err := r.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &payload, &e.PrevHash, &e.Hash)
		e.Payload = []byte(payload)
		return e, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// rewrite replaces the whole log and its tree by events, chain and tree
// recomputed: the forger's best effort without the key.
func rewrite(t *testing.T, pool *pgxpool.Pool, events []ledger.Event) {
	t.Helper()
	ctx := context.Background()
	prev := []byte{}
	hashes := map[int64]tlog.Hash{}
	reader := tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(idx))
		for i, x := range idx {
			out[i] = hashes[x]
		}
		return out, nil
	})
	asSuperuser(t, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `TRUNCATE events, event_tree`); err != nil {
			return err
		}
		for i, e := range events {
			e.PrevHash = prev
			e.Hash = ledger.ChainHash(prev, e)
			prev = e.Hash
			if _, err := tx.Exec(ctx, `INSERT INTO events (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
				e.ID, e.At, e.Actor, e.Action, e.EntityType, e.EntityID, string(e.Payload), e.PrevHash, e.Hash); err != nil {
				return err
			}
			hs, err := tlog.StoredHashes(int64(i), e.Hash, reader)
			if err != nil {
				return err
			}
			for j, h := range hs {
				x := tlog.StoredHashIndex(0, int64(i)) + int64(j)
				hashes[x] = h
				if _, err := tx.Exec(ctx, `INSERT INTO event_tree (idx, hash) VALUES ($1, $2)`, x, h[:]); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// TestWitnessFollowsAnHonestLog: from a kept head the witness follows the
// log as it grows, a few rows per check, and each published head it
// covers checks.
func TestWitnessFollowsAnHonestLog(t *testing.T) {
	ctx := context.Background()
	pool, store := witnessLog(t, 21)
	kept := head(t, pool)
	v, err := ledger.WitnessFrom(ctx, pool, kept)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		appendOne(t, store, store.Now(), 100+i)
	}
	for range 20 {
		if err := v.Advance(ctx, pool, 4); err != nil {
			t.Fatal(err)
		}
	}
	if now := head(t, pool); v.N != now.N || v.Root != now.Hash {
		t.Fatalf("verified %d %x, the tree is %d %x", v.N, v.Root, now.N, now.Hash)
	}
	if err := v.Covers(ctx, pool, kept); err != nil {
		t.Fatalf("the kept head is a prefix of the verified tree: %v", err)
	}
	other := kept
	other.Hash[0] ^= 1
	if err := v.Covers(ctx, pool, other); !ledger.IsTampering(err) {
		t.Fatalf("a head of another tree: %v", err)
	}
	// a database that does not answer is no finding
	gone, err := pgxpool.New(ctx, pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	gone.Close()
	if err := v.Advance(ctx, gone, 4); err == nil || ledger.IsTampering(err) {
		t.Fatalf("a closed pool: %v", err)
	}
}

// TestWitnessFindsTampering: each way of changing the log found, a
// tampering (not a failure to read), naming what was done.
func TestWitnessFindsTampering(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		tamper func(t *testing.T, pool *pgxpool.Pool, store *ledger.Store)
		want   string
		checks int // checks (of 4 rows each) within which it must be found
	}{
		{"newest events deleted, tree kept", func(t *testing.T, pool *pgxpool.Pool, _ *ledger.Store) {
			asSuperuser(t, pool, func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, `DELETE FROM events WHERE id > 17`)
				return err
			})
		}, "newest rows were deleted", 1},
		{"newest events deleted with their tree", func(t *testing.T, pool *pgxpool.Pool, _ *ledger.Store) {
			asSuperuser(t, pool, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, `DELETE FROM events WHERE id > 17`); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, `DELETE FROM event_tree WHERE idx >= $1`, tlog.StoredHashIndex(0, 17))
				return err
			})
		}, "rows were deleted", 1},
		{"middle payload rewritten, chain and tree recomputed", func(t *testing.T, pool *pgxpool.Pool, _ *ledger.Store) {
			es := readEvents(t, pool)
			es[9].Payload = []byte(`{"i": 999}`)
			rewrite(t, pool, es)
		}, "rewritten", 1},
		{"middle payload edited in place", func(t *testing.T, pool *pgxpool.Pool, _ *ledger.Store) {
			asSuperuser(t, pool, func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, `UPDATE events SET payload = '{"i": 999}' WHERE id = 10`)
				return err
			})
		}, "content does not match its hash", 6},
		{"a row appended past the chain (the server's role)", func(t *testing.T, pool *pgxpool.Pool, _ *ledger.Store) {
			es := readEvents(t, pool)
			e := es[len(es)-1]
			e.ID++
			e.PrevHash = []byte("not the last hash")
			e.Hash = ledger.ChainHash(e.PrevHash, e)
			rewrite(t, pool, es) // unchanged, to rebuild the same tree
			if _, err := pool.Exec(ctx, `INSERT INTO events (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
				e.ID, e.At, e.Actor, e.Action, e.EntityType, e.EntityID, string(e.Payload), e.PrevHash, e.Hash); err != nil {
				t.Fatal(err)
			}
			if _, err := pool.Exec(ctx, `INSERT INTO event_tree (idx, hash) VALUES ($1, $2)`, tlog.StoredHashIndex(0, e.ID-1), tlog.RecordHash(e.Hash)); err != nil {
				t.Fatal(err)
			}
		}, "prev_hash does not match", 1},
		{"an event appended with a tree hash it does not give (the server's role)", func(t *testing.T, pool *pgxpool.Pool, _ *ledger.Store) {
			es := readEvents(t, pool)
			e := es[len(es)-1]
			e.ID++
			e.PrevHash = e.Hash
			e.Payload = []byte(`{"i": 777}`)
			e.Hash = ledger.ChainHash(e.PrevHash, e)
			// INSERT is all the server's role may do to the log and its tree
			if _, err := pool.Exec(ctx, `INSERT INTO events (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
				e.ID, e.At, e.Actor, e.Action, e.EntityType, e.EntityID, string(e.Payload), e.PrevHash, e.Hash); err != nil {
				t.Fatal(err)
			}
			if _, err := pool.Exec(ctx, `INSERT INTO event_tree (idx, hash) VALUES ($1, $2)`, tlog.StoredHashIndex(0, e.ID-1), make([]byte, 32)); err != nil {
				t.Fatal(err)
			}
		}, "does not match event", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pool, store := witnessLog(t, 20)
			v, err := ledger.WitnessFrom(ctx, pool, head(t, pool))
			if err != nil {
				t.Fatal(err)
			}
			tt.tamper(t, pool, store)
			var found error
			for range tt.checks {
				if found = v.Advance(ctx, pool, 4); found != nil {
					break
				}
			}
			if !ledger.IsTampering(found) || !strings.Contains(found.Error(), tt.want) {
				t.Fatalf("within %d checks: %v (want a tampering naming %q)", tt.checks, found, tt.want)
			}
		})
	}
}

// TestWitnessFromRefusesAForgedLog: a kept head that the database no
// longer holds is refused at start.
func TestWitnessFromRefusesAForgedLog(t *testing.T) {
	ctx := context.Background()
	pool, _ := witnessLog(t, 12)
	kept := head(t, pool)
	es := readEvents(t, pool)
	es[3].Actor = "system:mallory"
	rewrite(t, pool, es)
	if _, err := ledger.WitnessFrom(ctx, pool, kept); !ledger.IsTampering(err) {
		t.Fatalf("a recomputed log from the kept head: %v", err)
	}
	rewrite(t, pool, readEvents(t, pool)[:8])
	if _, err := ledger.WitnessFrom(ctx, pool, kept); !ledger.IsTampering(err) || !strings.Contains(err.Error(), "deleted") {
		t.Fatalf("a shortened log from the kept head: %v", err)
	}
}

// TestNotaryPublishesOnlyExtensions: the notary keeps each new head once,
// serves it again while fresh, re-signs it when stale, and halts on a
// primary's tree that shrank, refusing every later checkpoint and every
// write of the store with LOG_INTEGRITY.
func TestNotaryPublishesOnlyExtensions(t *testing.T) {
	ctx := context.Background()
	pool, store := witnessLog(t, 5)
	skey, vkey, err := note.GenerateKey(rand.Reader, ledger.DefaultOrigin)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, time.March, 1, 8, 0, 0, 0, time.UTC)
	var kept []ledger.SignedHead
	var tampered error
	n, err := ledger.NewNotary(skey, vkey, ledger.NotaryOptions{
		Now: func() time.Time { return now }, Refresh: time.Hour,
		Keep: func(ctx context.Context, s ledger.SignedHead) error {
			kept = append(kept, s)
			return ledger.KeepCheckpoint(ctx, pool, s)
		},
		Tamper: func(err error) { tampered = err; store.RefuseWrites(ledger.ReasonLogIntegrity.New()) },
	})
	if err != nil {
		t.Fatal(err)
	}
	signer := n.Signer(pool, true)
	checkpoint := func() ledger.Checkpoint {
		t.Helper()
		msg, err := signer.Checkpoint(ctx)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ledger.OpenSignedCheckpoint(msg, vkey)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := checkpoint()
	if c.Origin != ledger.DefaultOrigin || c.Tree.N != 5 || !c.Time.Equal(now) {
		t.Fatalf("checkpoint %+v", c)
	}
	checkpoint()
	now = now.Add(time.Minute)
	appendOne(t, store, now, 6)
	checkpoint()
	now = now.Add(2 * time.Hour)
	if c := checkpoint(); c.Tree.N != 6 || !c.Time.Equal(now) {
		t.Fatalf("a stale head re-signed: %+v", c)
	}
	if len(kept) != 3 {
		t.Fatalf("kept %d checkpoints, want 3 (5, 6, 6 re-signed)", len(kept))
	}
	hist, err := ledger.CheckpointsAfter(ctx, pool, 0, 10)
	if err != nil || len(hist) != 3 || hist[1].Size != 6 {
		t.Fatalf("history %+v, %v", hist, err)
	}
	if more, err := ledger.CheckpointsAfter(ctx, pool, hist[1].ID, 10); err != nil || len(more) != 1 {
		t.Fatalf("history after %d: %+v, %v", hist[1].ID, more, err)
	}

	asSuperuser(t, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM events WHERE id > 4`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM event_tree WHERE idx >= $1`, tlog.StoredHashIndex(0, 4))
		return err
	})
	_, err = signer.Checkpoint(ctx)
	if e, ok := ledger.AsError(err); !ok || e.Reason != ledger.ReasonLogIntegrity || !ledger.IsTampering(tampered) {
		t.Fatalf("a shrunk tree signed: %v (witness told %v)", err, tampered)
	}
	if _, err := signer.Receipts(ctx, []ledger.Event{{ID: 1}}); !errors.Is(err, ledger.ErrPrecondition) {
		t.Fatalf("a receipt from a halted notary: %v", err)
	}
	err = ledger.Transact(ctx, store, func(tx *ledger.Tx) error {
		return ledger.Append(ctx, tx, now, system, "test", "x", testEvent{"test.event", 7})
	})
	if e, ok := ledger.AsError(err); !ok || e.Reason != ledger.ReasonLogIntegrity {
		t.Fatalf("a write after the witness tripped: %v", err)
	}
}

// TestKeyRotationIsCosigned: the checkpoint that publishes a rotation is
// signed by the new key and the old one, so a holder of either opens it.
func TestKeyRotationIsCosigned(t *testing.T) {
	ctx := context.Background()
	pool, store := witnessLog(t, 3)
	oldS, oldV, _ := note.GenerateKey(rand.Reader, ledger.DefaultOrigin)
	newS, newV, _ := note.GenerateKey(rand.Reader, ledger.DefaultOrigin)
	n, err := ledger.NewNotary(newS, newV, ledger.NotaryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ledger.RecordKeyRotation(ctx, store, ledger.LogKeyRotatedPayload{OldKey: oldV, NewKey: newV, OldKeySigns: true, Why: "planned"}); err != nil {
		t.Fatal(err)
	}
	old, err := note.NewSigner(oldS)
	if err != nil {
		t.Fatal(err)
	}
	s, err := n.PublishRotation(ctx, pool, old)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{oldV, newV} {
		if c, err := ledger.OpenSignedCheckpoint(s.Note, k); err != nil || c.Tree.N != 4 {
			t.Fatalf("rotation checkpoint with %s: %+v %v", k, c, err)
		}
	}
}
