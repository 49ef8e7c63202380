package pgcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// A Formation is a pg_auto_failover formation on one machine, for trying
// high availability and for the failover drill: a monitor and two nodes
// (a primary and a synchronous secondary), each a PostgreSQL of the
// machine's binaries run by its own `pg_autoctl run` keeper, listening on
// 127.0.0.1 only. Each folder of Dir is a node's data folder; pg_autoctl's
// own configuration and state are kept under Dir too, so removing Dir
// removes everything.
type Formation struct {
	Dir string
	// Ports are the monitor's, then the two nodes' (node1 starts as primary).
	Ports   [3]int
	binDir  string
	autoctl string
	cred    *syscall.Credential
	log     *slog.Logger
}

// FormationDatabase is the database the nodes serve.
const FormationDatabase = "dankyu"

// formationFile records the ports Init chose, for start, stop and status.
const formationFile = "formation.json"

// ErrNoAutoctl means pg_auto_failover is not installed.
var ErrNoAutoctl = errors.New("no pg_autoctl found: install pg_auto_failover (Debian/Ubuntu: apt-get install postgresql-15-auto-failover) or put pg_autoctl on PATH")

// names of the formation's members, in Ports order.
var members = [3]string{"monitor", "node1", "node2"}

// FailoverTimeouts are the monitor's settings the trial formation lowers,
// so that a dead primary is replaced in seconds rather than the ~30–60 s
// the defaults give (made for networks, where a slow answer is not yet a
// dead node). Milliseconds, as the monitor's GUCs take them.
var FailoverTimeouts = map[string]int{
	"pgautofailover.health_check_period":               1000, // default 5000
	"pgautofailover.health_check_timeout":              1000, // default 5000
	"pgautofailover.health_check_max_retries":          1,    // default 2 (a count)
	"pgautofailover.health_check_retry_delay":          500,  // default 2000
	"pgautofailover.node_considered_unhealthy_timeout": 3000, // default 20000
	"pgautofailover.primary_demote_timeout":            3000, // default 30000
	"pgautofailover.startup_grace_period":              2000, // default 10000
}

func newFormation(dir string, log *slog.Logger) (*Formation, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("formation dir %s: %w", dir, err)
	}
	bin, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	autoctl, err := exec.LookPath("pg_autoctl")
	if err != nil {
		if _, serr := os.Stat(filepath.Join(bin, "pg_autoctl")); serr != nil {
			return nil, ErrNoAutoctl
		}
		autoctl = filepath.Join(bin, "pg_autoctl")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// borrow New's finding of the postgres user (pg_autoctl refuses root)
	c, err := New(abs, Options{Log: log})
	if err != nil {
		return nil, err
	}
	return &Formation{Dir: abs, binDir: bin, autoctl: autoctl, cred: c.cred, log: log}, nil
}

// OpenFormation opens the formation Init made in dir.
func OpenFormation(dir string, log *slog.Logger) (*Formation, error) {
	f, err := newFormation(dir, log)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(f.Dir, formationFile))
	if err != nil {
		return nil, fmt.Errorf("no formation in %s (make one with dankyu cluster init): %w", f.Dir, err)
	}
	if err := json.Unmarshal(b, &f.Ports); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(f.Dir, formationFile), err)
	}
	return f, nil
}

