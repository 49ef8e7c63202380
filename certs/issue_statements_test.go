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

// TraceBatchStart keeps a batch (its statements pipelined, one round
// trip) as one entry: its statements joined by " ; ".
func (s *sqlTrail) TraceBatchStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchStartData) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on {
		var sql []string
		for _, q := range d.Batch.QueuedQueries {
			sql = append(sql, strings.Join(strings.Fields(q.SQL), " "))
		}
		s.sql = append(s.sql, strings.Join(sql, " ; "))
	}
	return ctx
}

func (s *sqlTrail) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (s *sqlTrail) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// issuing is a registry's services on one database.
type issuing struct {
	clock *fixture.Clock
	store *ledger.Store
	reg   *registry.Service
	cs    *certs.Service
	ts    *tournaments.Service
}

// issuing110 is the services on pool of a registry whose agency 110
// approves with a cached evidence of standings, the series of this year
// stocked to its end.
func issuing110(t *testing.T, pool *pgxpool.Pool) issuing {
	t.Helper()
	clock := fixture.NewClock(fixture.Today(t))
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	fixture.Agencies(t, reg, "110")
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{Standings: tournaments.NewStandingsCache()}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	fixture.Stock(t, cs, "110", clock.Now().In(ledger.ChinaTime).Year(), certs.MaxDanSerial, 0)
	return issuing{clock, store, reg, cs, ts}
}

// TestIssuanceLockedPathStatements: an approval takes its series' row
// lock, which every issuer of the series waits for, in the statement that
// also inserts the certificate, sent with the event log's lock and the
// log's end; it holds it for one round trip more: the events with their
// tree hashes and the idempotency record, with the commit (pipelined).
// The tree's edge is not read again once this store has appended.
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
	i := issuing110(t, pool)
	reg, cs, ts := i.reg, i.cs, i.ts
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
	// two approvals traced; a round trip's entry ends with "commit" when
	// it commits
	var locked [][]string
	for _, q := range trail.sql {
		if strings.Contains(q, "INTO certificate_series") {
			locked = append(locked, []string{q})
			continue
		}
		if n := len(locked); n > 0 && (len(locked[n-1]) == 0 || !strings.HasSuffix(locked[n-1][len(locked[n-1])-1], "commit")) {
			locked[n-1] = append(locked[n-1], q)
		}
	}
	// each round trip's statements, in order
	want := [][]string{{"INTO certificate_series", "INSERT INTO certificates", "SELECT pg_advisory_xact_lock", "FROM event_tree"}, {"INTO idempotency_keys", "INSERT INTO events", "; commit"}}
	if len(locked) != 2 {
		t.Fatalf("%d approvals took a serial, want 2: %q", len(locked), trail.sql)
	}
	for i, got := range locked {
		if len(got) != len(want) {
			t.Fatalf("approval %d sent %d round trips from the series lock to the commit, want %d: %q", i+1, len(got), len(want), got)
		}
		for j, w := range want {
			at := 0
			for _, part := range w {
				k := strings.Index(got[j][at:], part)
				if k < 0 {
					t.Fatalf("approval %d's round trip %d from the series lock on is %q, want %q in that order", i+1, j+1, got[j], w)
				}
				at += k + len(part)
			}
		}
	}
	// the whole approval, from begin to the commit, with the event's
	// standings cached (as the server wires it): seven round trips
	// (nineteen before the reads and writes were pipelined, eleven before
	// the agency's standing rode with the application's read, the
	// standings cache's check with the player's, the serial with the
	// certificate and the log's lock with them)
	var trips [][]string
	for _, q := range trail.sql {
		if q == "begin" {
			trips = append(trips, nil)
		}
		if n := len(trips); n > 0 {
			trips[n-1] = append(trips[n-1], q)
		}
	}
	for i, got := range trips {
		if len(got) != 7 {
			t.Errorf("approval %d made %d round trips, want 7: %q", i+1, len(got), got)
		}
	}
	// the application's lock and read with the agency's standing
	if !strings.Contains(trail.sql[2], "FOR UPDATE ; SELECT") || !strings.HasSuffix(trail.sql[2], "SELECT status FROM agencies WHERE prefix = $1") {
		t.Errorf("the application's read and the agency's standing are not one round trip: %q", trail.sql[2])
	}
	// the player's lock and read with the standings cache's check
	if !strings.HasPrefix(trail.sql[3], "SELECT id, name") || !strings.Contains(trail.sql[3], "FROM players WHERE id = $1 FOR UPDATE ; SELECT") ||
		!strings.Contains(trail.sql[3], "; SELECT EXISTS (SELECT FROM tournaments WHERE id = $1)") {
		t.Errorf("the player's read and the standings cache's check are not one round trip: %q", trail.sql[3])
	}
	// before the lock: the key's lock and record pipelined in one round trip
	if !strings.Contains(trail.sql[1], "pg_advisory_xact_lock(hashtextextended") || !strings.Contains(trail.sql[1], "; SELECT method, request_hash") {
		t.Fatalf("the idempotency key's lock and read are not one round trip: %q", trail.sql[1])
	}
}
