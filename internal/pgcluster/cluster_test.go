package pgcluster

import (
	"context"
	"errors"
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

// TestSocketFolderMustBePrivate gives the cluster a data folder so deep that
// its socket folder moves to the predictable /tmp/dankyu-<hash>: made first
// by someone else, with a wide mode, or as a link, it is refused before
// PostgreSQL starts; left to Start, it is made 0700 and owned by the user
// PostgreSQL runs as.
func TestSocketFolderMustBePrivate(t *testing.T) {
	ctx := context.Background()
	base, err := os.MkdirTemp("", "dkc")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	dir := filepath.Join(base, strings.Repeat("d", 100))
	c, err := New(dir, Options{Throwaway: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.SocketDir, os.TempDir()+"/dankyu-") {
		t.Fatalf("socket folder %s of a deep data folder is not the short one under %s", c.SocketDir, os.TempDir())
	}
	defer os.RemoveAll(c.SocketDir)
	wantUID := uint32(os.Geteuid())
	if c.cred != nil {
		wantUID = c.cred.Uid
	}

	other, err := os.MkdirTemp("", "dkother")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(other)
	planted := []struct {
		name  string
		plant func() error
	}{
		{"world-writable", func() error {
			if err := os.Mkdir(c.SocketDir, 0o700); err != nil {
				return err
			}
			return os.Chmod(c.SocketDir, 0o777)
		}},
		{"a link to another folder", func() error { return os.Symlink(other, c.SocketDir) }},
	}
	if os.Geteuid() == 0 {
		planted = append(planted, struct {
			name  string
			plant func() error
		}{"owned by another user", func() error {
			if err := os.Mkdir(c.SocketDir, 0o700); err != nil {
				return err
			}
			return os.Chown(c.SocketDir, 65534, 65534) // nobody
		}})
	}
	for _, p := range planted {
		if err := p.plant(); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		err := c.Start(ctx)
		if !errors.Is(err, ErrSocketDirUnsafe) || !strings.Contains(err.Error(), "remove it") {
			_ = c.Stop(ctx, true, true)
			t.Fatalf("start with a socket folder %s: %v, want it refused", p.name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "pgdata")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("socket folder %s: the cluster was created before the refusal (%v)", p.name, err)
		}
		if err := os.Remove(c.SocketDir); err != nil {
			t.Fatal(err)
		}
	}

	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Stop(ctx, true, true)
	st, err := os.Lstat(c.SocketDir)
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsDir() || st.Mode().Perm() != 0o700 || st.Sys().(*syscall.Stat_t).Uid != wantUID {
		t.Fatalf("socket folder made by Start: %v, uid %d; want a 0700 folder of uid %d", st.Mode(), st.Sys().(*syscall.Stat_t).Uid, wantUID)
	}
	if _, err := os.Stat(filepath.Join(c.SocketDir, ".s.PGSQL.5432")); err != nil {
		t.Fatalf("no socket in the private folder: %v", err)
	}
}

// TestRolesSettled: a cluster without the database, or without the
// roles, or with a table the owner does not own, is not settled (a restart
// then runs EnsureDatabase and EnsureRoles); after them it is.
func TestRolesSettled(t *testing.T) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "dkr")
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
	ensure := func() {
		t.Helper()
		if err := c.EnsureDatabase(ctx, "app"); err != nil {
			t.Fatal(err)
		}
		if err := c.EnsureRoles(ctx, "app", "app_owner", "app_server"); err != nil {
			t.Fatal(err)
		}
	}
	settled := func() bool { return c.RolesSettled(ctx, "app", "app_owner", "app_server") }
	if settled() {
		t.Fatal("settled before the database exists")
	}
	if err := c.EnsureDatabase(ctx, "app"); err != nil {
		t.Fatal(err)
	}
	if settled() {
		t.Fatal("settled before the roles exist")
	}
	ensure()
	if !settled() {
		t.Fatal("not settled after EnsureDatabase and EnsureRoles")
	}
	conn, err := pgx.Connect(ctx, c.ConnString("app"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE TABLE made_by_superuser (v int)`); err != nil {
		t.Fatal(err)
	}
	if settled() {
		t.Fatal("settled with a table the owner does not own")
	}
	ensure()
	if !settled() {
		t.Fatal("not settled after the table was handed over")
	}
}

// TestStartFailsWithTheLog breaks the cluster's configuration, and cuts a
// start short: Start must return (not hang) with an error that says what
// went wrong, quoting the log, and leave no postmaster behind; once
// repaired, the cluster starts.
func TestStartFailsWithTheLog(t *testing.T) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "dkc")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	c, err := New(dir, Options{Throwaway: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(ctx, false, true); err != nil {
		t.Fatal(err)
	}
	auto := filepath.Join(c.dataDir(), "postgresql.auto.conf")
	good, err := os.ReadFile(auto)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, conf string
		timeout    time.Duration
		want       []string
	}{
		{"invalid setting", "shared_buffers = 'banana'\n", time.Minute, []string{"the server exited", "shared_buffers", "banana"}},
		{"unknown setting", "no_such_setting = 1\n", time.Minute, []string{"the server exited", "no_such_setting"}},
		{"cut short", "", time.Microsecond, []string{"context deadline exceeded", "the end of its log"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(auto, append(append([]byte{}, good...), tc.conf...), 0o600); err != nil {
				t.Fatal(err)
			}
			cctx, cancel := context.WithTimeout(ctx, tc.timeout)
			defer cancel()
			begin := time.Now()
			err := c.Start(cctx)
			if err == nil {
				c.Stop(ctx, true, true)
				t.Fatal("started")
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q: %v", w, err)
				}
			}
			if took := time.Since(begin); took > 30*time.Second {
				t.Errorf("took %v to fail", took)
			}
			for i := 0; i < 200 && c.running(); i++ {
				time.Sleep(10 * time.Millisecond)
			}
			if c.running() {
				c.Stop(ctx, true, true)
				t.Fatal("a postmaster is left running")
			}
		})
	}
	if err := os.WriteFile(auto, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start once repaired: %v", err)
	}
	if err := c.Stop(ctx, false, true); err != nil {
		t.Fatal(err)
	}
}
