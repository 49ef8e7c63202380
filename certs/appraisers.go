package certs

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// AppraiserStatus is where an appraiser stands with the association.
type AppraiserStatus string

const (
	AppraiserRecommended AppraiserStatus = "recommended"
	AppraiserApproved    AppraiserStatus = "approved"
	AppraiserRefused     AppraiserStatus = "refused"
	AppraiserRevoked     AppraiserStatus = "revoked"
)

// Appraiser is a strong player an agency recommends to assess candidates; he
// acts only once the association has approved him.
type Appraiser struct {
	ID            int64
	Name          string
	AgencyPrefix  string
	PlayerID      int64
	Qualification string
	Status        AppraiserStatus
	RecommendedAt time.Time
	DecidedAt     *time.Time
	DecidedBy     string
}

// AppraiserInput is an agency's recommendation.
type AppraiserInput struct {
	Name          string
	AgencyPrefix  string // staff only; an agency recommends for itself
	PlayerID      int64  // optional: the appraiser's own registry entry
	Qualification string // e.g. "provincial champion 2019, 6 dan"
}

const appraiserColumns = `id, name, agency_prefix, coalesce(player_id, 0), qualification, status, recommended_at, decided_at, coalesce(decided_by, '')`

func scanAppraiser(r pgx.Row) (Appraiser, error) {
	var a Appraiser
	err := r.Scan(&a.ID, &a.Name, &a.AgencyPrefix, &a.PlayerID, &a.Qualification, &a.Status, &a.RecommendedAt, &a.DecidedAt, &a.DecidedBy)
	return a, err
}

// RecommendAppraiser records an agency's recommendation.
func (s *Service) RecommendAppraiser(ctx context.Context, actor ledger.Actor, key string, in AppraiserInput) (Appraiser, error) {
	if err := access.RequireSignedIn(actor, access.RecommendAppraiser); err != nil {
		return Appraiser{}, err
	}
	var err error
	if in.Name, err = ledger.Text("name", in.Name, 50); err != nil {
		return Appraiser{}, err
	}
	if in.Qualification, err = ledger.OptionalText("qualification", in.Qualification, maxEvidenceLen); err != nil {
		return Appraiser{}, err
	}
	if actor.Kind == ledger.AgencyActor {
		in.AgencyPrefix = actor.Agency
	}
	return ledger.Mutate(ctx, s.store, actor, key, "RecommendAppraiser", in, func(tx *ledger.Tx, now time.Time) (Appraiser, error) {
		if err := s.policy.Require(ctx, tx, actor, access.RecommendAppraiser, in.AgencyPrefix); err != nil {
			return Appraiser{}, err
		}
		var player any
		if in.PlayerID > 0 {
			p, err := registry.PlayerTx(ctx, tx, in.PlayerID, false)
			if err != nil {
				return Appraiser{}, err
			}
			if prov, _ := registry.ProvinceByCode(p.ProvinceCode); prov.Prefix != in.AgencyPrefix {
				return Appraiser{}, ReasonAppraiserPlayerElsewhere.OnField("player_id", "player", strconv.FormatInt(p.ID, 10), "agency", in.AgencyPrefix)
			}
			player = in.PlayerID
		}
		a, err := scanAppraiser(tx.QueryRow(ctx, `INSERT INTO appraisers (name, agency_prefix, player_id, qualification, status, recommended_at)
			VALUES ($1, $2, $3, $4, 'recommended', $5) RETURNING `+appraiserColumns, in.Name, in.AgencyPrefix, player, in.Qualification, now))
		if err != nil {
			return Appraiser{}, ledger.PgErr(err, "recommend appraiser")
		}
		err = ledger.Append(ctx, tx, now, actor, "appraiser", strconv.FormatInt(a.ID, 10),
			NewAppraiserRecommendedPayload(a))
		return a, err
	})
}

// SetAppraiserStatus approves, refuses or revokes an appraiser (staff).
func (s *Service) SetAppraiserStatus(ctx context.Context, actor ledger.Actor, key string, id int64, st AppraiserStatus) (Appraiser, error) {
	if err := s.requireStaff(ctx, actor, access.DecideAppraiser); err != nil {
		return Appraiser{}, err
	}
	if st != AppraiserApproved && st != AppraiserRefused && st != AppraiserRevoked {
		return Appraiser{}, ReasonAppraiserStatus.OnField("status")
	}
	req := []any{id, st}
	return ledger.Mutate(ctx, s.store, actor, key, "SetAppraiserStatus", req, func(tx *ledger.Tx, now time.Time) (Appraiser, error) {
		a, err := scanAppraiser(tx.QueryRow(ctx, `UPDATE appraisers SET status = $2, decided_at = $3, decided_by = $4
			WHERE id = $1 RETURNING `+appraiserColumns, id, st, now, actor.String()))
		if err != nil {
			return Appraiser{}, ledger.RowErr(err, fmt.Sprintf("appraiser %d", id), ReasonNoSuchAppraiser.New("appraiser", strconv.FormatInt(id, 10)))
		}
		err = ledger.Append(ctx, tx, now, actor, "appraiser", strconv.FormatInt(id, 10),
			AppraiserStatusPayload(a))
		return a, err
	})
}

// ListAppraisers lists appraisers, of one agency when agency is set.
func (s *Service) ListAppraisers(ctx context.Context, agency string) ([]Appraiser, error) {
	rows, err := s.db.Query(ctx, `SELECT `+appraiserColumns+` FROM appraisers WHERE $1 = '' OR agency_prefix = $1 ORDER BY id`, agency)
	if err != nil {
		return nil, fmt.Errorf("list appraisers: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Appraiser, error) { return scanAppraiser(r) })
}
