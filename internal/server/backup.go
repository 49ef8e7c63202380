package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/internal/pgcluster"
)

// Backup writes the whole database to file with pg_dump's custom format:
// one consistent snapshot, taken while the server keeps serving. The dump
// holds every full identity number, so it is written private (mode 0600)
// whatever the umask: into a new file beside file, renamed over it when
// complete, so that an existing file's wider mode is not kept either and
// a failed dump leaves no half a backup.
func Backup(ctx context.Context, src DatabaseSource, file string, log *slog.Logger) error {
	d, url, migrateURL, err := reach(ctx, src, false, log)
	if err != nil {
		return err
	}
	defer d.Close(ctx)
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.part")
	if err != nil {
		return fmt.Errorf("back up to %s: %w", file, err)
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(BackupMode); err != nil {
		tmp.Close()
		return fmt.Errorf("back up to %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("back up to %s: %w", file, err)
	}
	// the owner reads every table; pg_dump truncates the private file and keeps its mode
	if err := pgTool(ctx, "pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", tmp.Name(), "--dbname", ownerOf(url, migrateURL)); err != nil {
		return fmt.Errorf("back up to %s: %w", file, err)
	}
	if err := syncFile(tmp.Name()); err != nil {
		return fmt.Errorf("back up to %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("back up to %s: %w", file, err)
	}
	done = true
	return nil
}

// BackupMode is a backup file's mode: its owner's alone.
const BackupMode fs.FileMode = 0o600

// syncFile flushes a written file to disk before it replaces the last backup.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// ErrNotEmpty refuses a restore over a database that already has tables.
var ErrNotEmpty = errors.New("the database already has tables: restore into a fresh data folder or an empty database")

// Restore loads a backup into an empty database (for the embedded default,
// a fresh data folder), owned by the owner role; the next start migrates
// it to this version and grants the server's role.
func Restore(ctx context.Context, src DatabaseSource, file string, log *slog.Logger) error {
	d, url, migrateURL, err := reach(ctx, src, false, log)
	if err != nil {
		return err
	}
	defer d.Close(ctx)
	ownerURL := ownerOf(url, migrateURL)
	conn, err := pgx.Connect(ctx, ownerURL)
	if err != nil {
		return fmt.Errorf("connect to restore: %w", err)
	}
	var tables int
	err = conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&tables)
	conn.Close(ctx)
	if err != nil {
		return fmt.Errorf("look at the database to restore into: %w", err)
	}
	if tables > 0 {
		return ErrNotEmpty
	}
	if err := pgTool(ctx, "pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--dbname", ownerURL, file); err != nil {
		return fmt.Errorf("restore %s: %w", file, err)
	}
	// bring it to this version and grant the server's role, as a start would
	if _, err := migrate(ctx, d, url, migrateURL); err != nil {
		return err
	}
	return nil
}

// pgTool runs one of PostgreSQL's client programs from the binaries the
// embedded cluster uses.
func pgTool(ctx context.Context, name string, args ...string) error {
	bin, err := pgcluster.FindBinaries()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, name), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w: %s", name, err, strings.TrimSpace(out.String()))
	}
	return nil
}
