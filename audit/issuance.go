package audit

import (
	"context"
	"fmt"
	"sync"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/certs"
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
// agency's, an agency its own. The maps returned are shared: read only.
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
	frozen, err := s.frozenYear(ctx, db, year)
	if err != nil {
		return Issuance{}, err
	}
	if len(frozen) > 0 {
		out.Position, out.Snapshot = frozen[0].Position, true
	} else {
		p, err := ledger.LastEventID(ctx, db)
		if err != nil {
			return Issuance{}, err
		}
		out.Position = p
	}
	key := issuanceKey{year: year, years: years, position: out.Position, agency: agency}
	if !out.Snapshot {
		return s.readIssuance(ctx, out, years, agency)
	}
	if got, ok := s.issued.get(key); ok {
		return got, nil
	}
	out, err = s.readIssuance(ctx, out, years, agency)
	if err != nil {
		return Issuance{}, err
	}
	s.issued.put(key, out)
	return out, nil
}

// issuanceKey names one reading of the report's figures. An opened year's
// are fixed by its position: the log is append-only and every later row
// has a higher id, so the reading can be kept; a year not yet opened is
// read each time (its position is the log's present).
type issuanceKey struct {
	year, years int
	position    int64
	agency      string
}

// issuanceCache keeps the readings of opened years (the zero value is empty).
type issuanceCache struct {
	mu sync.Mutex
	m  map[issuanceKey]Issuance
}

func (c *issuanceCache) get(k issuanceKey) (Issuance, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *issuanceCache) put(k issuanceKey, v Issuance) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= 256 {
		c.m = map[issuanceKey]Issuance{}
	}
	c.m[k] = v
}

// readIssuance reads the figures of out.Year at out.Position.
func (s *Service) readIssuance(ctx context.Context, out Issuance, years int, agency string) (Issuance, error) {
	db := s.store.DB()
	year := out.Year
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
			p, err := readPayload[certs.CertificateIssuedPayload](e.Payload, "rank", "issuer", "replaces")
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
