package server

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/dankyu/dankyu/internal/pgcluster"
	"github.com/dankyu/dankyu/migrations"
)

// EmbeddedDatabase is the database name inside the embedded cluster.
const EmbeddedDatabase = "dankyu"

// Database is an open, migrated database and what closes it.
type Database struct {
	Pool    *pgxpool.Pool
	cluster *pgcluster.Cluster // nil with an outside database
	stopPG  bool
}

// The embedded cluster's roles: the owner migrates, the server connects.
const (
	EmbeddedOwnerRole  = "dankyu_owner"
	EmbeddedServerRole = "dankyu_server"
)

// DatabaseSource says where the database is: an outside URL (and the
// owner's URL to migrate it with), or else the embedded cluster in DataDir.
type DatabaseSource struct {
	URL, MigrationURL, DataDir string
}

// OpenDatabase connects to the outside database, or with an empty URL starts
// (or reuses) the embedded cluster; then applies pending migrations as the
// schema's owner and connects as a role that owns nothing. stopOnClose says
// whether Close stops an embedded cluster this call found running.
func OpenDatabase(ctx context.Context, src DatabaseSource, stopOnClose bool, log *slog.Logger) (*Database, error) {
	start := time.Now()
	d, url, migrateURL, err := reach(ctx, src, stopOnClose, log)
	if err != nil {
		return nil, err
	}
	reached := time.Now()
	version, err := migrate(ctx, url, migrateURL)
	if err != nil {
		d.Close(ctx)
		return nil, err
	}
	if migrateURL == "" {
		log.Warn("the server migrates and runs as one role: set --migration-url to the owner's URL so the server's own role cannot rewrite the event log")
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		d.Close(ctx)
		return nil, fmt.Errorf("open database: %w", err)
	}
	d.Pool = pool
	if err := pool.Ping(ctx); err != nil {
		d.Close(ctx)
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	// where startup goes (BenchmarkRestartToServing logs it)
	log.Info("database ready", "embedded", d.cluster != nil, "schema_version", version,
		"reached", reached.Sub(start).Round(time.Millisecond), "migrated_and_connected", time.Since(reached).Round(time.Millisecond))
	return d, nil
}

// reach makes the database reachable: an outside one as given, or the
// embedded cluster started with its database and roles. It returns the
// server's URL and the owner's ("" when they are one).
func reach(ctx context.Context, src DatabaseSource, stopOnClose bool, log *slog.Logger) (*Database, string, string, error) {
	d := &Database{stopPG: stopOnClose}
	if src.URL != "" {
		return d, src.URL, src.MigrationURL, nil
	}
	c, err := pgcluster.New(src.DataDir, pgcluster.Options{Log: log})
	if err != nil {
		return nil, "", "", err
	}
	if err := c.Start(ctx); err != nil {
		return nil, "", "", err
	}
	d.cluster = c
	if c.RolesSettled(ctx, EmbeddedDatabase, EmbeddedOwnerRole, EmbeddedServerRole) {
		return d, c.ConnStringAs(EmbeddedDatabase, EmbeddedServerRole), c.ConnStringAs(EmbeddedDatabase, EmbeddedOwnerRole), nil
	}
	if err := c.EnsureDatabase(ctx, EmbeddedDatabase); err != nil {
		d.Close(ctx)
		return nil, "", "", err
	}
	if err := c.EnsureRoles(ctx, EmbeddedDatabase, EmbeddedOwnerRole, EmbeddedServerRole); err != nil {
		d.Close(ctx)
		return nil, "", "", err
	}
	return d, c.ConnStringAs(EmbeddedDatabase, EmbeddedServerRole), c.ConnStringAs(EmbeddedDatabase, EmbeddedOwnerRole), nil
}

// ownerOf is the URL that connects as the schema's owner: the migration
// URL, or the server's when they are one.
func ownerOf(url, migrateURL string) string {
	if migrateURL != "" {
		return migrateURL
	}
	return url
}

// migrate applies the migrations as the owner (migrateURL, or url when
// there is none) and, with a separate owner, grants url's role what the
// server needs.
func migrate(ctx context.Context, url, migrateURL string) (int64, error) {
	cfg, err := pgxpool.ParseConfig(ownerOf(url, migrateURL))
	if err != nil {
		return 0, fmt.Errorf("migration database URL: %w", err)
	}
	cfg.MaxConns = 2
	owner, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return 0, fmt.Errorf("open database to migrate: %w", err)
	}
	defer owner.Close()
	if err := owner.Ping(ctx); err != nil {
		return 0, fmt.Errorf("connect to database to migrate: %w", err)
	}
	db := stdlib.OpenDBFromPool(owner)
	defer db.Close()
	version, err := migrations.Up(ctx, db)
	if err != nil {
		return 0, err
	}
	if migrateURL == "" {
		return version, nil
	}
	server, err := pgxpool.ParseConfig(url)
	if err != nil {
		return 0, fmt.Errorf("database URL: %w", err)
	}
	if server.ConnConfig.User == cfg.ConnConfig.User {
		return version, nil // one role after all: revoking would only bind the owner
	}
	if err := migrations.GrantServer(ctx, db, server.ConnConfig.User); err != nil {
		return 0, err
	}
	return version, nil
}

// Close closes the pool and stops the embedded cluster.
func (d *Database) Close(ctx context.Context) error {
	if d.Pool != nil {
		d.Pool.Close()
	}
	if d.cluster != nil {
		return d.cluster.Stop(ctx, d.stopPG, false)
	}
	return nil
}
