package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/internal/server"
)

// pitrFlags registers --repo and --data-dir; the returned func opens the
// archive and the embedded cluster after parsing.
func pitrFlags(c *call, fs *flag.FlagSet) func() (*pgcluster.Archive, *pgcluster.Cluster, error) {
	repo := fs.String("repo", c.getenv("DANKYU_PITR_REPO"), "the pgBackRest repository folder (DANKYU_PITR_REPO)")
	source := databaseFlags(fs, c.getenv)
	return func() (*pgcluster.Archive, *pgcluster.Cluster, error) {
		if *repo == "" {
			return nil, nil, usageError("--repo is required")
		}
		if fs.NArg() > 0 {
			return nil, nil, usageError(fmt.Sprintf("unexpected arguments %q", fs.Args()))
		}
		if source().URL != "" {
			return nil, nil, errors.New("point-in-time recovery here archives the embedded cluster (--data-dir); an outside database's archiving is its operator's (docs/operations.md)")
		}
		a, err := pgcluster.OpenArchive(*repo)
		if err != nil {
			return nil, nil, err
		}
		cl, err := pgcluster.New(source().DataDir, pgcluster.Options{Log: c.warnLog()})
		if err != nil {
			return nil, nil, err
		}
		return a, cl, nil
	}
}

// pitrSetup runs `dankyu pitr setup --repo DIR`: archiving on, the stanza
// made, and a first full backup, so that recovery works from now on.
func pitrSetup(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	open := pitrFlags(c, fs)
	if err := c.parse(fs, args); err != nil {
		return err
	}
	a, cl, err := open()
	if err != nil {
		return err
	}
	if err := cl.Start(ctx); err != nil {
		return err
	}
	defer cl.Stop(context.Background(), false, false)
	if err := a.Setup(ctx, cl); err != nil {
		return err
	}
	if err := a.Backup(ctx, cl, "full"); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "continuous archiving on: WAL and backups in %s (configuration %s); a first full backup taken\n", a.Repo, a.ConfigPath())
	return nil
}

// pitrBackup runs `dankyu pitr backup --repo DIR [--type full|diff|incr]`.
func pitrBackup(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	open := pitrFlags(c, fs)
	kind := fs.String("type", "full", "full, diff (changes since the last full) or incr (since the last backup)")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	a, cl, err := open()
	if err != nil {
		return err
	}
	if err := cl.Start(ctx); err != nil {
		return err
	}
	defer cl.Stop(context.Background(), false, false)
	if err := a.Backup(ctx, cl, *kind); err != nil {
		return err
	}
	info, err := a.Info(ctx, cl)
	if err != nil {
		return err
	}
	fmt.Fprint(c.stdout, info)
	return nil
}

// pitrArchive runs `dankyu pitr archive --repo DIR`: the current WAL
// segment closed and archived now, not at the next archive timeout.
func pitrArchive(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	open := pitrFlags(c, fs)
	if err := c.parse(fs, args); err != nil {
		return err
	}
	a, cl, err := open()
	if err != nil {
		return err
	}
	if err := cl.Start(ctx); err != nil {
		return err
	}
	defer cl.Stop(context.Background(), false, false)
	if err := a.Check(ctx, cl); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, "everything committed so far is archived")
	return nil
}

// pitrRestore runs `dankyu pitr restore --repo DIR --to TIME --into NEWDIR
// --checkpoint FILE`: the cluster as it was at TIME, in a fresh data
// folder, migrated, its log verified against the checkpoint, which is
// kept there as the witness's head.
func pitrRestore(ctx context.Context, c *call, args []string) error {
	fs := c.flags()
	open := pitrFlags(c, fs)
	to := fs.String("to", "", `the moment to restore to, e.g. "2026-12-02 14:03:00+08" (a time zone is required)`)
	into := fs.String("into", "", "a new data folder for the restored cluster (must not exist or be empty)")
	checkpoint := fs.String("checkpoint", "", "a checkpoint saved before --to (dankyu log checkpoint, /log/checkpoint): the restored log must extend it")
	logKey := fs.String("log-key", c.getenv("DANKYU_LOG_KEY"), "the log's key file, copied into the new folder; default <data-dir>/log.key (DANKYU_LOG_KEY)")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if *into == "" || *to == "" || *checkpoint == "" {
		return usageError("--to, --into and --checkpoint are required")
	}
	target, err := parseRecoveryTarget(*to)
	if err != nil {
		return usageError(err.Error())
	}
	a, cl, err := open()
	if err != nil {
		return err
	}
	note, err := os.ReadFile(*checkpoint)
	if err != nil {
		return fmt.Errorf("read checkpoint: %w", err)
	}
	newKey := server.LogKeyPath("", *into)
	key, err := os.ReadFile(server.LogKeyPath(*logKey, cl.Dir))
	if err != nil {
		return fmt.Errorf("the log's key (the restored log is verified and signed with it): %w", err)
	}
	restored, err := pgcluster.New(*into, pgcluster.Options{Log: c.warnLog()})
	if err != nil {
		return err
	}
	if err := a.RestoreInto(ctx, restored, target.UTC().Format("2006-01-02 15:04:05.999999+00")); err != nil {
		return err
	}
	defer restored.Stop(context.Background(), true, false)
	if err := writePrivate(newKey, key); err != nil {
		return err
	}
	// the migrations of this version, then the log against the checkpoint
	db, err := server.OpenDatabase(ctx, server.DatabaseSource{DataDir: restored.Dir}, false, c.warnLog())
	if err != nil {
		return err
	}
	db.Close(ctx)
	verify := *c
	verify.name = "log verify"
	verify.getenv = func(k string) string {
		if strings.HasPrefix(k, "DANKYU_DATABASE_URL") || k == "DANKYU_MIGRATION_URL" || k == "DANKYU_LOG_KEY" {
			return ""
		}
		return c.getenv(k)
	}
	if err := logCmd(ctx, &verify, "verify", []string{"--data-dir", restored.Dir, "--checkpoint", *checkpoint}); err != nil {
		return fmt.Errorf("the restored log does not verify against %s: %w", *checkpoint, err)
	}
	if err := server.KeepHead(newKey, note); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "restored to %s in %s; start the server on it with --data-dir %s\n", target.Format(time.RFC3339Nano), restored.Dir, restored.Dir)
	return nil
}

func writePrivate(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists: restore into a fresh folder", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// recoveryLayouts are the forms --to is read in; each carries a zone, so
// "14:03" is never read in whatever zone the machine has.
var recoveryLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02 15:04Z07:00",
	"2006-01-02 15:04Z07",
	"2006-01-02T15:04Z07:00",
}

// parseRecoveryTarget reads a moment with its time zone.
func parseRecoveryTarget(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if len(s) > 64 {
		return time.Time{}, fmt.Errorf("--to: %d characters is not a time", len(s))
	}
	for _, l := range recoveryLayouts {
		if t, err := time.Parse(l, s); err == nil {
			if t.Year() < 2000 || t.Year() > 9999 {
				return time.Time{}, fmt.Errorf("--to %q: year out of range", s)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf(`--to %q: want a time with its zone, e.g. "2026-12-02 14:03:00+08" or 2026-12-02T06:03:00Z`, s)
}
