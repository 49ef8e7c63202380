package pgcluster

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestRecoversFromKilledServer kills PostgreSQL with SIGKILL and leaves a pid
// file naming a live process that is not postgres (as after a reboot, when
// the pid was reused): Start must still bring the cluster back with its data.
func TestRecoversFromKilledServer(t *testing.T) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "dkc")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	c, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Stop(ctx, true, true)
	if err := c.EnsureDatabase(ctx, "keep"); err != nil {
		t.Fatal(err)
	}
	exec := func(sql string) {
		conn, err := pgx.Connect(ctx, c.ConnString("keep"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	exec(`CREATE TABLE t (v int)`)
	exec(`INSERT INTO t VALUES (42)`)

	pid := c.postmasterPID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	// A pid file naming a live process that is not PostgreSQL: this test.
	pidFile := filepath.Join(c.dataDir(), "postmaster.pid")
	b, _ := os.ReadFile(pidFile)
	rest := string(b)[len(strconv.Itoa(pid)):]
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())+rest), 0o600); err != nil {
		t.Fatal(err)
	}

	again, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Start(ctx); err != nil {
		t.Fatalf("restart after kill -9: %v", err)
	}
	conn, err := pgx.Connect(ctx, again.ConnString("keep"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var v int
	if err := conn.QueryRow(ctx, `SELECT v FROM t`).Scan(&v); err != nil || v != 42 {
		t.Fatalf("row after restart: %d, %v", v, err)
	}
}

func TestMissingBinariesNameThePackage(t *testing.T) {
	t.Setenv("PG_BINDIR", t.TempDir())
	_, err := FindBinaries()
	if err == nil || !strings.Contains(err.Error(), "apt-get install postgresql") {
		t.Fatalf("FindBinaries with no binaries: %v", err)
	}
}
