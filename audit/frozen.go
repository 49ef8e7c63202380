package audit

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
)

// frozenYears keeps the opened years' audit rows with their stored
// indicators. Both are written once, when the year is opened (a year opens
// once; nothing updates or deletes them), so a year read after it opened
// can be kept and the national table served without reading them again;
// findings and rulings, which change, are always read. The zero value is
// empty.
type frozenYears struct {
	mu    sync.Mutex
	years map[int][]Audit
}

// frozenYear is year's audits with their indicators (none: not opened),
// by agency prefix. The Indicators slices are shared: read only.
func (s *Service) frozenYear(ctx context.Context, q ledger.Querier, year int) ([]Audit, error) {
	if err := checkYear(year); err != nil {
		return nil, err
	}
	s.frozen.mu.Lock()
	got, ok := s.frozen.years[year]
	s.frozen.mu.Unlock()
	if ok {
		return got, nil
	}
	rows, err := q.Query(ctx, `SELECT `+auditColumns+` FROM audits WHERE year = $1 ORDER BY agency_prefix`, year)
	if err != nil {
		return nil, fmt.Errorf("list audits: %w", err)
	}
	audits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Audit, error) { return scanAudit(r) })
	if err != nil {
		return nil, fmt.Errorf("list audits: %w", err)
	}
	if len(audits) == 0 {
		return nil, nil // not opened yet: read again next time
	}
	ins, err := s.indicatorsOfYear(ctx, q, year, "")
	if err != nil {
		return nil, err
	}
	for i := range audits {
		audits[i].Indicators = ins[audits[i].AgencyPrefix]
	}
	s.frozen.mu.Lock()
	if s.frozen.years == nil {
		s.frozen.years = map[int][]Audit{}
	}
	s.frozen.years[year] = audits
	s.frozen.mu.Unlock()
	return audits, nil
}

// frozenOf is the frozen audits of year that agency ("" for every one) may
// see. Their indicators are the cache's own, to read only (a frozen
// snapshot is never changed); capped so that an append copies.
func (s *Service) frozenOf(ctx context.Context, q ledger.Querier, year int, agency string) ([]Audit, error) {
	all, err := s.frozenYear(ctx, q, year)
	if err != nil {
		return nil, err
	}
	var out []Audit
	for _, a := range all {
		if agency == "" || a.AgencyPrefix == agency {
			a.Indicators = a.Indicators[:len(a.Indicators):len(a.Indicators)]
			out = append(out, a)
		}
	}
	return out, nil
}