// InitFormation creates the monitor and both nodes in dir (which must not
// hold a formation yet), the registry's roles on the primary, and leaves
// all three running. Ports that are 0 are chosen free.
func InitFormation(ctx context.Context, dir string, ports [3]int, log *slog.Logger) (*Formation, error) {
	f, err := newFormation(dir, log)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(f.Dir, formationFile)); err == nil {
		return nil, fmt.Errorf("%s already holds a formation: start it with dankyu cluster start, or choose another folder", f.Dir)
	}
	for i, p := range ports {
		if p == 0 {
			if p, err = freePort(); err != nil {
				return nil, err
			}
		}
		f.Ports[i] = p
	}
	if err := f.prepare(); err != nil {
		return nil, err
	}
	start := time.Now()
	common := []string{"--hostname", "127.0.0.1", "--listen", "127.0.0.1", "--auth", "trust", "--no-ssl",
		"--pgctl", filepath.Join(f.binDir, "pg_ctl")}
	if err := f.autoctlRun(ctx, append([]string{"create", "monitor", "--pgdata", f.pgdata(0), "--pgport", strconv.Itoa(f.Ports[0])}, common...)...); err != nil {
		return nil, fmt.Errorf("create the monitor: %w", err)
	}
	if err := f.startMember(0); err != nil {
		return nil, err
	}
	if err := f.tuneMonitor(ctx); err != nil {
		return nil, err
	}
	for i := 1; i <= 2; i++ {
		args := append([]string{"create", "postgres", "--pgdata", f.pgdata(i), "--pgport", strconv.Itoa(f.Ports[i]),
			"--name", members[i], "--dbname", FormationDatabase, "--monitor", f.MonitorURL()}, common...)
		if err := f.autoctlRun(ctx, args...); err != nil {
			return nil, fmt.Errorf("create %s: %w", members[i], err)
		}
		if err := f.startMember(i); err != nil {
			return nil, err
		}
		if i == 1 {
			if _, err := f.WaitPrimary(ctx, 0, time.Minute); err != nil {
				return nil, err
			}
			if err := f.ensureRoles(ctx); err != nil {
				return nil, err
			}
		}
	}
	if err := f.WaitHealthy(ctx, 2*time.Minute); err != nil {
		return nil, err
	}
	b, _ := json.Marshal(f.Ports)
	if err := os.WriteFile(filepath.Join(f.Dir, formationFile), b, 0o600); err != nil {
		return nil, err
	}
	f.log.Info("pg_auto_failover formation ready", "dir", f.Dir, "took", time.Since(start).Round(time.Millisecond))
	return f, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// prepare makes Dir private and, as root, the postgres user's.
func (f *Formation) prepare() error {
	c := &Cluster{Dir: f.Dir, cred: f.cred, log: f.log}
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", f.Dir, err)
	}
	if f.cred == nil {
		return nil
	}
	if err := os.Chown(f.Dir, int(f.cred.Uid), int(f.cred.Gid)); err != nil {
		return fmt.Errorf("hand %s to the postgres user: %w", f.Dir, err)
	}
	return c.allowTraverse(filepath.Dir(f.Dir))
}

func (f *Formation) pgdata(i int) string  { return filepath.Join(f.Dir, members[i]) }
func (f *Formation) logFile(i int) string { return filepath.Join(f.Dir, members[i]+".log") }
func (f *Formation) pidFile(i int) string { return filepath.Join(f.Dir, members[i]+".keeper.pid") }

// MonitorURL is the monitor's URL as the nodes reach it.
func (f *Formation) MonitorURL() string {
	return fmt.Sprintf("postgres://autoctl_node@127.0.0.1:%d/pg_auto_failover?sslmode=disable", f.Ports[0])
}

// URL is the multi-host URL of the formation's database as user: a
// client tries both nodes and keeps the one that takes writes, so it
// follows a promotion by connecting again.
func (f *Formation) URL(user string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d,127.0.0.1:%d/%s?target_session_attrs=read-write&sslmode=disable&connect_timeout=2",
		user, f.Ports[1], f.Ports[2], FormationDatabase)
}

// nodeURL is one node's URL as the superuser.
func (f *Formation) nodeURL(i int, db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable&connect_timeout=2", f.Ports[i], db)
}

func (f *Formation) env() []string {
	xdg := filepath.Join(f.Dir, "pg_autoctl")
	return append(os.Environ(), "LC_ALL=C", "LANG=C", "PATH="+f.binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(xdg, "config"), "XDG_DATA_HOME="+filepath.Join(xdg, "data"),
		"XDG_RUNTIME_DIR="+filepath.Join(xdg, "run"))
}

func (f *Formation) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, f.autoctl, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: f.cred}
	cmd.Dir = f.Dir
	cmd.Env = f.env()
	return cmd
}

