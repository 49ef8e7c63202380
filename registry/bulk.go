package registry

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// Bulk loading (the national data set): rows written with COPY in the
// caller's transaction, exactly as the services leave them; the caller
// writes the events the services would have written (ledger.BulkAppend)
// with the payloads of payloads.go.

// CopyAgencies writes agencies as CreateAgency (and SetAgencyStatus) leave them.
func CopyAgencies(ctx context.Context, tx pgx.Tx, as []Agency) error {
	i := 0
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"agencies"}, []string{"prefix", "name", "contact", "status", "created_at", "updated_at"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i >= len(as) {
				return nil, nil
			}
			a := as[i]
			i++
			return []any{a.Prefix, a.Name, a.Contact, string(a.Status), a.CreatedAt, a.UpdatedAt}, nil
		}))
	if err != nil {
		return fmt.Errorf("copy %d agencies: %w", len(as), err)
	}
	return nil
}

// CopyPlayers writes players in their final state (their ids given), and
// moves the id sequence past them.
func CopyPlayers(ctx context.Context, tx pgx.Tx, ps []Player) error {
	i := 0
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"players"}, []string{"id", "name", "gender", "birth_date", "nationality", "id_kind", "id_number",
		"identity_key", "province_code", "agency_prefix", "rank", "declared_rank", "rank_certified", "honorary_basis", "created_at", "updated_at"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i >= len(ps) {
				return nil, nil
			}
			p := ps[i]
			i++
			return []any{p.ID, p.Name, string(p.Gender), p.BirthDate, p.Nationality, string(p.IDKind), p.IDNumber, identityKey(p),
				p.ProvinceCode, p.AgencyPrefix, int16(p.Rank), int16(p.DeclaredRank), p.RankCertified, p.HonoraryBasis, p.CreatedAt, p.UpdatedAt}, nil
		}))
	if err != nil {
		return fmt.Errorf("copy %d players: %w", len(ps), err)
	}
	return ledger.MoveSequence(ctx, tx, "players")
}

// CopyIdentityChanges writes decided changes of identity (their ids given)
// as DecideIdentityChange leaves them (no full number kept), and moves the
// id sequence past them.
func CopyIdentityChanges(ctx context.Context, tx pgx.Tx, cs []IdentityChange) error {
	i := 0
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"player_identity_changes"}, []string{"id", "player_id", "agency_prefix", "status", "reason",
		"requested_at", "requested_by", "old_birth_date", "new_birth_date", "old_nationality", "new_nationality", "old_id_kind", "new_id_kind",
		"old_id_masked", "new_id_masked", "decided_at", "decided_by", "decision_reason"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i >= len(cs) {
				return nil, nil
			}
			c := cs[i]
			i++
			if c.Status == ChangePending {
				return nil, fmt.Errorf("identity change %d: a bulk load writes decided changes only", c.ID)
			}
			return []any{c.ID, c.PlayerID, c.AgencyPrefix, string(c.Status), c.Reason, c.RequestedAt, c.RequestedBy, c.OldBirthDate, c.NewBirthDate,
				c.OldNationality, c.NewNationality, string(c.OldIDKind), string(c.NewIDKind), c.OldIDMasked, c.NewIDMasked, c.DecidedAt, c.DecidedBy,
				c.DecisionReason}, nil
		}))
	if err != nil {
		return fmt.Errorf("copy %d identity changes: %w", len(cs), err)
	}
	return ledger.MoveSequence(ctx, tx, "player_identity_changes")
}

// LoggedIdentityOf is what the log keeps of p's identity (for the bulk
// loads' payloads).
func LoggedIdentityOf(p Player) LoggedIdentity { return loggedIdentity(p) }

// CountAgencies counts the agencies as q sees them.
func CountAgencies(ctx context.Context, q ledger.Querier) (int, error) {
	var n int
	if err := q.QueryRow(ctx, `SELECT count(*) FROM agencies`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count agencies: %w", err)
	}
	return n, nil
}
