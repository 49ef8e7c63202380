package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/nationaldata"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web"
)

// BenchmarkAuditSummary serves the staff's national summary of a year's
// audits (34 agencies × every indicator, sorted by one, with the issuance
// and trend charts) from the stored snapshots, against serving a static
// page of the same bytes through the same server and signed-in browser, in
// the same run: the ratio x_static is the figure, not the times. The data
// are the national data set's small scale, two audit years, both opened
// (the earlier one feeds the trend from its snapshot).
func BenchmarkAuditSummary(b *testing.B) {
	ctx := context.Background()
	plan, err := nationaldata.Build(nationaldata.Options{Years: []int{2025, 2026}, Seed: 3, Scale: nationaldata.Small})
	if err != nil {
		b.Fatal(err)
	}
	pool, _ := harness.NewDB(b)
	if _, err := nationaldata.Load(ctx, pool, plan); err != nil {
		b.Fatal(err)
	}
	clock := fixture.NewClock(time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC))
	store := ledger.New(pool, clock.Now, nil)
	reg := registry.New(store)
	au, err := audit.New(store, reg, audit.Config{})
	if err != nil {
		b.Fatal(err)
	}
	for _, y := range []int{2025, 2026} {
		if _, err := au.OpenYear(ctx, fixture.Staff, "", y); err != nil {
			b.Fatal(err)
		}
	}
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithGrantGate(au), certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		b.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	portal, err := web.New(ctx, store, reg, cs, ts, slog.New(slog.DiscardHandler), web.Options{Audit: au})
	if err != nil {
		b.Fatal(err)
	}
	var static []byte
	mux := http.NewServeMux()
	mux.Handle("/", portal)
	mux.HandleFunc("GET /bench/static", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(static)
	})
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	tok, _, err := reg.CreateToken(ctx, ledger.Actor{Kind: ledger.SystemActor, Name: "bench"}, ledger.StaffActor, "", "li")
	if err != nil {
		b.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) []byte {
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return body
	}
	login := string(get("/login"))
	i := strings.Index(login, `name="csrf" value="`) + len(`name="csrf" value="`)
	csrf := login[i : i+strings.IndexByte(login[i:], '"')]
	if resp, err := c.PostForm(srv.URL+"/login", url.Values{"csrf": {csrf}, "token": {tok}}); err != nil || resp.StatusCode != http.StatusSeeOther {
		b.Fatalf("sign in: %v", err)
	} else {
		resp.Body.Close()
	}
	const summary = "/workspace/audit?year=2026&sort=dan_issued_per_player&dir=desc&lang=zh-CN"
	static = get(summary)
	if n := strings.Count(string(static), `data-testid="audit-row-`); n != 34 || !strings.Contains(string(static), `data-testid="chart-issued"`) {
		b.Fatalf("the summary has %d rows", n)
	}
	var baseline float64
	b.Run("static-baseline", func(b *testing.B) {
		for b.Loop() {
			_ = get("/bench/static")
		}
		baseline = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		b.ReportMetric(float64(len(static)), "bytes")
	})
	b.Run("summary", func(b *testing.B) {
		for b.Loop() {
			_ = get(summary)
		}
		if baseline > 0 {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/baseline, "x_static")
		}
	})
}
