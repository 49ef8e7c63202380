package server_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	grpchealth "google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/health"
	"github.com/dankyu/dankyu/internal/server"
)

// TestHealthzMeansWhatItSays serves /healthz and the gRPC health service
// from the server's checks over a real database and a data folder whose
// free space the test sets: both say serving while everything holds, and
// unavailable, naming the check, when the disk is nearly full or the
// database is gone; a check another part adds (the log's witness) turns
// them unavailable alike.
func TestHealthzMeansWhatItSays(t *testing.T) {
	pool, _ := harness.NewDB(t)
	cfg := server.Config{DataDir: t.TempDir(), MinFreeSpaceMB: 64}
	var free atomic.Uint64
	free.Store(1 << 40)
	var tampered atomic.Bool
	hs := grpchealth.NewServer()
	checker := health.New(health.Options{GRPC: hs, MaxAge: time.Nanosecond, Timeout: time.Second},
		cfg.HealthChecks(pool, func(string) (uint64, error) { return free.Load(), nil })...)
	checker.Add(health.Func("log_integrity", func(context.Context) error {
		if tampered.Load() {
			return errTampered
		}
		return nil
	}))

	gs := grpc.NewServer()
	healthpb.RegisterHealthServer(gs, hs)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	grpcHealth := healthpb.NewHealthClient(cc)
	web := httptest.NewServer(server.WithHealthz(checker, http.NotFoundHandler()))
	t.Cleanup(web.Close)

	expect := func(when string, failed ...string) {
		t.Helper()
		resp, err := http.Get(web.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		var rep health.Report
		err = json.NewDecoder(resp.Body).Decode(&rep)
		resp.Body.Close()
		wantCode, wantStatus, wantGRPC := http.StatusOK, "ok", healthpb.HealthCheckResponse_SERVING
		if len(failed) > 0 {
			wantCode, wantStatus, wantGRPC = http.StatusServiceUnavailable, "unavailable", healthpb.HealthCheckResponse_NOT_SERVING
		}
		if err != nil || resp.StatusCode != wantCode || rep.Status != wantStatus || !slices.Equal(rep.Failed, failed) {
			t.Errorf("%s: /healthz %d %+v (%v); want %d, %q, failed %v", when, resp.StatusCode, rep, err, wantCode, wantStatus, failed)
		}
		g, err := grpcHealth.Check(context.Background(), &healthpb.HealthCheckRequest{})
		if err != nil || g.GetStatus() != wantGRPC {
			t.Errorf("%s: gRPC health %v, %v; want %v", when, g.GetStatus(), err, wantGRPC)
		}
	}

	expect("all well")
	free.Store(10 << 20) // 10 MiB left
	expect("disk nearly full", "disk")
	free.Store(1 << 40)
	expect("disk freed")
	tampered.Store(true)
	expect("the witness finds the log changed", "log_integrity")
	tampered.Store(false)
	expect("log agrees again")
	pool.Close() // the database is gone
	free.Store(0)
	expect("database gone and disk full", "database", "disk")
}

var errTampered = errString("the database's log does not extend the kept tree head")

type errString string

func (e errString) Error() string { return string(e) }
