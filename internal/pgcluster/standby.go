package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ReplicationRole is the role standbys stream the primary's WAL as: it may
// log in for replication and do nothing else.
const ReplicationRole = "dankyu_replicator"

// NewStandby prepares a streaming standby of primary in dir: on first Start
// its data folder is copied from the primary with pg_basebackup -R (which
// writes standby.signal and primary_conninfo), after that it is started as
// it is. Like the primary it listens only on a Unix socket of its own.
func NewStandby(dir string, primary *Cluster, opts Options) (*Cluster, error) {
	c, err := New(dir, opts)
	if err != nil {
		return nil, err
	}
	c.primary = primary
	return c, nil
}

// EnsureReplicationRole creates the role standbys connect as (the cluster's
// pg_hba.conf, written by initdb, lets local sockets replicate).
func (c *Cluster) EnsureReplicationRole(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, c.ConnString("postgres"))
	if err != nil {
		return fmt.Errorf("connect to cluster: %w", err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)`, ReplicationRole).Scan(&exists); err != nil {
		return fmt.Errorf("look up role %s: %w", ReplicationRole, err)
	}
	if exists {
		return nil
	}
	if _, err := conn.Exec(ctx, "CREATE ROLE "+pgx.Identifier{ReplicationRole}.Sanitize()+
		" LOGIN REPLICATION NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS"); err != nil {
		return fmt.Errorf("create role %s: %w", ReplicationRole, err)
	}
	return nil
}

// basebackup copies the primary into this standby's data folder.
func (c *Cluster) basebackup(ctx context.Context) error {
	if err := c.primary.EnsureReplicationRole(ctx); err != nil {
		return err
	}
	if err := os.RemoveAll(c.dataDir()); err != nil {
		return fmt.Errorf("clear half-made standby: %w", err)
	}
	start := time.Now()
	err := c.run(ctx, "pg_basebackup", "-D", c.dataDir(), "-R", "-X", "stream", "-c", "fast",
		"-h", c.primary.SocketDir, "-p", "5432", "-U", ReplicationRole, "--no-password")
	if err != nil {
		return fmt.Errorf("copy the primary into standby %s: %w", c.dataDir(), err)
	}
	c.log.Info("PostgreSQL standby created", "data", c.dataDir(), "primary", c.primary.dataDir(), "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// Kill stops the cluster at once (SIGQUIT, pg_ctl's immediate mode), as a
// crash would: for fault tests. It waits for that postmaster to be gone, not
// for the pid file to vanish: a supervisor may already have started the next
// one (pg_ctl stop would then wait on the newcomer and time out).
func (c *Cluster) Kill(ctx context.Context) error {
	pid := c.postmasterPID()
	if !postgresAlive(pid) {
		return fmt.Errorf("kill PostgreSQL in %s: no server is running", c.dataDir())
	}
	if err := syscall.Kill(pid, syscall.SIGQUIT); err != nil {
		return fmt.Errorf("kill PostgreSQL %d: %w", pid, err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for postgresAlive(pid) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("kill PostgreSQL %d: %w", pid, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	c.started = false
	return nil
}

// hasData reports whether the data folder has been made.
func (c *Cluster) hasData() (bool, error) {
	_, err := os.Stat(filepath.Join(c.dataDir(), "PG_VERSION"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
