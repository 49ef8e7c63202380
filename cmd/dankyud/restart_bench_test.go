package main_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/internal/pgcluster"
)

// BenchmarkRestartToServing restarts the server on a data directory that
// has been started before (its cluster initialised and migrated, then
// stopped), from exec to the gRPC health service answering SERVING, and
// in the same run, interleaved, starts the same cluster alone with
// pg_ctl start -w (pgcluster's StartWithPgCtl) as the baseline; 11 rounds
// (on a shared machine one round's ratio ranges 0.5–4×), min / median /
// max of the ratio (goal ≤ 1.2×). The server's log lines of the last
// restart are logged with their times, a profile of where startup goes.
// Run with -benchtime 1x.
func BenchmarkRestartToServing(b *testing.B) {
	if _, err := pgcluster.FindBinaries(); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "dankyud")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	dataDir := filepath.Join(dir, "data")
	ctx := context.Background()
	cluster, err := pgcluster.New(dataDir, pgcluster.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cluster.Stop(context.Background(), true, true) })
	port := freeTCPPort(b)
	// restart runs the server until SERVING and stops it, and returns the
	// time to SERVING and the server's log with each line's offset
	restart := func() (time.Duration, []string) {
		start := time.Now()
		cmd := exec.Command(bin, "--grpc-addr", port, "--http-addr", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0")
		cmd.Env = append(os.Environ(), "DANKYU_DATA_DIR="+dataDir, "DANKYU_DATABASE_URL=")
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var lines []string
		done := make(chan struct{})
		go func() {
			defer close(done)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				lines = append(lines, fmt.Sprintf("+%v %s", time.Since(start).Round(time.Millisecond), sc.Text()))
			}
		}()
		// reconnecting every 2 ms (the default backoff waits a second
		// after the first refused connection, before the server listens)
		conn, err := grpc.NewClient(port, grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.Config{BaseDelay: 2 * time.Millisecond, Multiplier: 1,
				MaxDelay: 2 * time.Millisecond}, MinConnectTimeout: 100 * time.Millisecond}))
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		health := healthpb.NewHealthClient(conn)
		var took time.Duration
		for {
			cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			h, err := health.Check(cctx, &healthpb.HealthCheckRequest{})
			cancel()
			if err == nil && h.GetStatus() == healthpb.HealthCheckResponse_SERVING {
				took = time.Since(start)
				break
			}
			if time.Since(start) > time.Minute {
				cmd.Process.Kill()
				<-done
				b.Fatalf("not SERVING within a minute:\n%s", strings.Join(lines, "\n"))
			}
			time.Sleep(2 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		<-done
		if err := cmd.Wait(); err != nil {
			b.Fatalf("server stopped with %v:\n%s", err, strings.Join(lines, "\n"))
		}
		return took, lines
	}
	restart() // the first start: initdb, migrations
	pgStart := func() time.Duration {
		start := time.Now()
		if err := cluster.StartWithPgCtl(ctx); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		if err := cluster.Stop(ctx, false, false); err != nil {
			b.Fatal(err)
		}
		return took
	}
	for b.Loop() {
		var server, base, ratio []float64
		var last []string
		for r := range 11 {
			var s, p time.Duration
			if r%2 == 0 {
				s, last = restart()
				p = pgStart()
			} else {
				p = pgStart()
				s, last = restart()
			}
			server, base = append(server, float64(s.Milliseconds())), append(base, float64(p.Milliseconds()))
			ratio = append(ratio, float64(s)/float64(p))
		}
		b.Logf("restart to SERVING %s ms; pg_ctl start -w alone %s ms; ratio %s (goal ≤ 1.2×)",
			spread3(server, "%.0f"), spread3(base, "%.0f"), spread3(ratio, "%.2f×"))
		b.Logf("the last restart's log:\n%s", strings.Join(last, "\n"))
		b.ReportMetric(median3(ratio), "restart/pg_ctl")
	}
}

func freeTCPPort(b *testing.B) string {
	b.Helper()
	l, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func spread3(xs []float64, f string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return fmt.Sprintf(f+" / "+f+" / "+f, s[0], s[len(s)/2], s[len(s)-1])
}

func median3(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
