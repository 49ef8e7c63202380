package registry

import (
	"context"
	"errors"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/jackc/pgx/v5"
)

// Service is the registry's business logic over the kernel's store.
type Service struct {
	store  *ledger.Store
	policy *access.Policy
	certs  Certifications // nil: no identity change of an agency takes effect at once
}

// New returns a registry over the store. The registry holds the one
// permission policy, since it owns the agencies whose standing the policy
// checks.
func New(store *ledger.Store) *Service {
	s := &Service{store: store}
	s.policy = access.New(s)
	return s
}

// Policy is the permission policy every package and transport uses.
func (s *Service) Policy() *access.Policy { return s.policy }

// AgencyActive reports whether the agency exists and is not suspended, as
// seen by q (the caller's transaction, or the pool).
func (s *Service) AgencyActive(ctx context.Context, q ledger.Querier, prefix string) (bool, error) {
	return agencyActive(q.QueryRow(ctx, agencyStatusSQL, prefix), prefix)
}

const agencyStatusSQL = `SELECT status FROM agencies WHERE prefix = $1`

func agencyActive(r pgx.Row, prefix string) (bool, error) {
	var status AgencyStatus
	err := r.Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, ReasonNoSuchAgency.New("agency", prefix)
	}
	if err != nil {
		return false, ledger.PgErr(err, "agency "+prefix)
	}
	return status == AgencyActive, nil
}

// QueueAgencyActive is AgencyActive queued on b (access.AgencyQueuer):
// active and err are set when b's results are read.
func (s *Service) QueueAgencyActive(b *pgx.Batch, prefix string, active *bool, err *error) {
	b.Queue(agencyStatusSQL, prefix).QueryRow(func(r pgx.Row) error {
		*active, *err = agencyActive(r, prefix)
		return nil
	})
}
