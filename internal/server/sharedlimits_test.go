package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// TestServersShareLowVolumeLimits: two servers on one database, each with
// its own pool, store and limiters as dankyud makes them, spend one budget
// of objections and one of sign-in attempts: the requests alternate between
// them and the one past the limit is refused (429) by whichever gets it.
// The verification limit stays each process's own.
func TestServersShareLowVolumeLimits(t *testing.T) {
	ctx := context.Background()
	_, conn := harness.NewDB(t)
	clock := fixture.TodayClock(t)
	cfg := &server.Config{RateVerify: "1/1h", RateObjection: "2/1h", RateLogin: "3/1m", RateAdjudicate: "off"}
	var svc struct {
		reg *registry.Service
		cs  *certs.Service
		ts  *tournaments.Service
	}
	portal := func() string {
		pool, err := pgxpool.New(ctx, conn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		log := slog.New(slog.DiscardHandler)
		store := ledger.New(pool, clock.Now, log)
		reg := registry.New(store)
		cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
		if err != nil {
			t.Fatal(err)
		}
		ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
		svc.reg, svc.cs, svc.ts = reg, cs, ts
		lim, err := cfg.Limiters(clock.Now, log)
		if err != nil {
			t.Fatal(err)
		}
		lim.Share(store)
		h, err := web.New(ctx, store, reg, cs, ts, log, cfg.WebOptions(lim))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	servers := []string{portal(), portal()}
	// a 4-dan application on notice: an objection to a notice that does
	// not exist is refused before it spends the budget
	if _, err := svc.reg.CreateAgency(ctx, fixture.Staff, "", registry.AgencyInput{Prefix: "110", Name: "北京棋院", Contact: "010-1234"}); err != nil {
		t.Fatal(err)
	}
	fixture.StockThrough(t, svc.cs, "110", clock.Now(), clock.Now(), 5, 5)
	pl := fixture.Player(t, svc.reg, "110", "郑一鸣", "3d", "1986-06-01", 1)
	app, err := svc.cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: pl.ID, TargetRank: "4d", Basis: "tournament",
		EventID: fixture.Earned(t, svc.ts, "4d", pl.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if app, err = svc.cs.Approve(ctx, fixture.Agency("110"), "", app.ID); err != nil || app.NoticeID == 0 {
		t.Fatalf("on notice: %v %v", app, err)
	}
	objections := fmt.Sprintf("/notices/%d/objections", app.NoticeID)
	post := func(i int, path string) int {
		t.Helper()
		// a well-formed objection with a stale form token: checked, charged, refused
		resp, err := http.PostForm(servers[i%2]+path, url.Values{"token": {"not-a-token"}, "name": {"x"}, "contact": {"x@example.org"}, "reason": {"x"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tt := range []struct {
		path  string
		limit int
	}{{"/login", 3}, {objections, 2}} {
		for i := range tt.limit {
			if code := post(i, tt.path); code == http.StatusTooManyRequests {
				t.Fatalf("%s, request %d of %d (server %d): refused", tt.path, i+1, tt.limit, i%2)
			}
		}
		for i := tt.limit; i < tt.limit+2; i++ {
			if code := post(i, tt.path); code != http.StatusTooManyRequests {
				t.Fatalf("%s, request %d past the shared limit of %d (server %d): %d, want 429", tt.path, i+1, tt.limit, i%2, code)
			}
		}
	}
	// verification is counted in each process: one each
	for i := range 2 {
		resp, err := http.Get(servers[i] + "/verify?number=110260001")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			t.Fatalf("server %d's first verification refused: the per-process limit is shared", i)
		}
	}
	// the windows are rows of the database, one per limit and client
	pool, err := pgxpool.New(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var names string
	if err := pool.QueryRow(ctx, `SELECT string_agg(name || '=' || used, ',' ORDER BY name) FROM rate_windows`).Scan(&names); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(names, "login=3") || !strings.Contains(names, "objection=2") || strings.Contains(names, "verify") {
		t.Fatalf("rate windows %q", names)
	}
}
