package audit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Config holds the audit's settings.
type Config struct {
	// StartMonth and StartDay begin audit year Y in year Y-1, Beijing time;
	// the year runs twelve months from there (default 1 December, so audit
	// year 2026 is 1 December 2025 00:00 to 30 November 2026 24:00, decided
	// before that December's orders).
	StartMonth time.Month
	StartDay   int
	// Thresholds replace the default threshold of the indicators they name.
	Thresholds map[string]Threshold
	// Ratings, when set, adds the indicator rank_outside_rating: the share
	// of an agency's dan certificates of the year whose rank lies more than
	// RatingMargin grades (default 1) outside the holder's rating estimate.
	Ratings      Ratings
	RatingMargin float64
	// ReplyDays is the reply period after a ruling (default 30 days): the
	// agency may appeal (复议) within it; after it, or once an appeal is
	// decided, the ruling is final.
	ReplyDays int
}

func (c Config) withDefaults() Config {
	if c.StartMonth == 0 {
		c.StartMonth = time.December
	}
	if c.StartDay == 0 {
		c.StartDay = 1
	}
	if c.RatingMargin == 0 {
		c.RatingMargin = 1
	}
	if c.ReplyDays == 0 {
		c.ReplyDays = 30
	}
	return c
}

// Period is the span of audit year year.
func (c Config) Period(year int) Period {
	c = c.withDefaults()
	start := time.Date(year-1, c.StartMonth, c.StartDay, 0, 0, 0, 0, ledger.ChinaTime)
	return Period{Start: start.UTC(), End: start.AddDate(1, 0, 0).UTC()}
}

// Service is the annual audit over the kernel's store.
type Service struct {
	store  *ledger.Store
	reg    *registry.Service
	policy *access.Policy
	cfg    Config
	defs   []Definition
	issued issuanceCache // the report's figures of opened years, fixed by their position
	frozen frozenYears   // the opened years' audits and indicators, written once
}

// New returns the audit over the store; reg supplies the agencies and the policy.
func New(store *ledger.Store, reg *registry.Service, cfg Config) (*Service, error) {
	cfg = cfg.withDefaults()
	if cfg.StartDay < 1 || cfg.StartDay > 28 {
		return nil, fmt.Errorf("audit year start day %d: want 1..28", cfg.StartDay)
	}
	if cfg.ReplyDays < 1 || cfg.ReplyDays > 365 {
		return nil, fmt.Errorf("audit reply period of %d days: want 1..365", cfg.ReplyDays)
	}
	known := map[string]bool{KeyRankOutsideRating: true}
	for _, d := range Definitions() {
		known[d.Key] = true
	}
	for k := range cfg.Thresholds {
		if !known[k] {
			return nil, fmt.Errorf("threshold for unknown indicator %q", k)
		}
	}
	return &Service{store: store, reg: reg, policy: reg.Policy(), cfg: cfg, defs: cfg.definitions()}, nil
}

// Definitions returns the indicators with the thresholds in force.
func (s *Service) Definitions() []Definition { return slices.Clone(s.defs) }

// Audit is one agency's audit of one year: its frozen scorecard, findings and ruling.
type Audit struct {
	AgencyPrefix string
	Year         int
	Period       Period
	Position     int64 // the event-log position the snapshot was computed at
	OpenedAt     time.Time
	OpenedBy     string
	Indicators   []Indicator
	Findings     []Finding
	Ruling       *Ruling
	// Preview: the year is still running and this is its preview (预览),
	// computed from the year's start to OpenedAt: no findings, and no
	// ruling can rest on it. OpenedAt and OpenedBy are the preview's.
	Preview bool
}

// Opened is what opening a year did.
type Opened struct {
	Year     int
	Position int64
	Agencies int
	Red      int // red marks, each now an open finding
}

func checkYear(year int) error {
	if year < 2005 || year > 2999 {
		return ReasonYear.OnField("year", "year", strconv.Itoa(year))
	}
	return nil
}

