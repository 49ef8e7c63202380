// Package pgcluster runs a private PostgreSQL cluster in a folder, from the
// machine's own PostgreSQL binaries. The server uses it when no database URL
// is given, and the test harness uses it for a throwaway cluster per package.
package pgcluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoBinaries means PostgreSQL is not installed.
var ErrNoBinaries = errors.New("no PostgreSQL server binaries (initdb, pg_ctl) found: install them (Debian/Ubuntu: apt-get install postgresql), put them on PATH, or set PG_BINDIR")

// Options tune a cluster.
type Options struct {
	// Throwaway trades durability for speed (fsync off): for tests only.
	Throwaway bool
	Log       *slog.Logger
}

// Cluster is a PostgreSQL cluster in Dir/pgdata with its socket in SocketDir.
type Cluster struct {
	Dir       string
	SocketDir string
	binDir    string
	cred      *syscall.Credential // set when running as root: run as "postgres"
	opts      Options
	log       *slog.Logger
	started   bool     // this process started the server, so it stops it
	created   bool     // the last Start made the data folder
	primary   *Cluster // set for a streaming standby of that primary
}

// New prepares a cluster in dir (created if missing). It finds the
// binaries and, as root, the postgres user the server must run as.
func New(dir string, opts Options) (*Cluster, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("data dir %s: %w", dir, err)
	}
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Cluster{Dir: abs, binDir: bin, opts: opts, log: log}
	c.SocketDir = filepath.Join(abs, "run")
	// A Unix socket path holds at most ~107 bytes; deep folders get a short
	// socket folder of their own under /tmp, named for the data dir (so the
	// CLI finds the server's socket). That name is predictable: prepareDirs
	// accepts the folder only if it is ours and private (privateDir).
	if len(c.SocketDir)+len("/.s.PGSQL.5432.lock") > 100 {
		sum := sha256.Sum256([]byte(abs))
		c.SocketDir = filepath.Join(os.TempDir(), "dankyu-"+hex.EncodeToString(sum[:6]))
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, PostgreSQL must run as the 'postgres' user, which does not exist (apt-get install postgresql creates it): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	return c, nil
}

// FindBinaries locates initdb and pg_ctl: $PG_BINDIR, then PATH, then
// `pg_config --bindir`, then the newest /usr/lib/postgresql/*/bin.
func FindBinaries() (string, error) {
	has := func(dir string) bool {
		for _, b := range []string{"initdb", "pg_ctl", "postgres"} {
			if _, err := os.Stat(filepath.Join(dir, b)); err != nil {
				return false
			}
		}
		return true
	}
	if d := os.Getenv("PG_BINDIR"); d != "" {
		if has(d) {
			return d, nil
		}
		return "", fmt.Errorf("PG_BINDIR=%s has no initdb, pg_ctl and postgres: %w", d, ErrNoBinaries)
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if d := filepath.Dir(resolve(p)); has(d) {
			return d, nil
		}
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if d := strings.TrimSpace(string(out)); has(d) {
			return d, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if has(d) {
			return d, nil
		}
	}
	return "", ErrNoBinaries
}

func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func (c *Cluster) dataDir() string { return filepath.Join(c.Dir, "pgdata") }
func (c *Cluster) logFile() string { return filepath.Join(c.Dir, "postgres.log") }

// ConnString is the keyword/value connection string for database db, as
// the cluster's superuser.
func (c *Cluster) ConnString(db string) string { return c.ConnStringAs(db, "postgres") }

func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	// Its own session: a Ctrl-C at the terminal reaches the server, which
	// then stops PostgreSQL in order, instead of reaching both at once.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	return cmd
}

func (c *Cluster) run(ctx context.Context, name string, args ...string) error {
	cmd := c.command(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, strings.TrimSpace(out.String()))
	}
	return nil
}

// prepareDirs creates the folders and, as root, hands them to postgres and
// lets it pass through their parents. The socket folder must be private:
// whoever can write in it could put their own socket there and receive the
// server's connections, passwords and all.
func (c *Cluster) prepareDirs() error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", c.Dir, err)
	}
	if err := c.privateDir(c.SocketDir); err != nil {
		return err
	}
	for _, d := range []string{c.Dir, c.SocketDir} {
		if c.cred == nil {
			continue
		}
		if err := os.Chown(d, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return fmt.Errorf("hand %s to the postgres user: %w", d, err)
		}
		if err := c.allowTraverse(filepath.Dir(d)); err != nil {
			return err
		}
	}
	return nil
}

