package nationaldata

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// Load writes the plan into a migrated database without agencies, in one
// transaction: its events first (chained onto the log, in the tree), then
// each owner's rows with COPY. It returns the plan's manifest, with the
// plan's digest.
func Load(ctx context.Context, pool *pgxpool.Pool, p *Plan) (Manifest, error) {
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		n, err := registry.CountAgencies(ctx, tx)
		if err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("the database already has %d agencies: load a national data set into a fresh database", n)
		}
		if _, err := ledger.BulkAppend(ctx, tx, p.Events); err != nil {
			return err
		}
		if err := registry.CopyAgencies(ctx, tx, p.Agencies); err != nil {
			return err
		}
		if err := registry.CopyPlayers(ctx, tx, p.Players); err != nil {
			return err
		}
		if err := registry.CopyIdentityChanges(ctx, tx, p.IdentityChanges); err != nil {
			return err
		}
		if err := certs.CopyAll(ctx, tx, p.Certs); err != nil {
			return err
		}
		return tournaments.CopyEvents(ctx, tx, p.Tournaments)
	})
	if err != nil {
		return Manifest{}, fmt.Errorf("load national data set: %w", err)
	}
	m := p.Manifest
	m.Digest = p.Digest()
	return m, nil
}
