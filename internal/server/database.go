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
	owner   *pgxpool.Pool      // the owner's connection reach settled on, for migrate
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
	// the server's pool connects while the owner migrates: each connection
	// forks a backend, which then costs no wall time of its own
	pool, err := pgxpool.New(ctx, url) // connects on first use
	if err != nil {
		d.Close(ctx)
		return nil, fmt.Errorf("open database: %w", err)
	}
	d.Pool = pool
	warm := make(chan error, 1)
	go func() { warm <- pool.Ping(ctx) }()
	version, err := migrate(ctx, d, url, migrateURL)
	warmErr := <-warm
	if err != nil {
		d.Close(ctx)
		return nil, err
	}
	if migrateURL == "" {
		log.Warn("the server migrates and runs as one role: set --migration-url to the owner's URL so the server's own role cannot rewrite the event log")
	}
	if warmErr != nil {
		// refused before the migration's grants, perhaps: once more now
		if err := pool.Ping(ctx); err != nil {
			d.Close(ctx)
			return nil, fmt.Errorf("connect to database: %w", err)
		}
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
	url, ownerURL := c.ConnStringAs(EmbeddedDatabase, EmbeddedServerRole), c.ConnStringAs(EmbeddedDatabase, EmbeddedOwnerRole)
	// A cluster made before has its database and roles, as a rule: ask
	// on the owner's connection, which migrate then uses, rather than open
	// the superuser's as well (a connection forks a backend).
	if !c.Created() {
		if owner, err := ownerPool(ctx, ownerURL); err == nil {
			if pgcluster.RolesSettledOn(ctx, owner, EmbeddedOwnerRole, EmbeddedServerRole) {
				d.owner = owner
				return d, url, ownerURL, nil
			}
			owner.Close()
		}
	}
	if err := c.EnsureDatabase(ctx, EmbeddedDatabase); err != nil {
		d.Close(ctx)
		return nil, "", "", err
	}
	if err := c.EnsureRoles(ctx, EmbeddedDatabase, EmbeddedOwnerRole, EmbeddedServerRole); err != nil {
		d.Close(ctx)
		return nil, "", "", err
	}
	return d, url, ownerURL, nil
}

// ownerOf is the URL that connects as the schema's owner: the migration
// URL, or the server's when they are one.
func ownerOf(url, migrateURL string) string {
	if migrateURL != "" {
		return migrateURL
	}
	return url
}

// ownerPool connects to the database as its owner, for migrations.
func ownerPool(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("migration database URL: %w", err)
	}
	cfg.MaxConns = 2
	owner, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database to migrate: %w", err)
	}
	if err := owner.Ping(ctx); err != nil {
		owner.Close()
		return nil, fmt.Errorf("connect to database to migrate: %w", err)
	}
	return owner, nil
}

// migrate applies the migrations as the owner (migrateURL, or url when
// there is none) and, with a separate owner, grants url's role what the
// server needs. It uses (and closes) the owner's pool reach left in d.
func migrate(ctx context.Context, d *Database, url, migrateURL string) (int64, error) {
	owner := d.owner
	d.owner = nil
	if owner == nil {
		var err error
		if owner, err = ownerPool(ctx, ownerOf(url, migrateURL)); err != nil {
			return 0, err
		}
	}
	defer owner.Close()
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
	if server.ConnConfig.User == owner.Config().ConnConfig.User {
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
	if d.owner != nil {
		d.owner.Close()
	}
	if d.cluster != nil {
		return d.cluster.Stop(ctx, d.stopPG, false)
	}
	return nil
}