// scorecards computes every indicator of every agency in agencies at position.
func (s *Service) scorecards(ctx context.Context, q ledger.Querier, position int64, period Period, agencies []string) (map[string][]Indicator, *facts, error) {
	f, err := gather(ctx, q, position, period, agencies, nil, s.rating())
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]Indicator{}
	for _, def := range s.defs {
		var values []float64
		row := make([]Indicator, len(agencies))
		for i, a := range agencies {
			m := f.m(a, def.Key)
			in := Indicator{Key: def.Key, Family: def.Family, Count: m.count, Base: m.base, Value: value(def, m)}
			row[i] = in
			if def.Unit != "share" && def.Unit != "per_1000_players" || m.base > 0 {
				values = append(values, in.Value)
			}
		}
		median, spread := robust(values)
		var count, base int64
		for _, in := range row {
			count, base = count+in.Count, base+in.Base
		}
		for i, a := range agencies {
			in := row[i]
			in.Median, in.Spread = median, spread
			rate := othersRate(count, base, in)
			if def.Threshold.Model {
				// the model's expected count stands where the median does
				exp := f.m(a, def.Key).expected
				in.Median, in.Spread, rate = math.Round(exp*1000)/1000, 0, 0
				if in.Base > 0 {
					rate = exp / float64(in.Base)
				}
			}
			in.Mark = markOf(def.Threshold, in, rate)
			out[a] = append(out[a], in)
		}
	}
	return out, f, nil
}

