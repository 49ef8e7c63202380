package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/web"
)

// cost is one request's wall time and the Go process's CPU time (user and
// system: PostgreSQL runs in processes of its own and is not in it).
type cost struct{ wall, cpu time.Duration }

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// perOp runs op b.N times in a sub-benchmark and returns its cost per op.
func perOp(b *testing.B, name string, op func(b *testing.B)) cost {
	var c cost
	b.Run(name, func(b *testing.B) {
		cpu := processCPU()
		for b.Loop() {
			op(b)
		}
		c = cost{b.Elapsed() / time.Duration(b.N), (processCPU() - cpu) / time.Duration(b.N)}
		b.ReportMetric(float64(c.cpu.Nanoseconds()), "cpu-ns/op")
	})
	return c
}

// issueOne certifies one new player 1 dan through the services and returns the number.
func issueOne(b *testing.B, e *env, seq int) (string, int64) {
	b.Helper()
	birth := time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, seq/900).Format(time.DateOnly)
	p := fixture.Player(b, e.reg, "110", fmt.Sprintf("路径%d", seq), "", birth, seq%900+1)
	a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d",
		Basis: "tournament", EventID: fixture.Earned(b, e.ts, "1d", p.ID)})
	if err != nil {
		b.Fatal(err)
	}
	return "", a.ID
}

// BenchmarkRequestPath measures, in one run, each public request against
// its baseline: the verification page against a static page of the same
// bytes (goal ≤ 3×), gRPC VerifyCertificate against a bare health check
// (≤ 2×), and issuance over gRPC (ApproveApplication of a 1 dan) against a
// single-row UPDATE … RETURNING loop on the same database (≤ 2×). The
// ratios are logged.
func BenchmarkRequestPath(b *testing.B) {
	e := newEnvB(b)
	ctx := context.Background()
	fixture.Stock(b, e.cs, "110", e.clock.Now().In(ledger.ChinaTime).Year(), certs.MaxDanSerial, 0)
	_, app := issueOne(b, e, 1)
	a, err := e.cs.Approve(ctx, fixture.Agency("110"), "", app)
	if err != nil {
		b.Fatal(err)
	}
	number := a.CertificateNumber

	portal, err := web.New(ctx, e.store, e.reg, e.cs, e.ts, nil, web.Options{})
	if err != nil {
		b.Fatal(err)
	}
	get := func(h http.Handler, target string) []byte {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: %d", target, rec.Code)
		}
		return rec.Body.Bytes()
	}
	page := get(portal, "/verify?number="+number)
	static := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	verify := perOp(b, "verify_page", func(b *testing.B) { get(portal, "/verify?number="+number) })
	flat := perOp(b, "static_page", func(b *testing.B) { get(static, "/verify") })
	// the floor under any page that reads the database: the static page
	// after one round trip (SELECT 1) on the same pool
	roundTrip := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var one int
		if err := e.store.DB().QueryRow(r.Context(), `SELECT 1`).Scan(&one); err != nil {
			b.Fatal(err)
		}
		static(w, r)
	})
	floor := perOp(b, "static_page_after_select1", func(b *testing.B) { get(roundTrip, "/verify") })

	// the same two over a loopback connection, as a browser meets them: the
	// same server, keep-alive client, bodies read to the end
	mux := http.NewServeMux()
	mux.Handle("/", portal)
	mux.Handle("GET /bench/static", static)
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	fetch := func(b *testing.B, path string) {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || int(n) != len(page) {
			b.Fatalf("GET %s: %d, %d bytes, %v", path, resp.StatusCode, n, err)
		}
	}
	verifyHTTP := perOp(b, "verify_page_http", func(b *testing.B) { fetch(b, "/verify?number="+number) })
	flatHTTP := perOp(b, "static_page_http", func(b *testing.B) { fetch(b, "/bench/static") })

	health := healthpb.NewHealthClient(e.conn)
	rpc := perOp(b, "grpc_verify", func(b *testing.B) {
		if _, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: number}); err != nil {
			b.Fatal(err)
		}
	})
	perOp(b, "grpc_verify_malformed", func(b *testing.B) {
		if _, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: "x"}); err == nil {
			b.Fatal("no error")
		}
	})
	bare := perOp(b, "grpc_health", func(b *testing.B) {
		if _, err := health.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
			b.Fatal(err)
		}
	})

	// issuance: applications made beforehand, each approval over gRPC
	const issues = 2000
	apps := make([]int64, issues)
	for i := range apps {
		_, apps[i] = issueOne(b, e, i+2)
	}
	token, _, err := e.reg.CreateToken(ctx, ledger.Actor{Kind: ledger.SystemActor, Name: "bench"}, ledger.AgencyActor, "110", "")
	if err != nil {
		b.Fatal(err)
	}
	next := 0
	issue := perOp(b, "grpc_issue", func(b *testing.B) {
		if next == issues {
			b.Skip("out of applications")
		}
		if _, err := e.certs.ApproveApplication(e.as(token, "idempotency-key", fmt.Sprintf("bench-%d", next)), &pb.ApproveApplicationRequest{Id: apps[next]}); err != nil {
			b.Fatal(err)
		}
		next++
	})
	if _, err := e.store.DB().Exec(ctx, `CREATE TABLE bench_counter (id int PRIMARY KEY, n bigint NOT NULL); INSERT INTO bench_counter VALUES (1, 0)`); err != nil {
		b.Fatal(err)
	}
	update := perOp(b, "update_returning", func(b *testing.B) {
		var n int64
		if err := e.store.DB().QueryRow(ctx, `UPDATE bench_counter SET n = n + 1 WHERE id = 1 RETURNING n`).Scan(&n); err != nil {
			b.Fatal(err)
		}
	})
	say := func(what string, x, y cost, goal string) {
		b.Logf("%s: wall %s vs %s = %.2f×, Go CPU %s vs %s = %.2f× (goal %s)", what, x.wall, y.wall,
			float64(x.wall)/float64(y.wall), x.cpu, y.cpu, float64(x.cpu)/float64(y.cpu), goal)
	}
	say(fmt.Sprintf("verification page vs a static page of its %d bytes", len(page)), verify, flat, "≤ 3×")
	say("verification page vs the static page after one SELECT 1", verify, floor, "none: the floor of a database read")
	say("verification page vs the static page, over loopback HTTP", verifyHTTP, flatHTTP, "≤ 3×")
	say("gRPC VerifyCertificate vs health check", rpc, bare, "≤ 2×")
	say("issuance over gRPC vs UPDATE … RETURNING", issue, update, "≤ 2×")
}
