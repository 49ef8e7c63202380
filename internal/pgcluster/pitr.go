package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Continuous archiving with pgBackRest: every WAL segment the cluster
// completes is pushed to a repository folder, beside full backups, so the
// cluster can be restored to any moment the archive covers. pgBackRest
// rather than a hand-written archive_command: it checks each segment,
// compresses, keeps backups and their WAL together (retention), and its
// restore writes the recovery settings itself.

// Stanza is the name of the embedded cluster in a pgBackRest repository.
const Stanza = "dankyu"

// ArchiveTimeout bounds how long a commit can wait unarchived on a quiet
// registry: a segment is switched and archived at least this often, so a
// lost machine loses at most this much (plus what was being written).
const ArchiveTimeout = "60s"

// ErrNoPgBackRest means pgBackRest is not installed.
var ErrNoPgBackRest = errors.New("no pgbackrest found: install it (Debian/Ubuntu: apt-get install pgbackrest) or put it on PATH")

// Archive is a pgBackRest repository in Repo for the cluster in a data folder.
type Archive struct {
	Repo string
	bin  string
}

// ConfigPath is the repository's pgBackRest configuration file.
func (a *Archive) ConfigPath() string { return filepath.Join(a.Repo, "pgbackrest.conf") }

// OpenArchive prepares the repository folder repo (created if missing).
func OpenArchive(repo string) (*Archive, error) {
	abs, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	// the path goes into archive_command, a shell line
	if strings.ContainsAny(abs, " \t\n'\"\\$`;&|<>()*?") {
		return nil, fmt.Errorf("repository path %q: use a path without spaces, quotes or shell characters (it is part of archive_command)", abs)
	}
	bin, err := exec.LookPath("pgbackrest")
	if err != nil {
		return nil, ErrNoPgBackRest
	}
	return &Archive{Repo: abs, bin: bin}, nil
}

// config is the repository's configuration for cluster c.
func (a *Archive) config(c *Cluster) string {
	return fmt.Sprintf(`# written by dankyu pitr setup
[global]
repo1-path=%s
repo1-retention-full=2
log-path=%s
lock-path=%s
log-level-console=warn
log-level-file=info
start-fast=y

[%s]
pg1-path=%s
pg1-socket-path=%s
pg1-port=5432
pg1-user=postgres
`, filepath.Join(a.Repo, "repo"), filepath.Join(a.Repo, "log"), filepath.Join(a.Repo, "lock"), Stanza, c.dataDir(), c.SocketDir)
}

// pgbackrest runs one pgBackRest command as the cluster's user.
func (a *Archive) pgbackrest(ctx context.Context, c *Cluster, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, a.bin, append([]string{"--config=" + a.ConfigPath(), "--stanza=" + Stanza}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	cmd.Dir = a.Repo
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("pgbackrest %s: %w: %s", args[len(args)-1], err, lastLines(out.String(), 15))
	}
	return out.String(), nil
}

// prepareRepo creates the repository folder, the postgres user's (the
// archive is pushed by PostgreSQL itself), private.
func (a *Archive) prepareRepo(c *Cluster) error {
	for _, d := range []string{a.Repo, filepath.Join(a.Repo, "repo"), filepath.Join(a.Repo, "log"), filepath.Join(a.Repo, "lock")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
		if c.cred != nil {
			if err := os.Chown(d, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
				return fmt.Errorf("hand %s to the postgres user: %w", d, err)
			}
		}
	}
	if c.cred != nil {
		return c.allowTraverse(filepath.Dir(a.Repo))
	}
	return nil
}

