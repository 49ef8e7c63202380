package certs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// CertificateToPrint returns the certificate numbered number for printing:
// staff may print any, an agency those its province numbers. An unknown
// number is ledger.ErrNotFound.
func (s *Service) CertificateToPrint(ctx context.Context, actor ledger.Actor, number string) (Certificate, error) {
	n, err := parseNumberField(number)
	if err != nil {
		return Certificate{}, err
	}
	c, err := scanCertificate(s.db.QueryRow(ctx, certificateSelect+` WHERE c.number = $1`, n.String()))
	if errors.Is(err, pgx.ErrNoRows) {
		return Certificate{}, ledger.ErrNotFound
	}
	if err != nil {
		return Certificate{}, fmt.Errorf("certificate %s to print: %w", n, err)
	}
	if err := s.policy.Require(ctx, s.db, actor, access.ReadApplications, c.IssuingPrefix); err != nil {
		return Certificate{}, err
	}
	return c, nil
}

// CertificatesOfYear lists the valid numbered certificates that the province
// with prefix agency (000: the association) numbered with issue dates in
// year (Beijing dates), by number: what is printed on stock at once. Staff
// may list any province's, an agency its own.
func (s *Service) CertificatesOfYear(ctx context.Context, actor ledger.Actor, agency string, year int) ([]Certificate, error) {
	if year < 2000 || year > 2999 {
		return nil, ReasonStatisticsYear.OnField("year", "year", fmt.Sprint(year))
	}
	if _, ok := registry.ProvinceByPrefix(agency); !ok {
		return nil, registry.ReasonNotAProvincePrefix.OnField("agency", "value", ledger.Echo(agency))
	}
	if err := s.policy.Require(ctx, s.db, actor, access.ReadApplications, agency); err != nil {
		return nil, err
	}
	from := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
	rows, err := s.db.Query(ctx, certificateSelect+` WHERE c.issuing_prefix = $1 AND c.number IS NOT NULL
		AND c.status = $2 AND c.issue_date >= $3 AND c.issue_date < $4 ORDER BY c.number`,
		agency, CertValid, from, from.AddDate(1, 0, 0))
	if err != nil {
		return nil, fmt.Errorf("certificates of %s in %d: %w", agency, year, err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Certificate, error) { return scanCertificate(r) })
}
