// Package migrations holds the SQL schema, embedded in the binary, and applies it.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed *.sql
var files embed.FS

// FS returns the migration files.
func FS() fs.FS { return files }

// lockID is the advisory lock that serialises migrations when several
// servers start at once against the same database ("dankyu" in ASCII).
const lockID int64 = 0x64616e6b7975

// Up applies every pending migration. It is safe to call from several
// processes at once: goose holds a PostgreSQL advisory lock while it works.
func Up(ctx context.Context, db *sql.DB) (int64, error) {
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(lockID), lock.WithLockTimeout(1, 300))
	if err != nil {
		return 0, fmt.Errorf("migration locker: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, files, goose.WithSessionLocker(locker))
	if err != nil {
		return 0, fmt.Errorf("migration provider: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return 0, fmt.Errorf("apply migrations: %w", err)
	}
	v, err := p.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// appendOnly are the tables the server may only add to and read.
var appendOnly = []string{"events", "event_tree", "log_checkpoints"}

// GrantServer gives role the rights the running server needs and no more:
// read and write the domain tables, only INSERT and SELECT on the event
// log and its tree, only read the migration record. Run by the owner after
// Up, on every start, so tables a new migration adds are covered too.
func GrantServer(ctx context.Context, db *sql.DB, role string) error {
	r := pgx.Identifier{role}.Sanitize()
	stmts := []string{
		`GRANT USAGE ON SCHEMA public TO ` + r,
		`REVOKE CREATE ON SCHEMA public FROM PUBLIC`,
		`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ` + r,
		`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ` + r,
		`REVOKE ALL ON goose_db_version FROM ` + r,
		`GRANT SELECT ON goose_db_version TO ` + r,
	}
	for _, t := range appendOnly {
		stmts = append(stmts, `REVOKE UPDATE, DELETE, TRUNCATE ON `+pgx.Identifier{t}.Sanitize()+` FROM `+r)
	}
	// one transaction: a GRANT rewrites the catalog rows even when nothing
	// changes, and each commit waits for the disk on the server's durable
	// cluster (nine commits were most of a restart's migration step)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("grant server role %s: %w", role, err)
	}
	defer tx.Rollback()
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("grant server role %s: %s: %w", role, s, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("grant server role %s: %w", role, err)
	}
	return nil
}
