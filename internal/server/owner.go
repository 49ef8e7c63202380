package server

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
)

// OpenAsOwner opens the database (migrated) connected as the schema's
// owner, for bulk loads (the national data set) that also move the id
// sequences, which the server's role may not.
func OpenAsOwner(ctx context.Context, src DatabaseSource, log *slog.Logger) (*Database, error) {
	d, url, migrateURL, err := reach(ctx, src, false, log)
	if err != nil {
		return nil, err
	}
	if _, err := migrate(ctx, d, url, migrateURL); err != nil {
		d.Close(ctx)
		return nil, err
	}
	pool, err := pgxpool.New(ctx, ownerOf(url, migrateURL))
	if err != nil {
		d.Close(ctx)
		return nil, fmt.Errorf("open database as its owner: %w", err)
	}
	d.Pool = pool
	if err := pool.Ping(ctx); err != nil {
		d.Close(ctx)
		return nil, fmt.Errorf("connect to database as its owner: %w", err)
	}
	return d, nil
}
