package certs

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ApplicationOutcome is what the public may know of an application a
// dan-grade event proposed: where it stands, the public notice it is on
// (0: none) and the number of its certificate while that is valid ("":
// none, or revoked). The caller withholds it for a player the public
// search does not list (a minor).
type ApplicationOutcome struct {
	ID                int64
	Status            AppStatus
	NoticeID          int64
	CertificateNumber string
	// Revoked says a certificate was issued and none of its numbers is
	// valid any more.
	Revoked bool
}

// ApplicationOutcomes reads the outcomes of applications ids, by id; an
// unknown id is left out. It is a public read: it holds no name, reason
// or evidence.
func (s *Service) ApplicationOutcomes(ctx context.Context, ids []int64) (map[int64]ApplicationOutcome, error) {
	out := map[int64]ApplicationOutcome{}
	if len(ids) == 0 {
		return out, nil
	}
	// a reissue gives the application a new valid number: link that one
	rows, err := s.db.Query(ctx, `SELECT a.id, a.status, coalesce(n.id, 0),
		coalesce((SELECT c.number FROM certificates c WHERE c.application_id = a.id AND c.status = 'valid' ORDER BY c.id DESC LIMIT 1), ''),
		EXISTS (SELECT 1 FROM certificates c WHERE c.application_id = a.id)
		FROM applications a LEFT JOIN notices n ON n.application_id = a.id
		WHERE a.id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("outcomes of applications: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ApplicationOutcome, error) {
		var o ApplicationOutcome
		var issued bool
		err := r.Scan(&o.ID, &o.Status, &o.NoticeID, &o.CertificateNumber, &issued)
		o.Revoked = issued && o.CertificateNumber == ""
		return o, err
	})
	if err != nil {
		return nil, fmt.Errorf("outcomes of applications: %w", err)
	}
	for _, o := range list {
		out[o.ID] = o
	}
	return out, nil
}