// OpenYear opens the audits of year for every agency at once (staff): it
// freezes each one's scorecard at the event log's present position and
// opens a finding for every red mark.
func (s *Service) OpenYear(ctx context.Context, actor ledger.Actor, key string, year int) (Opened, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.OpenAudit, registry.AssociationPrefix); err != nil {
		return Opened{}, err
	}
	if err := checkYear(year); err != nil {
		return Opened{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "OpenAuditYear", year, func(tx *ledger.Tx, now time.Time) (Opened, error) {
		period := s.cfg.Period(year)
		if now.Before(period.End) {
			return Opened{}, ReasonYearRunning.New("year", strconv.Itoa(year), "end", lastDay(period))
		}
		var opened *time.Time
		if err := tx.QueryRow(ctx, `SELECT min(opened_at) FROM audits WHERE year = $1`, year).Scan(&opened); err != nil {
			return Opened{}, ledger.PgErr(err, "read audits")
		}
		if opened != nil {
			return Opened{}, ReasonAlreadyOpen.New("year", strconv.Itoa(year), "date", opened.In(ledger.ChinaTime).Format(time.DateOnly))
		}
		agencies, err := s.audited(ctx, period)
		if err != nil {
			return Opened{}, err
		}
		position, err := ledger.LastEventID(ctx, tx)
		if err != nil {
			return Opened{}, err
		}
		superseded, err := dropPreview(ctx, tx, year)
		if err != nil {
			return Opened{}, err
		}
		cards, _, err := s.scorecards(ctx, tx, position, period, agencies)
		if err != nil {
			return Opened{}, fmt.Errorf("open the %d audits: %w", year, err)
		}
		out := Opened{Year: year, Position: position, Agencies: len(agencies)}
		var rows [][]any
		for _, a := range agencies {
			if _, err := tx.Exec(ctx, `INSERT INTO audits (agency_prefix, year, period_start, period_end, position, opened_at, opened_by)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, a, year, period.Start, period.End, position, now, actor.String()); err != nil {
				return Opened{}, ledger.PgErr(err, "open audit of "+a)
			}
			for _, in := range cards[a] {
				rows = append(rows, []any{a, year, in.Key, in.Value, in.Count, in.Base, in.Median, in.Spread, string(in.Mark)})
			}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"audit_indicators"},
			[]string{"agency_prefix", "year", "key", "value", "count", "base", "median", "spread", "mark"}, pgx.CopyFromRows(rows)); err != nil {
			return Opened{}, ledger.PgErr(err, "store the indicators")
		}
		for _, a := range agencies {
			for _, in := range cards[a] {
				if in.Mark != Red {
					continue
				}
				out.Red++
				evidence := fmt.Sprintf("%s = %s (count %d, base %d; national median %s, spread %s)", in.Key,
					strconv.FormatFloat(in.Value, 'g', 4, 64), in.Count, in.Base,
					strconv.FormatFloat(in.Median, 'g', 4, 64), strconv.FormatFloat(in.Spread, 'g', 4, 64))
				if _, err := s.insertFinding(ctx, tx, now, actor, FindingInput{AgencyPrefix: a, Year: year, Indicator: in.Key,
					Category: in.Family, Severity: SeverityHigh, Evidence: evidence}); err != nil {
					return Opened{}, err
				}
			}
		}
		err = ledger.Append(ctx, tx, now, actor, "audit_year", strconv.Itoa(year), OpenedPayload{Agencies: agencies,
			PeriodEnd: period.End.Format(time.RFC3339), PeriodStart: period.Start.Format(time.RFC3339), Position: position, Red: out.Red,
			SupersededPreview: superseded})
		return out, err
	})
}

// audited is the agencies a year's audit (or preview) covers: every one
// created before the period's end (one created after it has nothing to be
// audited for; its first stock goes through staff's first-year decision).
func (s *Service) audited(ctx context.Context, period Period) ([]string, error) {
	as, err := s.reg.ListAgencies(ctx)
	if err != nil {
		return nil, err
	}
	var agencies []string
	for _, a := range as {
		if a.Prefix != registry.AssociationPrefix && a.CreatedAt.Before(period.End) {
			agencies = append(agencies, a.Prefix)
		}
	}
	if len(agencies) == 0 {
		return nil, ReasonNoAgencies.New()
	}
	return agencies, nil
}

// lastDay is a period's last day (Beijing), YYYY-MM-DD.
func lastDay(p Period) string {
	return p.End.In(ledger.ChinaTime).AddDate(0, 0, -1).Format(time.DateOnly)
}

const auditColumns = `agency_prefix, year, period_start, period_end, position, opened_at, opened_by`

func scanAudit(r pgx.Row) (Audit, error) {
	var a Audit
	err := r.Scan(&a.AgencyPrefix, &a.Year, &a.Period.Start, &a.Period.End, &a.Position, &a.OpenedAt, &a.OpenedBy)
	return a, err
}

// audit reads one audit's row.
func (s *Service) audit(ctx context.Context, q ledger.Querier, agency string, year int) (Audit, error) {
	if err := checkYear(year); err != nil {
		return Audit{}, err
	}
	a, err := scanAudit(q.QueryRow(ctx, `SELECT `+auditColumns+` FROM audits WHERE agency_prefix = $1 AND year = $2`, agency, year))
	if errors.Is(err, pgx.ErrNoRows) {
		return Audit{}, notOpen(ctx, q, agency, year)
	}
	if err != nil {
		return Audit{}, ledger.RowErr(err, fmt.Sprintf("audit of %s for %d", agency, year),
			ReasonNotOpen.New("agency", agency, "year", strconv.Itoa(year)))
	}
	return a, nil
}

// Audit returns one agency's audit with its scorecard, findings and ruling,
// to staff and to that agency.
func (s *Service) Audit(ctx context.Context, actor ledger.Actor, agency string, year int) (Audit, error) {
	db := s.store.DB()
	if err := s.policy.Require(ctx, db, actor, access.ReadAudit, agency); err != nil {
		return Audit{}, err
	}
	a, err := s.audit(ctx, db, agency, year)
	if le, ok := ledger.AsError(err); ok && le.Reason == ReasonPreviewOnly {
		ps, err := s.previewOf(ctx, db, year, agency)
		if err != nil || len(ps) == 0 {
			return Audit{}, err
		}
		return ps[0], nil
	}
	if err != nil {
		return Audit{}, err
	}
	if a.Indicators, err = s.indicators(ctx, db, year, agency); err != nil {
		return Audit{}, err
	}
	if a.Findings, err = s.findings(ctx, db, agency, year); err != nil {
		return Audit{}, err
	}
	r, err := ruling(ctx, db, agency, year)
	switch {
	case err == nil:
		if r.Appeal, err = appealOf(ctx, db, agency, year); err != nil {
			return Audit{}, err
		}
		a.Ruling = &r
	case !errors.Is(err, pgx.ErrNoRows):
		return Audit{}, err
	}
	return a, nil
}

// ListAudits returns the audits of year with their scorecards: staff see
// every agency's, an agency its own. The scorecards are shared with the
// service's cache of frozen years: read them, do not write to them.
func (s *Service) ListAudits(ctx context.Context, actor ledger.Actor, year int) ([]Audit, error) {
	db := s.store.DB()
	if err := access.RequireSignedIn(actor, access.ReadAudit); err != nil {
		return nil, err
	}
	agency := ""
	if actor.Kind == ledger.AgencyActor {
		agency = actor.Agency
	}
	audits, err := s.frozenOf(ctx, db, year, agency)
	if err != nil {
		return nil, err
	}
	if len(audits) == 0 {
		return s.previewOf(ctx, db, year, agency) // a running year's preview, if any
	}
	rulings, err := rulingsOfYear(ctx, db, year)
	if err != nil {
		return nil, err
	}
	for i := range audits {
		if r, ok := rulings[audits[i].AgencyPrefix]; ok {
			audits[i].Ruling = &r
		}
	}
	return audits, nil
}

func (s *Service) indicators(ctx context.Context, q ledger.Querier, year int, agency string) ([]Indicator, error) {
	m, err := s.indicatorsOfYear(ctx, q, year, agency)
	return m[agency], err
}

// indicatorsOfYear reads the stored scorecards of year (one agency's when
// agency is set), in the order of the definitions.
func (s *Service) indicatorsOfYear(ctx context.Context, q ledger.Querier, year int, agency string) (map[string][]Indicator, error) {
	return s.indicatorRows(ctx, q, `SELECT agency_prefix, key, value, count, base, median, spread, mark FROM audit_indicators
		WHERE year = $1 AND ($2 = '' OR agency_prefix = $2)`, year, agency)
}

// indicatorRows reads stored scorecards (a year's or its preview's) by
// sql, in the order of the definitions.
func (s *Service) indicatorRows(ctx context.Context, q ledger.Querier, sql string, year int, agency string) (map[string][]Indicator, error) {
	rows, err := q.Query(ctx, sql, year, agency)
	if err != nil {
		return nil, fmt.Errorf("read indicators: %w", err)
	}
	order := map[string]int{}
	family := map[string]Family{}
	for i, d := range s.defs {
		order[d.Key], family[d.Key] = i, d.Family
	}
	out := map[string][]Indicator{}
	var (
		a  string
		in Indicator
	)
	_, err = pgx.ForEachRow(rows, []any{&a, &in.Key, &in.Value, &in.Count, &in.Base, &in.Median, &in.Spread, &in.Mark}, func() error {
		in.Family = family[in.Key]
		out[a] = append(out[a], in)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read indicators: %w", err)
	}
	for _, ins := range out {
		slices.SortFunc(ins, func(x, y Indicator) int { return order[x.Key] - order[y.Key] })
	}
	return out, nil
}

// Difference is one stored indicator that a recomputation does not reproduce.
type Difference struct {
	AgencyPrefix, Key  string
	Stored, Recomputed Indicator
}

// Verification is the outcome of recomputing a year's snapshots from their
// stored event-log position.
type Verification struct {
	Year        int
	Position    int64
	Indicators  int
	Differences []Difference
}

// VerifyYear recomputes every scorecard of year from the event-log position
// it was frozen at and compares it with what is stored (staff).
func (s *Service) VerifyYear(ctx context.Context, actor ledger.Actor, year int) (Verification, error) {
	db := s.store.DB()
	if err := s.policy.Require(ctx, db, actor, access.OpenAudit, registry.AssociationPrefix); err != nil {
		return Verification{}, err
	}
	if err := checkYear(year); err != nil {
		return Verification{}, err
	}
	rows, err := db.Query(ctx, `SELECT `+auditColumns+` FROM audits WHERE year = $1 ORDER BY agency_prefix`, year)
	if err != nil {
		return Verification{}, fmt.Errorf("read audits: %w", err)
	}
	audits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Audit, error) { return scanAudit(r) })
	if err != nil {
		return Verification{}, fmt.Errorf("read audits: %w", err)
	}
	if len(audits) == 0 {
		return Verification{}, ReasonNotOpen.New("agency", "*", "year", strconv.Itoa(year))
	}
	v := Verification{Year: year, Position: audits[0].Position}
	var agencies []string
	for _, a := range audits {
		agencies = append(agencies, a.AgencyPrefix)
	}
	cards, _, err := s.scorecards(ctx, db, v.Position, audits[0].Period, agencies)
	if err != nil {
		return Verification{}, err
	}
	stored, err := s.indicatorsOfYear(ctx, db, year, "")
	if err != nil {
		return Verification{}, err
	}
	for _, a := range agencies {
		got := map[string]Indicator{}
		for _, in := range cards[a] {
			got[in.Key] = in
		}
		for _, st := range stored[a] {
			if st.Key == KeyRankOutsideRating {
				// ratings are recomputed as events are rated and
				// corrected: this value is not the log position's to give back
				continue
			}
			v.Indicators++
			re := got[st.Key]
			if !same(st, re) {
				v.Differences = append(v.Differences, Difference{AgencyPrefix: a, Key: st.Key, Stored: st, Recomputed: re})
			}
		}
	}
	return v, nil
}

func same(a, b Indicator) bool {
	eq := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) }
	return a.Count == b.Count && a.Base == b.Base && a.Mark == b.Mark && eq(a.Value, b.Value) && eq(a.Median, b.Median) && eq(a.Spread, b.Spread)
}

// IndicatorItems lists what an indicator of an agency's audit counts,
// recomputed from the snapshot's event-log position (staff, and the agency
// for its own).
func (s *Service) IndicatorItems(ctx context.Context, actor ledger.Actor, agency string, year int, key string) ([]Item, error) {
	db := s.store.DB()
	if err := s.policy.Require(ctx, db, actor, access.ReadAudit, agency); err != nil {
		return nil, err
	}
	if !s.known(key) {
		return nil, ReasonUnknownIndicator.OnField("key", "key", key)
	}
	a, err := s.audit(ctx, db, agency, year)
	if le, ok := ledger.AsError(err); ok && le.Reason == ReasonPreviewOnly {
		// a preview's drill-down: from its own position and period to date
		ps, perr := s.previewOf(ctx, db, year, agency)
		if perr != nil {
			return nil, perr
		}
		if len(ps) == 1 {
			a, err = ps[0], nil
		}
	}
	if err != nil {
		return nil, err
	}
	f, err := gather(ctx, db, a.Position, a.Period, []string{agency}, func(ag, k string) bool { return ag == agency && k == key }, s.rating())
	if err != nil {
		return nil, err
	}
	items := slices.Clone(f.m(agency, key).items)
	slices.SortStableFunc(items, func(x, y Item) int {
		if x.EventID != y.EventID {
			return int(x.EventID - y.EventID)
		}
		if x.Ref < y.Ref {
			return -1
		}
		if x.Ref > y.Ref {
			return 1
		}
		return 0
	})
	return items, nil
}

// othersRate is the pooled rate of the other agencies (all counts over all
// bases but in's): an agency is compared with the rest of the country, so a
// large one does not pull the yardstick towards itself.
//
// When no other agency shows the pattern at all the rate is taken as half
// an item over the others' bases, not 0: a pattern unique to one agency is
// then judged by how far it lies above "less than one in the rest of the
// country" (with the indicator's MinCount as the gate), instead of never.
func othersRate(count, base int64, in Indicator) float64 {
	if base-in.Base <= 0 {
		return 0
	}
	others := float64(count - in.Count)
	if others <= 0 {
		others = 0.5
	}
	return others / float64(base-in.Base)
}
