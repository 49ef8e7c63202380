package audit

import (
	"context"
	"fmt"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Issuance is what the audit report draws: the certificates of an audit
// year by issuing agency and rank, read from the event log up to the year's
// snapshot position (before the year is opened, up to the log's present),
// and the certificates of each of the years before it, from their stored
// snapshots where those years were opened, else from the log. A reissue
// replaces a certificate and is not counted, as in certificates_issued.
type Issuance struct {
	Year     int
	Position int64
	Snapshot bool                             // Position is the year's snapshot
	ByRank   map[string]map[registry.Rank]int // agency → rank → certificates
	Trend    []YearIssued                     // oldest first, ending with Year
}

// YearIssued is the certificates issued in one audit year, per agency.
type YearIssued struct {
	Year     int
	Snapshot bool // from the year's stored certificates_issued, else from the log
	ByAgency map[string]int
}

// Total is the year's certificates over every agency.
func (y YearIssued) Total() int {
	n := 0
	for _, c := range y.ByAgency {
		n += c
	}
	return n
}

// Issuance reads year's issuance by agency and rank and the certificates
// issued in each of the years audit years ending with it: staff see every
// agency's, an agency its own.
func (s *Service) Issuance(ctx context.Context, actor ledger.Actor, year, years int) (Issuance, error) {
	if err := access.RequireSignedIn(actor, access.ReadAudit); err != nil {
		return Issuance{}, err
	}
	if err := checkYear(year); err != nil {
		return Issuance{}, err
	}
	years = min(max(years, 1), 20)
	agency := ""
	if actor.Kind == ledger.AgencyActor {
		agency = actor.Agency
	}
	db := s.store.DB()
	out := Issuance{Year: year, ByRank: map[string]map[registry.Rank]int{}}
	var position *int64
	if err := db.QueryRow(ctx, `SELECT min(position) FROM audits WHERE year = $1`, year).Scan(&position); err != nil {
		return Issuance{}, ledger.PgErr(err, "read audit position")
	}
	if position != nil {
		out.Position, out.Snapshot = *position, true
	} else {
		p, err := ledger.LastEventID(ctx, db)
		if err != nil {
			return Issuance{}, err
		}
		out.Position = p
	}
	first := year - years + 1
	stored := map[int]map[string]int{}
	rows, err := db.Query(ctx, `SELECT year, agency_prefix, count FROM audit_indicators
		WHERE key = $1 AND year BETWEEN $2 AND $3 AND ($4 = '' OR agency_prefix = $4)`, KeyCertificatesIssued, first, year-1, agency)
	if err != nil {
		return Issuance{}, fmt.Errorf("read issued of earlier audits: %w", err)
	}
	for rows.Next() {
		var (
			y int
			a string
			n int64
		)
		if err := rows.Scan(&y, &a, &n); err != nil {
			rows.Close()
			return Issuance{}, fmt.Errorf("read issued of earlier audits: %w", err)
		}
		if stored[y] == nil {
			stored[y] = map[string]int{}
		}
		stored[y][a] = int(n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Issuance{}, fmt.Errorf("read issued of earlier audits: %w", err)
	}
	// the log is read from the first year without a snapshot
	from := year
	for y := first; y < year; y++ {
		if _, ok := stored[y]; !ok {
			from = y
			break
		}
	}
	logged := map[int]map[string]int{}
	periods := make([]Period, 0, year-from+1)
	for y := from; y <= year; y++ {
		periods = append(periods, s.cfg.Period(y))
		logged[y] = map[string]int{}
	}
	err = ledger.ScanEntityEvents(ctx, db, "certificate", []string{"certificate.issued"}, out.Position, periods[0].Start, periods[len(periods)-1].End,
		func(e ledger.LoggedEvent) error {
			p, err := readPayload(e.Payload, "rank", "issuer", "replaces")
			if err != nil {
				return fmt.Errorf("event %d: %w", e.ID, err)
			}
			issuer := p.str("issuer")
			if p.int("replaces") != 0 || (agency != "" && issuer != agency) {
				return nil
			}
			y := from
			for i := range periods {
				if !e.At.Before(periods[i].Start) && e.At.Before(periods[i].End) {
					y = from + i
				}
			}
			logged[y][issuer]++
			if y == year {
				r, err := registry.ParseRank(p.str("rank"))
				if err != nil {
					return fmt.Errorf("event %d: %w", e.ID, err)
				}
				if out.ByRank[issuer] == nil {
					out.ByRank[issuer] = map[registry.Rank]int{}
				}
				out.ByRank[issuer][r]++
			}
			return nil
		})
	if err != nil {
		return Issuance{}, err
	}
	for y := first; y <= year; y++ {
		if st, ok := stored[y]; ok {
			out.Trend = append(out.Trend, YearIssued{Year: y, Snapshot: true, ByAgency: st})
			continue
		}
		yi := YearIssued{Year: y, Snapshot: y == year && out.Snapshot, ByAgency: logged[y]}
		if yi.ByAgency == nil {
			yi.ByAgency = map[string]int{}
		}
		out.Trend = append(out.Trend, yi)
	}
	return out, nil
}