// Setup turns on continuous archiving of the (started) cluster c into
// the repository: writes the configuration, sets archive_mode and
// archive_command, restarts PostgreSQL for archive_mode to take effect,
// creates the stanza and checks a segment arrives.
func (a *Archive) Setup(ctx context.Context, c *Cluster) error {
	if err := a.prepareRepo(c); err != nil {
		return err
	}
	if err := os.WriteFile(a.ConfigPath(), []byte(a.config(c)), 0o600); err != nil {
		return err
	}
	if c.cred != nil {
		if err := os.Chown(a.ConfigPath(), int(c.cred.Uid), int(c.cred.Gid)); err != nil {
			return err
		}
	}
	conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		return fmt.Errorf("connect to cluster: %w", err)
	}
	command := fmt.Sprintf("%s --config=%s --stanza=%s archive-push %%p", a.bin, a.ConfigPath(), Stanza)
	var was string
	if err := conn.QueryRow(ctx, `SELECT current_setting('archive_mode')`).Scan(&was); err != nil {
		conn.Close(ctx)
		return err
	}
	for _, set := range [][2]string{{"archive_mode", "on"}, {"archive_command", command}, {"archive_timeout", ArchiveTimeout}, {"wal_level", "replica"}} {
		// ALTER SYSTEM takes no parameters: the value as a quoted literal
		if _, err := conn.Exec(ctx, "ALTER SYSTEM SET "+set[0]+" = "+quoteLiteral(set[1])); err != nil {
			conn.Close(ctx)
			return fmt.Errorf("set %s: %w", set[0], err)
		}
	}
	_, err = conn.Exec(ctx, "SELECT pg_reload_conf()")
	conn.Close(ctx)
	if err != nil {
		return err
	}
	if was != "on" {
		if err := c.Stop(ctx, true, false); err != nil {
			return err
		}
		if err := c.Start(ctx); err != nil {
			return err
		}
	}
	if _, err := a.pgbackrest(ctx, c, "stanza-create"); err != nil {
		return err
	}
	_, err = a.pgbackrest(ctx, c, "check")
	return err
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Backup takes a backup of the running cluster into the repository: full,
// or incr/diff on the last.
func (a *Archive) Backup(ctx context.Context, c *Cluster, kind string) error {
	switch kind {
	case "full", "diff", "incr":
	default:
		return fmt.Errorf("backup type %q: full, diff or incr", kind)
	}
	_, err := a.pgbackrest(ctx, c, "--type="+kind, "backup")
	return err
}

// Check switches to a new WAL segment and waits until it is archived:
// everything committed before it is then in the repository.
func (a *Archive) Check(ctx context.Context, c *Cluster) error {
	_, err := a.pgbackrest(ctx, c, "check")
	return err
}

// Info is pgBackRest's account of the repository.
func (a *Archive) Info(ctx context.Context, c *Cluster) (string, error) {
	return a.pgbackrest(ctx, c, "info")
}

// RestoreInto restores the newest backup taken before target into the
// fresh cluster into (its data folder must not exist yet) and replays the
// archive up to target (a PostgreSQL timestamp with a time zone), then
// starts it and waits until it has stopped recovering and takes writes.
// Archiving is off in the copy: it would push a new timeline into the
// repository of the cluster it came from (run Setup on it when it is to
// become the registry's database).
func (a *Archive) RestoreInto(ctx context.Context, into *Cluster, target string) error {
	if made, err := into.hasData(); err != nil || made {
		if err == nil {
			err = fmt.Errorf("%s already holds a cluster: restore into a fresh folder", into.dataDir())
		}
		return err
	}
	if err := into.prepareDirs(); err != nil {
		return err
	}
	if err := os.MkdirAll(into.dataDir(), 0o700); err != nil {
		return err
	}
	if into.cred != nil {
		if err := os.Chown(into.dataDir(), int(into.cred.Uid), int(into.cred.Gid)); err != nil {
			return err
		}
	}
	if _, err := a.pgbackrest(ctx, into, "--pg1-path="+into.dataDir(), "--type=time", "--target="+target,
		"--target-action=promote", "--archive-mode=off", "restore"); err != nil {
		return err
	}
	if err := into.Start(ctx); err != nil {
		return err
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		conn, err := pgx.Connect(ctx, into.ConnString("postgres"))
		if err == nil {
			var recovering bool
			err = conn.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&recovering)
			conn.Close(ctx)
			if err == nil && !recovering {
				return nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("the restored cluster in %s has not finished recovering (its log: %s): %v", into.dataDir(), into.logFile(), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
