package main_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/daemontest"
	"github.com/dankyu/dankyu/internal/pgcluster"
)

// TestDeadDatabaseIsNoticedAndRestarted kills the embedded postmaster
// under 16 clients certifying players: health turns NOT_SERVING, the
// supervisor starts PostgreSQL again, health comes back SERVING, the
// clients are answered again, and every certificate acknowledged before,
// during or after the outage is in the database. The server's own cluster
// commits durably (fsync on), unlike the test harness's throwaway ones.
func TestDeadDatabaseIsNoticedAndRestarted(t *testing.T) {
	if _, err := pgcluster.FindBinaries(); err != nil {
		t.Fatal(err)
	}
	server, cli := build(t)
	dataDir, err := os.MkdirTemp("", "dks")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = mustCluster(t, dataDir).Stop(context.Background(), true, true)
		os.RemoveAll(dataDir)
	})
	t.Setenv("DANKYU_DB_CHECK_INTERVAL", "200ms")
	srv := start(t, server, dataDir)
	conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	health := healthpb.NewHealthClient(conn)
	waitFor := func(want healthpb.HealthCheckResponse_ServingStatus) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			h, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{})
			if err == nil && h.GetStatus() == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("health is not %v within 30 s (%v, %v)\n%s", want, h, err, srv.Log)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitFor(healthpb.HealthCheckResponse_SERVING)
	load := daemontest.CertifyUnderLoad(t, cli, daemontest.Embedded(dataDir), conn, 16, true)
	load.WaitAcked(t, 50, true)
	pidFile, err := os.ReadFile(filepath.Join(dataDir, "pgdata", "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(pidFile), "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(healthpb.HealthCheckResponse_NOT_SERVING)
	waitFor(healthpb.HealthCheckResponse_SERVING)
	load.WaitAcked(t, 50, true) // service resumed for the clients
	load.Halt()
	acked := load.Acked()
	if !strings.Contains(srv.Log.String(), "restarting the embedded PostgreSQL") {
		t.Fatalf("no restart in the log:\n%s", srv.Log)
	}
	_ = srv.Stop(syscall.SIGTERM)
	numbers := daemontest.Column(t, daemontest.Superuser(t, dataDir), allNumbers)
	if lost := daemontest.Missing(acked, numbers); len(lost) > 0 {
		t.Fatalf("%d of %d acknowledged certificates lost: %v", len(lost), len(acked), lost)
	}
	daemontest.AssertGapless(t, numbers)
	t.Logf("%d certificates acknowledged, none lost; %d requests refused during the outage", len(acked), load.Errors())
}

// TestHealthzOfTheRunningServer starts the server asking for more free
// space than any disk here has: it serves, but /healthz answers 503 naming
// the disk and the gRPC health service NOT_SERVING; started again with the
// default, both say serving.
func TestHealthzOfTheRunningServer(t *testing.T) {
	server, _ := build(t)
	dataDir, err := os.MkdirTemp("", "dkh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = mustCluster(t, dataDir).Stop(context.Background(), true, true)
		os.RemoveAll(dataDir)
	})
	for _, tt := range []struct {
		flags  []string
		code   int
		body   string
		status healthpb.HealthCheckResponse_ServingStatus
	}{
		{[]string{"--min-free-space", "16777216"}, http.StatusServiceUnavailable, `{"status":"unavailable","failed":["disk"]}`, healthpb.HealthCheckResponse_NOT_SERVING},
		{nil, http.StatusOK, `{"status":"ok"}`, healthpb.HealthCheckResponse_SERVING},
	} {
		srv := startWith(t, server, dataDir, tt.flags...)
		resp, err := http.Get("http://" + srv.HTTP + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || strings.TrimSpace(string(body)) != tt.body {
			t.Errorf("%v: /healthz %d %s; want %d %s", tt.flags, resp.StatusCode, body, tt.code, tt.body)
		}
		conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		h, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
		conn.Close()
		if err != nil || h.GetStatus() != tt.status {
			t.Errorf("%v: gRPC health %v, %v; want %v", tt.flags, h.GetStatus(), err, tt.status)
		}
		_ = srv.Stop(syscall.SIGTERM)
	}
}

// allNumbers is every certificate number a database holds.
const allNumbers = `SELECT number FROM certificates WHERE number IS NOT NULL`
