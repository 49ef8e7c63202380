package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/jackc/pgx/v5"
)

// AgencyStatus is active or suspended.
type AgencyStatus string

const (
	AgencyActive    AgencyStatus = "active"
	AgencySuspended AgencyStatus = "suspended"
)

// Agency is the first-level agency of one province, keyed by its prefix.
type Agency struct {
	Prefix    string
	Name      string
	Contact   string
	Status    AgencyStatus
	CreatedAt time.Time
	UpdatedAt time.Time
}

// AgencyInput is what staff submit to create an agency.
type AgencyInput struct {
	Prefix  string
	Name    string
	Contact string
}

func (in AgencyInput) validate() (Agency, error) {
	a := Agency{Prefix: strings.TrimSpace(in.Prefix), Status: AgencyActive}
	if p, ok := ProvinceByPrefix(a.Prefix); !ok || p.Prefix == AssociationPrefix {
		return Agency{}, ReasonNotAProvincePrefix.OnField("prefix", "value", in.Prefix)
	}
	var err error
	if a.Name, err = ledger.Text("name", in.Name, 100); err != nil {
		return Agency{}, err
	}
	if a.Contact, err = ledger.OptionalText("contact", in.Contact, 200); err != nil {
		return Agency{}, err
	}
	return a, nil
}

const agencyColumns = `prefix, name, contact, status, created_at, updated_at`

func scanAgency(r pgx.Row) (Agency, error) {
	var a Agency
	err := r.Scan(&a.Prefix, &a.Name, &a.Contact, &a.Status, &a.CreatedAt, &a.UpdatedAt)
	return a, err
}

// CreateAgency registers the first-level agency of a province. Staff only.
func (s *Service) CreateAgency(ctx context.Context, actor ledger.Actor, key string, in AgencyInput) (Agency, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageAgencies, AssociationPrefix); err != nil {
		return Agency{}, err
	}
	a, err := in.validate()
	if err != nil {
		return Agency{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "CreateAgency", in, func(tx *ledger.Tx, now time.Time) (Agency, error) {
		a.CreatedAt, a.UpdatedAt = now, now
		_, err := tx.Exec(ctx, `INSERT INTO agencies (`+agencyColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`,
			a.Prefix, a.Name, a.Contact, a.Status, a.CreatedAt, a.UpdatedAt)
		if err != nil {
			return Agency{}, ledger.PgErr(err, "create agency "+a.Prefix)
		}
		err = ledger.Append(ctx, tx, now, actor, "agency", a.Prefix, NewAgencyCreatedPayload(a))
		return a, err
	})
}

// maxReason bounds the reason given for a suspension (it goes in the event log).
const maxReason = 1000

// SetAgencyStatus suspends or reactivates an agency. Staff only.
func (s *Service) SetAgencyStatus(ctx context.Context, actor ledger.Actor, key, prefix string, status AgencyStatus, reason string) (Agency, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.ManageAgencies, AssociationPrefix); err != nil {
		return Agency{}, err
	}
	if status != AgencyActive && status != AgencySuspended {
		return Agency{}, ReasonAgencyStatus.OnField("status")
	}
	reason, err := ledger.OptionalText("reason", reason, maxReason)
	if err != nil {
		return Agency{}, err
	}
	req := struct{ Prefix, Status, Reason string }{prefix, string(status), reason}
	return ledger.Mutate(ctx, s.store, actor, key, "SetAgencyStatus", req, func(tx *ledger.Tx, now time.Time) (Agency, error) {
		a, err := scanAgency(tx.QueryRow(ctx, `UPDATE agencies SET status = $2, updated_at = $3 WHERE prefix = $1 RETURNING `+agencyColumns,
			prefix, status, now))
		if err != nil {
			return Agency{}, ledger.PgErr(err, "agency "+prefix)
		}
		err = ledger.Append(ctx, tx, now, actor, "agency", prefix,
			AgencyStatusSetPayload{Reason: reason, Status: status})
		return a, err
	})
}

// GetAgency returns the agency with the given prefix.
func (s *Service) GetAgency(ctx context.Context, prefix string) (Agency, error) {
	a, err := scanAgency(s.store.DB().QueryRow(ctx, `SELECT `+agencyColumns+` FROM agencies WHERE prefix = $1`, prefix))
	if errors.Is(err, pgx.ErrNoRows) {
		return Agency{}, ReasonNoSuchAgency.New("agency", prefix)
	}
	if err != nil {
		return Agency{}, ledger.PgErr(err, "agency "+prefix)
	}
	return a, nil
}

// ListAgencies returns every agency ordered by prefix.
func (s *Service) ListAgencies(ctx context.Context) ([]Agency, error) {
	rows, err := s.store.DB().Query(ctx, `SELECT `+agencyColumns+` FROM agencies ORDER BY prefix`)
	if err != nil {
		return nil, fmt.Errorf("list agencies: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Agency, error) { return scanAgency(r) })
}
