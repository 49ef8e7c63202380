package server

import (
	"context"
	"fmt"
	"log/slog"

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

// OpenDatabase connects to url, or with an empty url starts (or reuses) the
// embedded cluster in dataDir; then applies pending migrations. stopOnClose
// says whether Close stops an embedded cluster this call found running.
func OpenDatabase(ctx context.Context, url, dataDir string, stopOnClose bool, log *slog.Logger) (*Database, error) {
	d := &Database{stopPG: stopOnClose}
	if url == "" {
		c, err := pgcluster.New(dataDir, pgcluster.Options{Log: log})
		if err != nil {
			return nil, err
		}
		if err := c.Start(ctx); err != nil {
			return nil, err
		}
		d.cluster = c
		if err := c.EnsureDatabase(ctx, EmbeddedDatabase); err != nil {
			d.Close(ctx)
			return nil, err
		}
		url = c.ConnString(EmbeddedDatabase)
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
	db := stdlib.OpenDBFromPool(pool)
	version, err := migrations.Up(ctx, db)
	db.Close()
	if err != nil {
		d.Close(ctx)
		return nil, err
	}
	log.Info("database ready", "embedded", d.cluster != nil, "schema_version", version)
	return d, nil
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
