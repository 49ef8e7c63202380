package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/proposals"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// startPgBouncer runs PgBouncer in transaction mode on loopback in front of
// the database of conn (as the postgres user when the test runs as root:
// PgBouncer refuses root) and returns conn through it.
func startPgBouncer(t *testing.T, conn string) string {
	t.Helper()
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		if bin = "/usr/sbin/pgbouncer"; func() bool { _, err := os.Stat(bin); return err != nil }() {
			t.Fatal("pgbouncer is not installed (apt-get install pgbouncer)")
		}
	}
	pc, err := pgconn.ParseConfig(conn)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	addr := freePort(t)
	_, port, _ := net.SplitHostPort(addr)
	ini := fmt.Sprintf(`[databases]
%s = host=%s port=%d dbname=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %s
unix_socket_dir =
auth_type = trust
auth_file = %s
pool_mode = transaction
default_pool_size = 4
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
`, pc.Database, pc.Host, pc.Port, pc.Database, port, filepath.Join(dir, "users.txt"))
	files := map[string]string{"pgbouncer.ini": ini, "users.txt": fmt.Sprintf("%q \"\"\n", pc.User)}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, pgbouncer must run as postgres: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		// the test's own temporary folder, root's, lets it through to dir
		if err := os.Chmod(filepath.Dir(dir), 0o711); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, filepath.Join(dir, "pgbouncer.ini"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	cmd.Stderr = testWriter{t}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pgbouncer does not listen on %s", addr)
		}
	}
	return fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable&default_query_exec_mode=cache_describe", pc.User, addr, pc.Database)
}

// TestThroughPgBouncer: the registry's services over a pool through
// PgBouncer in transaction mode, pgx in cache_describe mode (no named prepared
// statement outlives its transaction, as a transaction pooler needs): 16
// clients at once issue certificates (transactions with the event log's
// advisory lock, idempotency records, the log's tree) and verify them, more
// clients than the pooler has server connections; every certificate is
// there, its number series gapless, and the log verifies.
func TestThroughPgBouncer(t *testing.T) {
	ctx := context.Background()
	_, conn := harness.NewDB(t)
	url := startPgBouncer(t, conn)
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	pcfg.MaxConns = 16
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	clock := fixture.TodayClock(t)
	store := ledger.New(pool, clock.Now, slog.New(slog.DiscardHandler))
	reg := registry.New(store)
	cs, err := certs.New(store, reg, certs.Config{}, certs.WithEventEvidence(proposals.Evidence{}))
	if err != nil {
		t.Fatal(err)
	}
	ts := tournaments.New(store, reg, proposals.Certs{Certs: cs})
	fixture.Agencies(t, reg, "110")
	fixture.Stock(t, cs, "110", clock.Now().In(ledger.ChinaTime).Year(), 100, 0)
	const clients, each = 16, 2
	numbers := make(chan string, clients*each)
	// the players and their events first (the fixtures stop the test on
	// a failure, which only the test's goroutine may)
	type entrant struct{ player, event int64 }
	var entrants []entrant
	for seq := 1; seq <= clients*each; seq++ {
		p := fixture.Player(t, reg, "110", fmt.Sprintf("池%d", seq), "", "1980-01-01", seq)
		entrants = append(entrants, entrant{p.ID, fixture.Earned(t, ts, "1d", p.ID)})
	}
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := range each {
				en := entrants[c*each+i]
				a, err := cs.Apply(ctx, fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: en.player, TargetRank: "1d",
					Basis: "tournament", EventID: en.event})
				if err == nil {
					a, err = cs.Approve(ctx, fixture.Agency("110"), "", a.ID)
				}
				if err != nil || a.CertificateNumber == "" {
					t.Errorf("client %d: issue through the pooler: %v", c, err)
					return
				}
				v, err := cs.Verify(ctx, a.CertificateNumber)
				if err != nil || !v.Found || v.Certificate.Status != certs.CertValid {
					t.Errorf("client %d: verify %s through the pooler: %+v %v", c, a.CertificateNumber, v, err)
					return
				}
				numbers <- a.CertificateNumber
			}
		})
	}
	wg.Wait()
	close(numbers)
	seen := map[string]bool{}
	for n := range numbers {
		seen[n] = true
	}
	if len(seen) != clients*each {
		t.Fatalf("%d certificates issued, want %d", len(seen), clients*each)
	}
	year := fmt.Sprintf("%02d", certs.Year(clock.Now()))
	for i := 1; i <= clients*each; i++ {
		if n := fmt.Sprintf("110%s%04d", year, i); !seen[n] {
			t.Fatalf("series has a gap: %s missing", n)
		}
	}
	if n, err := ledger.VerifyLog(ctx, pool); err != nil || n == 0 {
		t.Fatalf("log through the pooler: %d events, %v", n, err)
	}
}
