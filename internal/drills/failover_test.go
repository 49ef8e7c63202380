package drills_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/daemontest"
	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/server"
)

// formation makes a pg_auto_failover formation with `dankyu cluster init`
// (monitor, primary, synchronous secondary on loopback), stopped and
// removed when the test ends, and returns it with the URLs the command
// printed.
func formation(t *testing.T, cli string) (f *pgcluster.Formation, url, migrationURL string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "dkha")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := pgcluster.OpenFormation(dir, nil); err == nil {
			if err := f.Stop(context.Background()); err != nil {
				t.Logf("stop formation: %v", err)
			}
		}
		os.RemoveAll(dir)
	})
	out, err := daemontest.RunCLI(t, cli, nil, "cluster", "init", "--dir", dir)
	if err != nil {
		t.Fatalf("dankyu cluster init: %v\n%s", err, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "export DANKYU_DATABASE_URL="); ok {
			url = strings.Trim(v, "'")
		}
		if v, ok := strings.CutPrefix(line, "export DANKYU_MIGRATION_URL="); ok {
			migrationURL = strings.Trim(v, "'")
		}
	}
	if !strings.Contains(url, "target_session_attrs=read-write") || strings.Count(url, "127.0.0.1:") != 2 || migrationURL == "" {
		t.Fatalf("cluster init printed no multi-host URLs:\n%s", out)
	}
	if f, err = pgcluster.OpenFormation(dir, nil); err != nil {
		t.Fatal(err)
	}
	return f, url, migrationURL
}

// TestFailoverDrill is the primary lost under load: 16 clients certify
// players through the real server, which reaches a pg_auto_failover
// formation by its multi-host URL; the primary's node is killed (its
// keeper and PostgreSQL, SIGKILL, as the loss of its machine); the monitor
// has the synchronous secondary promoted; the server, not restarted,
// follows it, answering UNAVAILABLE meanwhile. Every acknowledged
// certificate is on the promoted node, each series is gapless, the
// server's witness has not tripped, and the log verifies against a
// checkpoint taken before the kill. The time writes were refused is
// logged (docs/operations.md quotes it).
func TestFailoverDrill(t *testing.T) {
	t.Parallel()
	bin, cli := binaries.Get(t)
	f, url, migrationURL := formation(t, cli)
	ctx := context.Background()

	// commits wait for the secondary: an acknowledged certificate is on both
	primary, err := f.WaitPrimary(ctx, 0, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, strings.Replace(url, server.EmbeddedServerRole+"@", "postgres@", 1))
	if err != nil {
		t.Fatal(err)
	}
	var syncNames, syncState string
	if err := admin.QueryRow(ctx, `SELECT current_setting('synchronous_standby_names'),
		(SELECT string_agg(sync_state, ',') FROM pg_stat_replication)`).Scan(&syncNames, &syncState); err != nil {
		t.Fatal(err)
	}
	admin.Close(ctx)
	if syncNames == "" || (syncState != "sync" && syncState != "quorum") || current(ctx, f) != primary {
		t.Fatalf("primary on %d: synchronous_standby_names %q, standby %q; want one synchronous standby", primary, syncNames, syncState)
	}

	keyDir, err := os.MkdirTemp("", "dkhakey") // the server's log key and kept head
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(keyDir) })
	env := []string{"DANKYU_DATA_DIR=" + keyDir, "DANKYU_DATABASE_URL=" + url, "DANKYU_MIGRATION_URL=" + migrationURL,
		"DANKYU_DB_CHECK_INTERVAL=200ms", "DANKYU_LOG_CHECK_INTERVAL=500ms"}
	srv := daemontest.Start(t, bin, env)
	conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	load := daemontest.CertifyUnderLoad(t, cli, env, conn, 16, true)
	load.WaitAcked(t, 40, true)

	code, checkpoint := daemontest.HTTPGet(t, "http://"+srv.HTTP+"/log/checkpoint")
	if code != 200 {
		t.Fatalf("/log/checkpoint: %d %s", code, checkpoint)
	}
	saved := filepath.Join(keyDir, "before-the-kill.checkpoint")
	if err := os.WriteFile(saved, []byte(checkpoint), 0o600); err != nil {
		t.Fatal(err)
	}
	load.WaitAcked(t, 20, true)

	killed := time.Now()
	if err := f.KillNode(ctx, primary); err != nil {
		t.Fatal(err)
	}
	promoted, err := f.WaitPrimary(ctx, primary, 90*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	promotedAt := time.Since(killed)
	load.WaitAcked(t, 40, true) // writes resumed, through the same server
	load.Halt()
	acked := load.Acked()

	// the refusal: from the kill to the first certificate acknowledged after it
	var before, resumed time.Time
	for _, at := range load.AckedAt() {
		if at.Before(killed) && at.After(before) {
			before = at
		}
		if at.After(killed) && (resumed.IsZero() || at.Before(resumed)) {
			resumed = at
		}
	}
	for c, n := range load.Codes() {
		if c != codes.Unavailable {
			t.Errorf("%d requests failed with %v during the failover, want UNAVAILABLE (retryable) only; first error: %v", n, c, load.FirstError())
		}
	}

	// the witness accepts the promoted node's log as its own: not tripped
	health := healthpb.NewHealthClient(conn)
	h, err := health.Check(ctx, &healthpb.HealthCheckRequest{Service: server.LogHealthService})
	if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("log health after the failover: %v %v\n%s", h, err, srv.Log)
	}
	if strings.Contains(srv.Log.String(), "INTEGRITY CHECK FAILED") {
		t.Fatalf("the witness tripped on the promoted node:\n%s", srv.Log)
	}
	_ = srv.Stop(os.Interrupt)

	db, err := pgx.Connect(ctx, strings.Replace(url, server.EmbeddedServerRole+"@", "postgres@", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	numbers := daemontest.Column(t, db, allNumbers)
	if lost := daemontest.Missing(acked, numbers); len(lost) > 0 {
		t.Fatalf("%d of %d acknowledged certificates lost in the failover: %v", len(lost), len(acked), lost)
	}
	daemontest.AssertGapless(t, numbers)
	out, err := daemontest.RunCLI(t, cli, env, "log", "verify", "--checkpoint", saved)
	if err != nil {
		t.Fatalf("log verify against the checkpoint taken before the kill: %v\n%s", err, out)
	}
	t.Logf("primary on %d killed; %d promoted after %s; writes refused for %s (last acknowledged %s before the kill, first %s after); "+
		"%d certificates acknowledged, none lost; refused requests by code %v; %s",
		primary, promoted, promotedAt.Round(10*time.Millisecond), resumed.Sub(before).Round(10*time.Millisecond),
		killed.Sub(before).Round(time.Millisecond), resumed.Sub(killed).Round(10*time.Millisecond), len(acked), load.Codes(), out)
}

// current is the port of the node the monitor has as primary, 0 if none.
func current(ctx context.Context, f *pgcluster.Formation) int {
	states, err := f.States(ctx)
	if err != nil {
		return 0
	}
	for _, s := range states {
		if s.Reported == "primary" {
			return s.Port
		}
	}
	return 0
}