// autoctlRun runs one pg_autoctl command to its end.
func (f *Formation) autoctlRun(ctx context.Context, args ...string) error {
	cmd := f.command(ctx, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pg_autoctl %s: %w: %s", strings.Join(args[:2], " "), err, lastLines(out.String(), 15))
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// keeperPID is the pid of member i's `pg_autoctl run`, 0 when it is not running.
func (f *Formation) keeperPID(i int) int {
	b, err := os.ReadFile(f.pidFile(i))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid <= 0 {
		return 0
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil || !strings.HasPrefix(strings.TrimSpace(string(comm)), "pg_autoctl") {
		return 0
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if _, rest, ok := strings.Cut(string(stat), ") "); err == nil && ok && strings.HasPrefix(rest, "Z") {
		return 0
	}
	return pid
}

// startMember starts member i's keeper in its own session, detached: it
// outlives this process (the CLI returns while the formation runs) and
// restarts its PostgreSQL if that dies.
func (f *Formation) startMember(i int) error {
	if f.keeperPID(i) != 0 {
		return nil
	}
	out, err := os.OpenFile(f.logFile(i), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := f.command(context.Background(), "run", "--pgdata", f.pgdata(i))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s's pg_autoctl: %w", members[i], err)
	}
	pid := cmd.Process.Pid
	if err := os.WriteFile(f.pidFile(i), []byte(strconv.Itoa(pid)), 0o600); err != nil {
		return err
	}
	// reap it if it ends while this process lives (a test's formation)
	go func() { _ = cmd.Wait() }()
	f.log.Info("pg_autoctl started", "member", members[i], "pid", pid, "log", f.logFile(i))
	return nil
}

// tuneMonitor waits for the monitor and lowers its failover timeouts.
func (f *Formation) tuneMonitor(ctx context.Context) error {
	conn, err := f.connect(ctx, f.nodeURL(0, "pg_auto_failover"), time.Minute)
	if err != nil {
		return fmt.Errorf("reach the monitor: %w", err)
	}
	defer conn.Close(ctx)
	for name, v := range FailoverTimeouts {
		if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER SYSTEM SET %s = %d", name, v)); err != nil {
			return fmt.Errorf("set %s on the monitor: %w", name, err)
		}
	}
	if _, err := conn.Exec(ctx, "SELECT pg_reload_conf()"); err != nil {
		return fmt.Errorf("reload the monitor's settings: %w", err)
	}
	return nil
}

// connect connects to url, trying again until within.
func (f *Formation) connect(ctx context.Context, url string, within time.Duration) (*pgx.Conn, error) {
	deadline := time.Now().Add(within)
	for {
		conn, err := pgx.Connect(ctx, url)
		if err == nil {
			return conn, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// ensureRoles makes the registry's owner and server roles on the primary
// (the secondary has them by replication).
func (f *Formation) ensureRoles(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, f.URL("postgres"))
	if err != nil {
		return fmt.Errorf("connect to the primary: %w", err)
	}
	conn.Close(ctx)
	return ensureRoles(ctx, func(db string) string {
		return fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/%s?target_session_attrs=read-write&sslmode=disable",
			f.Ports[1], f.Ports[2], db)
	}, FormationDatabase, FormationOwnerRole, FormationServerRole)
}

// The roles of a formation's database, as in the embedded cluster: the
// owner migrates, the server connects owning nothing.
const (
	FormationOwnerRole  = "dankyu_owner"
	FormationServerRole = "dankyu_server"
)

// NodeState is one node as the monitor sees it.
type NodeState struct {
	ID             int64
	Name           string
	Port           int
	Reported, Goal string
}

// States asks the monitor for every node's state.
func (f *Formation) States(ctx context.Context) ([]NodeState, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second) // a monitor that does not answer
	defer cancel()
	conn, err := pgx.Connect(ctx, f.nodeURL(0, "pg_auto_failover"))
	if err != nil {
		return nil, fmt.Errorf("reach the monitor: %w", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT nodeid, nodename, nodeport, reportedstate::text, goalstate::text
		FROM pgautofailover.node ORDER BY nodeid`)
	if err != nil {
		return nil, fmt.Errorf("ask the monitor: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (NodeState, error) {
		var s NodeState
		err := r.Scan(&s.ID, &s.Name, &s.Port, &s.Reported, &s.Goal)
		return s, err
	})
}

// writable says whether the node on port takes writes.
func (f *Formation) writable(ctx context.Context, port int) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable&target_session_attrs=read-write", port, FormationDatabase))
	if err != nil {
		return false
	}
	conn.Close(ctx)
	return true
}

// WaitPrimary waits until a node other than the one on port not (0: any)
// is reported primary, or wait_primary/single (a primary without a
// standby), and takes writes; it returns that node's port.
func (f *Formation) WaitPrimary(ctx context.Context, not int, within time.Duration) (int, error) {
	deadline := time.Now().Add(within)
	var last []NodeState
	for {
		states, err := f.States(ctx)
		if err == nil {
			last = states
			for _, s := range states {
				if s.Port == not || s.Reported != s.Goal {
					continue
				}
				if (s.Reported == "primary" || s.Reported == "wait_primary" || s.Reported == "single") && f.writable(ctx, s.Port) {
					return s.Port, nil
				}
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return 0, fmt.Errorf("no primary within %s (monitor: %v, %v; logs in %s)", within, last, err, f.Dir)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// WaitHealthy waits until one node is primary and the other secondary:
// commits are then synchronous to both.
func (f *Formation) WaitHealthy(ctx context.Context, within time.Duration) error {
	deadline := time.Now().Add(within)
	var last []NodeState
	for {
		states, err := f.States(ctx)
		if err == nil {
			last = states
			roles := map[string]int{}
			for _, s := range states {
				if s.Reported == s.Goal {
					roles[s.Reported]++
				}
			}
			if roles["primary"] == 1 && roles["secondary"] == 1 {
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("formation not primary and secondary within %s (monitor: %v, %v; logs in %s)", within, last, err, f.Dir)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Start starts every member whose keeper is not running and waits until
// a node takes writes.
func (f *Formation) Start(ctx context.Context) error {
	if err := f.prepare(); err != nil {
		return err
	}
	for i := range members {
		if err := f.startMember(i); err != nil {
			return err
		}
	}
	_, err := f.WaitPrimary(ctx, 0, 2*time.Minute)
	return err
}

// Stop stops the nodes, then the monitor (so it sees no node die and
// promotes nothing), each keeper stopping its PostgreSQL.
func (f *Formation) Stop(ctx context.Context) error {
	var errs []error
	for _, i := range []int{2, 1, 0} {
		pid := f.keeperPID(i)
		if pid == 0 {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
			errs = append(errs, fmt.Errorf("stop %s: %w", members[i], err))
			continue
		}
		if err := waitGone(ctx, func() bool { return f.keeperPID(i) != 0 }, time.Minute); err != nil {
			errs = append(errs, fmt.Errorf("stop %s: %w", members[i], err))
		}
	}
	return errors.Join(errs...)
}

// KillNode kills node's keeper and its PostgreSQL at once (SIGKILL to
// the keeper's whole process group), as the loss of its machine would:
// the failover drill. Killing the postmaster alone would not do: the
// keeper would start it again in place. It returns once that postmaster
// is gone.
func (f *Formation) KillNode(ctx context.Context, port int) error {
	i := 0
	for j := 1; j <= 2; j++ {
		if f.Ports[j] == port {
			i = j
		}
	}
	if i == 0 {
		return fmt.Errorf("no node on port %d", port)
	}
	pm := pidIn(f.pgdata(i))
	pid := f.keeperPID(i)
	if pid == 0 {
		return fmt.Errorf("%s's keeper is not running", members[i])
	}
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill %s: %w", members[i], err)
	}
	return waitGone(ctx, func() bool { return postgresAlive(pm) || f.keeperPID(i) != 0 }, time.Minute)
}

func waitGone(ctx context.Context, alive func() bool, within time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	for alive() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// pidIn reads the postmaster pid of data folder dir, 0 when none.
func pidIn(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	return pid
}
