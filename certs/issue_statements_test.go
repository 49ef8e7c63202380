package certs_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// sqlTrail keeps the statements sent on a pool while on.
type sqlTrail struct {
	mu  sync.Mutex
	on  bool
	sql []string
}

func (s *sqlTrail) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on {
		s.sql = append(s.sql, strings.Join(strings.Fields(d.SQL), " "))
	}
	return ctx
}

func (s *sqlTrail) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestIssuanceLockedPathStatements: while an approval holds its series'
// row lock (from the serial's upsert to the commit), which every issuer of
// the series waits for, it sends five statements: the certificate, the
// event log's lock, the log's end, the events with their tree hashes and
// the idempotency record, the commit. The tree's edge is not read again
// once this store has appended.
func TestIssuanceLockedPathStatements(t *testing.T) {
	ctx := context.Background()
	_, conn := harness.NewDB(t)
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	trail := &sqlTrail{}
	cfg.ConnConfig.Tracer = trail
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	clock := fixture.NewClock(fixture.Today(t))
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110")
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	fixture.Stock(t, cs, "110", clock.Now().In(ledger.ChinaTime).Year(), certs.MaxDanSerial, 0)
	var players []int64
	for i := range 3 {
		players = append(players, fixture.Player(t, reg, "110", "stmt"+string(rune('a'+i)), "", "1990-01-01", i).ID)
	}
	ev := fixture.Earned(t, ts, "1d", players...)
	agency := fixture.Agency("110")
	for i, p := range players {
		a, err := cs.Apply(ctx, agency, "", certs.ApplicationInput{PlayerID: p, TargetRank: "1d", Basis: "tournament", EventID: ev})
		if err != nil {
			t.Fatal(err)
		}
		trail.on = i > 0
		if _, err := cs.Approve(ctx, agency, "stmt-"+string(rune('a'+i)), a.ID); err != nil {
			t.Fatal(err)
		}
		trail.on = false
	}
	// two approvals traced
	var locked [][]string
	for _, q := range trail.sql {
		if strings.Contains(q, "INTO certificate_series") {
			locked = append(locked, nil)
			continue
		}
		if n := len(locked); n > 0 && (len(locked[n-1]) == 0 || locked[n-1][len(locked[n-1])-1] != "commit") {
			locked[n-1] = append(locked[n-1], q)
		}
	}
	want := []string{"INSERT INTO certificates", "pg_advisory_xact_lock", "FROM event_tree", "INSERT INTO events", "commit"}
	if len(locked) != 2 {
		t.Fatalf("%d approvals took a serial, want 2: %q", len(locked), trail.sql)
	}
	for i, got := range locked {
		if len(got) != len(want) {
			t.Fatalf("approval %d sent %d statements under the series lock, want %d: %q", i+1, len(got), len(want), got)
		}
		for j, w := range want {
			if !strings.Contains(got[j], w) {
				t.Fatalf("approval %d's statement %d under the series lock is %q, want one with %q", i+1, j+1, got[j], w)
			}
		}
		if !strings.Contains(got[3], "INTO idempotency_keys") {
			t.Fatalf("approval %d's events statement does not write the idempotency record: %q", i+1, got[3])
		}
	}
}
