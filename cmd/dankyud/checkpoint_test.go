package main_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/internal/daemontest"
	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/ledger"
)

// TestLogCheckpointCatchesRewrites: a checkpoint saved outside the database
// catches what the hash chain alone let through (issue 12, finding 5):
// deleting the newest rows, and truncating and re-inserting a recomputed
// chain. Plain `log verify` still calls both "intact".
func TestLogCheckpointCatchesRewrites(t *testing.T) {
	if _, err := pgcluster.FindBinaries(); err != nil {
		t.Fatal(err)
	}
	_, cli := build(t)
	dataDir, err := os.MkdirTemp("", "dkc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = mustCluster(t, dataDir).Stop(context.Background(), true, true)
		os.RemoveAll(dataDir)
	})
	// the key is made on the empty log (as the server's first start does);
	// a log with events never gets a new one silently
	if out, err := runCLI(t, cli, dataDir, "log", "checkpoint"); err != nil {
		t.Fatalf("log checkpoint of the empty log: %v\n%s", err, out)
	}
	for _, name := range []string{"li", "wang", "zhao", "qian", "sun"} {
		if out, err := runCLI(t, cli, dataDir, "token", "create", "--staff", name); err != nil {
			t.Fatalf("token create: %v\n%s", err, out)
		}
	}
	cp, err := runCLI(t, cli, dataDir, "log", "checkpoint")
	if err != nil {
		t.Fatalf("log checkpoint: %v\n%s", err, cp)
	}
	if fi, err := os.Stat(filepath.Join(dataDir, "log.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log key: %v %v", fi, err)
	}
	cpFile := filepath.Join(t.TempDir(), "checkpoint")
	if err := os.WriteFile(cpFile, []byte(cp+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// kept running, so the CLI uses it and the test can tamper between runs
	db := daemontest.Superuser(t, dataDir)
	rows, err := db.Query(ctx, `SELECT id, at, actor, action, entity_type, entity_id, payload::text, prev_hash, hash FROM events ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Event, error) {
		var e ledger.Event
		var payload string
		err := r.Scan(&e.ID, &e.At, &e.Actor, &e.Action, &e.EntityType, &e.EntityID, &payload, &e.PrevHash, &e.Hash)
		e.Payload = []byte(payload)
		return e, err
	})
	if err != nil || len(orig) != 5 {
		t.Fatalf("events: %d, %v", len(orig), err)
	}
	// put writes rows as the superuser past the append-only triggers
	put := func(events []ledger.Event) {
		t.Helper()
		if _, err := db.Exec(ctx, `SET session_replication_role = replica; TRUNCATE events`); err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if _, err := db.Exec(ctx, `INSERT INTO events (id, at, actor, action, entity_type, entity_id, payload, prev_hash, hash) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
				e.ID, e.At, e.Actor, e.Action, e.EntityType, e.EntityID, string(e.Payload), e.PrevHash, e.Hash); err != nil {
				t.Fatal(err)
			}
		}
	}
	recomputed := func() []ledger.Event {
		out := make([]ledger.Event, len(orig))
		prev := []byte{}
		for i, e := range orig {
			if i == 1 {
				e.Actor = "cli:mallory"
				e.At = e.At.Add(time.Second)
			}
			e.PrevHash = prev
			e.Hash = ledger.ChainHash(prev, e)
			prev = e.Hash
			out[i] = e
		}
		return out
	}()

	out, err := runCLI(t, cli, dataDir, "log", "verify", "--checkpoint", cpFile)
	if err != nil || !strings.Contains(out, "5 rows verified") {
		t.Fatalf("log verify --checkpoint on an intact log: %v: %s", err, out)
	}
	for _, tt := range []struct {
		name   string
		events []ledger.Event
		want   string
	}{
		{"newest three deleted", orig[:2], "3 rows are missing"},
		{"recomputed chain", recomputed, "rewritten"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			put(tt.events)
			defer put(orig)
			if out, err := runCLI(t, cli, dataDir, "log", "verify"); err != nil || !strings.Contains(out, "intact") {
				t.Fatalf("the chain alone should pass (the finding): %v: %s", err, out)
			}
			out, err := runCLI(t, cli, dataDir, "log", "verify", "--checkpoint", cpFile)
			if err == nil || !strings.Contains(out, tt.want) {
				t.Fatalf("log verify --checkpoint: %v: %s (want %q)", err, out, tt.want)
			}
		})
	}
	if out, err := runCLI(t, cli, dataDir, "log", "verify", "--checkpoint", cpFile); err != nil {
		t.Fatalf("after restoring the rows: %v: %s", err, out)
	}
}
