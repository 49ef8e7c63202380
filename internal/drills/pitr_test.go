package drills_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/daemontest"
	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/server"
)

// TestPITRDrill is a recovery to a moment: archiving set up with `dankyu
// pitr setup`, certificates issued through the server, a moment noted
// while no request is in flight (and a checkpoint taken before it), more
// certificates issued, then a bad change made behind the server's back
// (a certificate's rank raised, another deleted). `dankyu pitr restore`
// to the noted moment gives a fresh data folder with exactly the
// certificates acknowledged before it, untouched, its log verified
// against the checkpoint; the server starts on it, migrated, its witness
// satisfied.
func TestPITRDrill(t *testing.T) {
	t.Parallel()
	bin, cli := binaries.Get(t)
	var dirs []string
	tmp := func(prefix string) string {
		d, err := os.MkdirTemp("", prefix)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
		return d
	}
	dataDir, repo, restored := tmp("dkpitr"), tmp("dkrepo"), tmp("dkrestored")
	restored = filepath.Join(restored, "data")
	t.Cleanup(func() {
		for _, d := range []string{dataDir, restored} {
			if c, err := pgcluster.New(d, pgcluster.Options{}); err == nil {
				_ = c.Stop(context.Background(), true, true)
			}
		}
		for _, d := range dirs {
			os.RemoveAll(d)
		}
	})
	if out, err := daemontest.RunCLI(t, cli, daemontest.Embedded(dataDir), "pitr", "setup", "--repo", repo); err != nil {
		t.Fatalf("pitr setup: %v\n%s", err, out)
	}
	srv := daemontest.Start(t, bin, daemontest.Embedded(dataDir))
	conn, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	load := daemontest.CertifyUnderLoad(t, cli, daemontest.Embedded(dataDir), conn, 4, false)
	load.WaitAcked(t, 20, false)

	code, checkpoint := daemontest.HTTPGet(t, "http://"+srv.HTTP+"/log/checkpoint")
	if code != 200 {
		t.Fatalf("/log/checkpoint: %d %s", code, checkpoint)
	}
	saved := filepath.Join(repo, "kept.checkpoint")
	if err := os.WriteFile(saved, []byte(checkpoint), 0o600); err != nil {
		t.Fatal(err)
	}
	load.WaitAcked(t, 10, false)

	// the moment: no request in flight a second either side of it
	resume := load.Pause()
	before := load.Acked()
	time.Sleep(1100 * time.Millisecond)
	moment := time.Now()
	time.Sleep(1100 * time.Millisecond)
	resume()
	load.WaitAcked(t, 20, false)
	load.Halt()
	after := load.Acked()[len(before):]

	db := daemontest.Superuser(t, dataDir)
	daemontest.AsSuperuser(t, db, `UPDATE certificates SET rank = 7 WHERE number = $1`, before[0])
	daemontest.AsSuperuser(t, db, `DELETE FROM certificates WHERE number = $1`, before[1])
	if out, err := daemontest.RunCLI(t, cli, daemontest.Embedded(dataDir), "pitr", "archive", "--repo", repo); err != nil {
		t.Fatalf("pitr archive: %v\n%s", err, out)
	}
	_ = srv.Stop(os.Interrupt)

	out, err := daemontest.RunCLI(t, cli, daemontest.Embedded(dataDir), "pitr", "restore", "--repo", repo, "--to", moment.Format(time.RFC3339Nano),
		"--into", restored, "--checkpoint", saved)
	if err != nil {
		t.Fatalf("pitr restore: %v\n%s", err, out)
	}
	numbers := daemontest.Column(t, daemontest.Superuser(t, restored), allNumbers)
	slices.Sort(numbers)
	want := slices.Clone(before)
	slices.Sort(want)
	if !slices.Equal(numbers, want) {
		t.Fatalf("restored %d certificates %v; want exactly the %d acknowledged before the moment %v (%d issued after it)",
			len(numbers), numbers, len(want), want, len(after))
	}
	daemontest.AssertGapless(t, numbers)
	var rank int
	if err := daemontest.Superuser(t, restored).QueryRow(context.Background(), `SELECT rank FROM certificates WHERE number = $1`, before[0]).Scan(&rank); err != nil || rank != 1 {
		t.Fatalf("certificate %s restored with rank %d (%v), want 1 (1 dan) as issued", before[0], rank, err)
	}
	if c, err := pgcluster.New(restored, pgcluster.Options{}); err == nil {
		_ = c.Stop(context.Background(), true, false)
	}

	// the server on the restored folder: migrated, its witness from the checkpoint
	srv = daemontest.Start(t, bin, daemontest.Embedded(restored))
	conn2, err := grpc.NewClient(srv.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	h, err := healthpb.NewHealthClient(conn2).Check(context.Background(), &healthpb.HealthCheckRequest{Service: server.LogHealthService})
	if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("log health on the restored folder: %v %v\n%s", h, err, srv.Log)
	}
	_ = srv.Stop(os.Interrupt)
	t.Logf("%d certificates before the moment, %d after; restored exactly the %d; %s", len(before), len(after), len(numbers), out)
}

// allNumbers is every certificate number a database holds.
const allNumbers = `SELECT number FROM certificates WHERE number IS NOT NULL`

// binaries are the server and the CLI, built for the first drill that asks.
var binaries daemontest.Binaries

func TestMain(m *testing.M) {
	code := m.Run()
	binaries.Remove()
	os.Exit(code)
}