// ErrSocketDirUnsafe refuses a socket folder that exists but is not a
// private folder of this server's.
var ErrSocketDirUnsafe = errors.New("unsafe PostgreSQL socket folder")

// privateDir creates the socket folder d with mode 0700, or accepts the one
// there only if it is a folder (not a link) with mode 0700 owned by the
// user PostgreSQL runs as (or by us, who then hand it over): under /tmp
// another local user may have made it first.
func (c *Cluster) privateDir(d string) error {
	err := os.Mkdir(d, 0o700)
	if err == nil {
		// the umask only takes bits away; set the mode outright all the same
		if err := os.Chmod(d, 0o700); err != nil {
			return fmt.Errorf("make %s private: %w", d, err)
		}
		return nil
	}
	if !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("create %s: %w", d, err)
	}
	st, err := os.Lstat(d)
	if err != nil {
		return fmt.Errorf("look at %s: %w", d, err)
	}
	me := uint32(os.Geteuid())
	owner := me
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		owner = sys.Uid
	}
	ours := owner == me || (c.cred != nil && owner == c.cred.Uid)
	if st.Mode().IsDir() && st.Mode().Perm() == 0o700 && ours {
		return nil
	}
	what := fmt.Sprintf("a folder owned by uid %d with mode %04o", owner, st.Mode().Perm())
	if !st.Mode().IsDir() {
		what = fmt.Sprintf("not a folder (%s) but owned by uid %d", st.Mode().Type(), owner)
	}
	want := fmt.Sprintf("uid %d", me)
	if c.cred != nil {
		want = fmt.Sprintf("uid %d (postgres) or %d", c.cred.Uid, me)
	}
	return fmt.Errorf("%w: %s is %s, but must be a folder with mode 0700 owned by %s; "+
		"another local user may have made it to receive the database's connections: check who made it, remove it, "+
		"and start again (or use a shorter --data-dir, whose socket folder is then inside it)", ErrSocketDirUnsafe, d, what, want)
}

// allowTraverse adds search permission (x, not read) for others on every
// ancestor of dir that lacks it, so the postgres user can reach its folder.
func (c *Cluster) allowTraverse(dir string) error {
	for d := dir; ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("stat %s: %w", d, err)
		}
		owned := false
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			owned = sys.Uid == c.cred.Uid
		}
		if !owned && st.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(d, st.Mode().Perm()|0o001); err != nil {
				return fmt.Errorf("let the postgres user pass through %s: %w", d, err)
			}
			c.log.Info("granted search permission so the postgres user can reach its data folder", "dir", d)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// Start initialises the cluster on first use, clears what a killed server
// left behind, and starts PostgreSQL unless it already runs. Several
// processes may call Start on one folder at once; a file lock orders them.
func (c *Cluster) Start(ctx context.Context) error {
	if err := c.prepareDirs(); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(c.Dir, "start.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open start lock: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("take start lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)

	if made, err := c.hasData(); err != nil {
		return fmt.Errorf("look at %s: %w", c.dataDir(), err)
	} else if !made {
		create := c.initdb
		if c.primary != nil {
			create = c.basebackup
		}
		if err := create(ctx); err != nil {
			return err
		}
		c.created = true
	}
	if c.running() {
		c.log.Info("reusing the PostgreSQL server already running", "data", c.dataDir())
		err := c.waitReady(ctx, true)
		if !errors.Is(err, errGone) {
			return err
		}
		// it was dying when we looked (a kill -9 is not instant): start anew
		c.log.Info("the PostgreSQL server found running has gone", "data", c.dataDir())
	}
	c.clearStale()
	start := time.Now()
	if err := c.launch(ctx); err != nil {
		return err
	}
	c.started = true
	c.log.Info("PostgreSQL started", "data", c.dataDir(), "socket", c.SocketDir, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// postgresArgs are the postmaster's settings: a Unix socket of its own
// and no TCP.
func (c *Cluster) postgresArgs() []string {
	args := []string{"-D", c.dataDir(), "-k", c.SocketDir,
		"-c", "listen_addresses=", "-c", "unix_socket_permissions=0700",
		// The log must not keep personal data: a failed statement's text and a
		// unique violation's DETAIL would print full identity numbers.
		"-c", "log_min_error_statement=panic", "-c", "log_error_verbosity=terse"}
	if c.opts.Throwaway {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	return args
}

// readyTimeout bounds the wait for a started postmaster (pg_ctl's -t 60).
const readyTimeout = 60 * time.Second

// readyPoll is how often launch looks at postmaster.pid. pg_ctl start -w
// looks 10 times a second (WAITS_PER_SEC in pg_ctl.c), so it returns up
// to 100 ms after the server is ready; this file is a read of a few bytes.
const readyPoll = 2 * time.Millisecond

// launch runs the postmaster itself (what pg_ctl start does: its own
// session, stdin from /dev/null, output appended to the log) and waits
// until postmaster.pid says it accepts connections, as pg_ctl -w does but
// looking every readyPoll. A postmaster that exits, or is not ready within
// readyTimeout, fails the start with the log's last lines.
func (c *Cluster) launch(ctx context.Context) error {
	log, err := os.OpenFile(c.logFile(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open PostgreSQL's log: %w", err)
	}
	defer log.Close() // the postmaster holds its own copy
	if c.cred != nil {
		if err := log.Chown(int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return fmt.Errorf("hand %s to the postgres user: %w", c.logFile(), err)
		}
	}
	logStart, _ := log.Seek(0, io.SeekEnd)
	// not CommandContext: the postmaster outlives this call and is stopped
	// by Stop, in order
	cmd := exec.Command(filepath.Join(c.binDir, "postgres"), c.postgresArgs()...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start PostgreSQL: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps it, whenever it ends
	failed := func(why string) error {
		return fmt.Errorf("start PostgreSQL in %s: %s; the end of its log (%s):\n%s", c.dataDir(), why, c.logFile(), c.logTail(logStart))
	}
	deadline := time.NewTimer(readyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	for {
		if c.readyPid(cmd.Process.Pid) {
			return nil
		}
		select {
		case err := <-exited:
			return failed(fmt.Sprintf("the server exited (%v)", err))
		case <-deadline.C:
			stop(cmd.Process, exited)
			return failed(fmt.Sprintf("not ready to accept connections after %v", readyTimeout))
		case <-ctx.Done():
			stop(cmd.Process, exited)
			return failed(ctx.Err().Error())
		case <-tick.C:
		}
	}
}

// stop ends a postmaster that did not become ready (SIGQUIT, pg_ctl's
// immediate mode; SIGKILL if it lingers) and waits until it has gone, so
// that no half-started server is left holding the data folder.
func stop(p *os.Process, exited <-chan error) {
	_ = p.Signal(syscall.SIGQUIT)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		_ = p.Kill()
		<-exited
	}
}

// readyPid reports whether postmaster.pid is pid's and says "ready" or
// (a hot standby) "standby", the states pg_ctl -w waits for. Line 1 is
// the pid, line 8 the status (PostgreSQL 10 and later).
func (c *Cluster) readyPid(pid int) bool {
	b, err := os.ReadFile(filepath.Join(c.dataDir(), "postmaster.pid"))
	if err != nil {
		return false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 8 || strings.TrimSpace(lines[0]) != strconv.Itoa(pid) {
		return false
	}
	status := strings.TrimSpace(lines[7])
	return status == "ready" || status == "standby"
}

// logTail is the log written since offset from, at most its last 2 KiB.
func (c *Cluster) logTail(from int64) string {
	b, err := os.ReadFile(c.logFile())
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	if from < 0 || from > int64(len(b)) {
		from = 0
	}
	b = b[from:]
	if len(b) > 2048 {
		b = b[len(b)-2048:]
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return "(nothing written)"
	}
	return strings.TrimSpace(string(b))
}

// StartWithPgCtl starts the cluster, made and stopped before, the way
// Start did before it ran the postmaster itself: pg_ctl start -w, with the
// same settings. It is BenchmarkRestartToServing's baseline (cmd/dankyud).
func (c *Cluster) StartWithPgCtl(ctx context.Context) error {
	if err := c.prepareDirs(); err != nil {
		return err
	}
	var opts []string
	for _, a := range c.postgresArgs()[2:] { // without -D, which pg_ctl passes
		opts = append(opts, "'"+a+"'")
	}
	if err := c.run(ctx, "pg_ctl", "-D", c.dataDir(), "-l", c.logFile(), "-w", "-t", "60", "-o", strings.Join(opts, " "), "start"); err != nil {
		return fmt.Errorf("start PostgreSQL (its log: %s): %w", c.logFile(), err)
	}
	c.started = true
	return nil
}

// Created says whether Start made the data folder (a new cluster, with no
// database or roles of the server's yet).
func (c *Cluster) Created() bool { return c.created }

func (c *Cluster) initdb(ctx context.Context) error {
	// initdb wants an empty or missing folder: clear a half-made one.
	if err := os.RemoveAll(c.dataDir()); err != nil {
		return fmt.Errorf("clear half-made cluster: %w", err)
	}
	args := []string{"-D", c.dataDir(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-instructions"}
	if c.opts.Throwaway {
		args = append(args, "--no-sync")
	}
	start := time.Now()
	if err := c.run(ctx, "initdb", args...); err != nil {
		return fmt.Errorf("create PostgreSQL cluster in %s: %w", c.dataDir(), err)
	}
	c.log.Info("PostgreSQL cluster created", "data", c.dataDir(), "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// postmasterPID reads the pid recorded by the server, 0 when none.
func (c *Cluster) postmasterPID() int { return pidIn(c.dataDir()) }

// running reports whether the pid file names a live postgres process (not
// merely a live process: after a reboot the pid may belong to another program).
func (c *Cluster) running() bool {
	return postgresAlive(c.postmasterPID())
}

// postgresAlive reports whether pid is a live (not zombie) postgres process.
func postgresAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil // no /proc: trust the signal check
	}
	if strings.TrimSpace(string(comm)) != "postgres" {
		return false
	}
	// a killed postmaster nobody has reaped yet is a zombie: gone all the same
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if _, rest, ok := strings.Cut(string(stat), ") "); err == nil && ok && strings.HasPrefix(rest, "Z") {
		return false
	}
	return true
}

// clearStale removes the pid and socket lock files of a server that is gone.
func (c *Cluster) clearStale() {
	for _, f := range []string{filepath.Join(c.dataDir(), "postmaster.pid"), filepath.Join(c.SocketDir, ".s.PGSQL.5432.lock"), filepath.Join(c.SocketDir, ".s.PGSQL.5432")} {
		if err := os.Remove(f); err == nil {
			c.log.Info("removed a stale file left by a server that was killed", "file", f)
		}
	}
}

// errGone says the server waited for is no longer running.
var errGone = errors.New("the PostgreSQL server is gone")

// waitReady waits until the cluster accepts connections; found says it
// was found running, so that its death while waiting ends the wait.
func (c *Cluster) waitReady(ctx context.Context, found bool) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		if found && !c.running() {
			return errGone
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("PostgreSQL in %s does not accept connections (its log: %s): %w", c.dataDir(), c.logFile(), err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// EnsureDatabase creates database name unless it exists.
func (c *Cluster) EnsureDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		return fmt.Errorf("connect to cluster: %w", err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// Stop shuts PostgreSQL down if this process started it, or if force is set.
// immediate skips the checkpoint (for throwaway clusters).
func (c *Cluster) Stop(ctx context.Context, force, immediate bool) error {
	if !c.started && !force {
		return nil
	}
	mode := "fast"
	if immediate {
		mode = "immediate"
	}
	if err := c.run(ctx, "pg_ctl", "-D", c.dataDir(), "-m", mode, "-w", "stop"); err != nil {
		return fmt.Errorf("stop PostgreSQL: %w", err)
	}
	c.started = false
	c.log.Info("PostgreSQL stopped", "data", c.dataDir())
	return nil
}
