package audit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// The audit year's lifecycle: a running year is only previewed; after its
// end staff open it (findings), rule once per agency; the agency may appeal
// (复议) within the reply period; staff decide the appeal; once the rulings
// are final staff publish the year (通报) on the public agencies page.

// AppealStatus is where an appeal stands.
type AppealStatus string

const (
	AppealPending AppealStatus = "pending"
	AppealUpheld  AppealStatus = "upheld"  // the ruling stands
	AppealChanged AppealStatus = "changed" // the ruling was changed (never made stricter)
)

// Now is the service's clock, e.g. to say whether a ruling is final.
func (s *Service) Now() time.Time { return s.store.Now() }

// maxAppealReason bounds an appeal's reason, in characters.
const maxAppealReason = 2000

// Appeal is an agency's appeal of its ruling and staff's decision on it.
type Appeal struct {
	AgencyPrefix string
	Year         int
	Reason       string
	FiledAt      time.Time
	FiledBy      string
	Status       AppealStatus
	DecidedAt    *time.Time
	DecidedBy    string
	DecisionNote string
}

const appealColumns = `agency_prefix, year, reason, filed_at, filed_by, status, decided_at, coalesce(decided_by, ''), decision_note`

func scanAppeal(r pgx.Row) (Appeal, error) {
	var a Appeal
	err := r.Scan(&a.AgencyPrefix, &a.Year, &a.Reason, &a.FiledAt, &a.FiledBy, &a.Status, &a.DecidedAt, &a.DecidedBy, &a.DecisionNote)
	return a, err
}

// appealOf is the appeal of an agency's ruling, nil if none.
func appealOf(ctx context.Context, q ledger.Querier, agency string, year int) (*Appeal, error) {
	a, err := scanAppeal(q.QueryRow(ctx, `SELECT `+appealColumns+` FROM audit_appeals WHERE agency_prefix = $1 AND year = $2`, agency, year))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read appeal: %w", err)
	}
	return &a, nil
}

func appealsOfYear(ctx context.Context, q ledger.Querier, year int) (map[string]Appeal, error) {
	rows, err := q.Query(ctx, `SELECT `+appealColumns+` FROM audit_appeals WHERE year = $1`, year)
	if err != nil {
		return nil, fmt.Errorf("read appeals: %w", err)
	}
	as, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Appeal, error) { return scanAppeal(r) })
	if err != nil {
		return nil, fmt.Errorf("read appeals: %w", err)
	}
	out := make(map[string]Appeal, len(as))
	for _, a := range as {
		out[a.AgencyPrefix] = a
	}
	return out, nil
}

// notOpen is the refusal for an audit that is not open: only a preview
// (AUDIT_PREVIEW_ONLY) or nothing (AUDIT_NOT_OPEN).
func notOpen(ctx context.Context, q ledger.Querier, agency string, year int) error {
	var one int
	err := q.QueryRow(ctx, `SELECT 1 FROM audit_previews WHERE year = $1 AND ($2 = '*' OR agency_prefix = $2) LIMIT 1`, year, agency).Scan(&one)
	switch {
	case err == nil:
		return ReasonPreviewOnly.New("agency", agency, "year", strconv.Itoa(year))
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("read previews: %w", err)
	}
	return ReasonNotOpen.New("agency", agency, "year", strconv.Itoa(year))
}

// Previewed is what previewing a running year did.
type Previewed struct {
	Year     int
	Position int64
	Agencies int
	Red      int // red marks (no findings opened)
	At       time.Time
}

// PreviewYear computes a running year's scorecards from its start to now,
// stored and shown labelled as a preview (预览) (staff). It opens no
// findings, no ruling can rest on it, and a later preview replaces it; the
// year's real opening, after its end, supersedes it. A year that has ended
// is opened, not previewed (AUDIT_YEAR_ENDED).
func (s *Service) PreviewYear(ctx context.Context, actor ledger.Actor, key string, year int) (Previewed, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.OpenAudit, registry.AssociationPrefix); err != nil {
		return Previewed{}, err
	}
	if err := checkYear(year); err != nil {
		return Previewed{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "PreviewAuditYear", year, func(tx *ledger.Tx, now time.Time) (Previewed, error) {
		full := s.cfg.Period(year)
		if !now.Before(full.End) {
			return Previewed{}, ReasonYearEnded.New("year", strconv.Itoa(year), "end", lastDay(full))
		}
		if !now.After(full.Start) {
			return Previewed{}, ReasonYear.OnField("year", "year", strconv.Itoa(year))
		}
		var opened *time.Time
		if err := tx.QueryRow(ctx, `SELECT min(opened_at) FROM audits WHERE year = $1`, year).Scan(&opened); err != nil {
			return Previewed{}, ledger.PgErr(err, "read audits")
		}
		if opened != nil {
			return Previewed{}, ReasonAlreadyOpen.New("year", strconv.Itoa(year), "date", opened.In(ledger.ChinaTime).Format(time.DateOnly))
		}
		// the year to date: the months still to come are not counted
		period := Period{Start: full.Start, End: now}
		agencies, err := s.audited(ctx, period)
		if err != nil {
			return Previewed{}, err
		}
		position, err := ledger.LastEventID(ctx, tx)
		if err != nil {
			return Previewed{}, err
		}
		if _, err := dropPreview(ctx, tx, year); err != nil {
			return Previewed{}, err
		}
		cards, _, err := s.scorecards(ctx, tx, position, period, agencies)
		if err != nil {
			return Previewed{}, fmt.Errorf("preview the %d audits: %w", year, err)
		}
		out := Previewed{Year: year, Position: position, Agencies: len(agencies), At: now}
		var rows [][]any
		for _, a := range agencies {
			if _, err := tx.Exec(ctx, `INSERT INTO audit_previews (agency_prefix, year, period_start, period_end, position, computed_at, computed_by)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, a, year, period.Start, period.End, position, now, actor.String()); err != nil {
				return Previewed{}, ledger.PgErr(err, "preview audit of "+a)
			}
			for _, in := range cards[a] {
				rows = append(rows, []any{a, year, in.Key, in.Value, in.Count, in.Base, in.Median, in.Spread, string(in.Mark)})
				if in.Mark == Red {
					out.Red++
				}
			}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"audit_preview_indicators"},
			[]string{"agency_prefix", "year", "key", "value", "count", "base", "median", "spread", "mark"}, pgx.CopyFromRows(rows)); err != nil {
			return Previewed{}, ledger.PgErr(err, "store the preview")
		}
		err = ledger.Append(ctx, tx, now, actor, "audit_year", strconv.Itoa(year), PreviewedPayload{Agencies: agencies,
			PeriodEnd: period.End.Format(time.RFC3339), PeriodStart: period.Start.Format(time.RFC3339), Position: position, Red: out.Red})
		return out, err
	})
}

// dropPreview removes a year's preview (replaced or superseded), returning
// its position (0: there was none).
func dropPreview(ctx context.Context, tx *ledger.Tx, year int) (int64, error) {
	var pos *int64
	if err := tx.QueryRow(ctx, `SELECT max(position) FROM audit_previews WHERE year = $1`, year).Scan(&pos); err != nil {
		return 0, ledger.PgErr(err, "read the preview")
	}
	if pos == nil {
		return 0, nil
	}
	if _, err := tx.Exec(ctx, `DELETE FROM audit_previews WHERE year = $1`, year); err != nil {
		return 0, ledger.PgErr(err, "supersede the preview")
	}
	return *pos, nil
}

// previewOf is a running year's preview (one agency's when agency is
// set), labelled Preview; nil when there is none.
func (s *Service) previewOf(ctx context.Context, q ledger.Querier, year int, agency string) ([]Audit, error) {
	rows, err := q.Query(ctx, `SELECT agency_prefix, year, period_start, period_end, position, computed_at, computed_by FROM audit_previews
		WHERE year = $1 AND ($2 = '' OR agency_prefix = $2) ORDER BY agency_prefix`, year, agency)
	if err != nil {
		return nil, fmt.Errorf("read previews: %w", err)
	}
	audits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Audit, error) { return scanAudit(r) })
	if err != nil || len(audits) == 0 {
		return nil, err
	}
	ins, err := s.indicatorRows(ctx, q, `SELECT agency_prefix, key, value, count, base, median, spread, mark FROM audit_preview_indicators
		WHERE year = $1 AND ($2 = '' OR agency_prefix = $2)`, year, agency)
	if err != nil {
		return nil, err
	}
	for i := range audits {
		audits[i].Preview = true
		audits[i].Indicators = ins[audits[i].AgencyPrefix]
	}
	return audits, nil
}

// outcomeWords is an outcome in both languages, as a refusal's parameter.
func outcomeWords(name string, o Outcome) ledger.Param {
	switch o {
	case Pass:
		return ledger.Words(name, "通过", "pass")
	case Conditional:
		return ledger.Words(name, "有条件通过", "conditional pass")
	case Fail:
		return ledger.Words(name, "不通过", "fail")
	}
	return ledger.Value(name, string(o))
}

// noOpenFindings refuses a pass (with or without conditions) while a
// finding of the audit is open.
func noOpenFindings(ctx context.Context, tx *ledger.Tx, in RulingInput) error {
	if in.Outcome == Fail {
		return nil
	}
	var open int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM audit_findings WHERE agency_prefix = $1 AND year = $2 AND status = 'open'`,
		in.AgencyPrefix, in.Year).Scan(&open); err != nil {
		return ledger.PgErr(err, "count open findings")
	}
	if open > 0 {
		return ReasonOpenFindings.New("agency", in.AgencyPrefix, "year", strconv.Itoa(in.Year), "open", strconv.Itoa(open))
	}
	return nil
}

// AppealInput is an agency's appeal of its ruling.
type AppealInput struct {
	AgencyPrefix string
	Year         int
	Reason       string // required, at most 2000 characters
}

// Appeal records an agency's appeal (复议) of the ruling on its own audit,
// within the reply period (the agency, even suspended, or staff for it);
// once per ruling. The ruling is not final until the appeal is decided.
func (s *Service) Appeal(ctx context.Context, actor ledger.Actor, key string, in AppealInput) (Appeal, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.AppealAudit, in.AgencyPrefix); err != nil {
		return Appeal{}, err
	}
	if err := checkYear(in.Year); err != nil {
		return Appeal{}, err
	}
	reason, err := ledger.Text("reason", in.Reason, maxAppealReason)
	if err != nil {
		return Appeal{}, err
	}
	in.Reason = reason
	return ledger.Mutate(ctx, s.store, actor, key, "AppealAudit", in, func(tx *ledger.Tx, now time.Time) (Appeal, error) {
		r, err := s.lockedRuling(ctx, tx, in.AgencyPrefix, in.Year)
		if err != nil {
			return Appeal{}, err
		}
		if old, err := appealOf(ctx, tx, in.AgencyPrefix, in.Year); err != nil {
			return Appeal{}, err
		} else if old != nil {
			return Appeal{}, ReasonAppealExists.New("agency", in.AgencyPrefix, "year", strconv.Itoa(in.Year),
				"date", old.FiledAt.In(ledger.ChinaTime).Format(time.DateOnly))
		}
		if !now.Before(r.ReplyUntil) {
			return Appeal{}, ReasonAppealPeriodOver.New("agency", in.AgencyPrefix, "year", strconv.Itoa(in.Year),
				"until", r.ReplyUntil.In(ledger.ChinaTime).Format("2006-01-02 15:04"))
		}
		a, err := scanAppeal(tx.QueryRow(ctx, `INSERT INTO audit_appeals (agency_prefix, year, reason, filed_at, filed_by, status)
			VALUES ($1, $2, $3, $4, $5, 'pending') RETURNING `+appealColumns, in.AgencyPrefix, in.Year, in.Reason, now, actor.String()))
		if err != nil {
			return Appeal{}, ledger.PgErr(err, "record appeal")
		}
		return a, ledger.Append(ctx, tx, now, actor, "audit", fmt.Sprintf("%s/%d", in.AgencyPrefix, in.Year),
			AppealedPayload{Agency: in.AgencyPrefix, Reason: in.Reason, Year: in.Year})
	})
}

// lockedRuling locks and reads an audit's ruling: AUDIT_NOT_OPEN (or
// AUDIT_PREVIEW_ONLY) without an audit, AUDIT_NO_RULING without a ruling.
func (s *Service) lockedRuling(ctx context.Context, tx *ledger.Tx, agency string, year int) (Ruling, error) {
	if _, err := s.audit(ctx, tx, agency, year); err != nil {
		return Ruling{}, err
	}
	r, err := scanRuling(tx.QueryRow(ctx, `SELECT `+rulingColumns+` FROM audit_rulings WHERE agency_prefix = $1 AND year = $2 FOR UPDATE`, agency, year))
	if errors.Is(err, pgx.ErrNoRows) {
		return Ruling{}, ReasonNoRuling.New("agency", agency, "year", strconv.Itoa(year))
	}
	if err != nil {
		return Ruling{}, fmt.Errorf("read ruling: %w", err)
	}
	return r, nil
}

// AppealDecision is staff's decision on an appeal: uphold the ruling, or
// change it to Ruling (which may ease it, never make it stricter).
type AppealDecision struct {
	AgencyPrefix string
	Year         int
	Uphold       bool
	Note         string      // the decision's reasons, required
	Ruling       RulingInput // the changed ruling when not Uphold (its agency and year are the appeal's)
}

// DecideAppeal hears an agency's appeal (staff): the ruling is upheld or
// changed, and is then final. A change may not make the ruling stricter
// (AUDIT_APPEAL_WORSE): stock granted under the ruling in force stays
// within it.
func (s *Service) DecideAppeal(ctx context.Context, actor ledger.Actor, key string, in AppealDecision) (Ruling, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.DecideAppeal, registry.AssociationPrefix); err != nil {
		return Ruling{}, err
	}
	if err := checkYear(in.Year); err != nil {
		return Ruling{}, err
	}
	note, err := ledger.Text("note", in.Note, maxText)
	if err != nil {
		return Ruling{}, err
	}
	in.Note = note
	if in.Uphold {
		in.Ruling = RulingInput{}
	} else {
		in.Ruling.AgencyPrefix, in.Ruling.Year = in.AgencyPrefix, in.Year
		if in.Ruling, err = in.Ruling.check(s.store.Now()); err != nil {
			return Ruling{}, err
		}
	}
	return ledger.Mutate(ctx, s.store, actor, key, "DecideAuditAppeal", in, func(tx *ledger.Tx, now time.Time) (Ruling, error) {
		old, err := s.lockedRuling(ctx, tx, in.AgencyPrefix, in.Year)
		if err != nil {
			return Ruling{}, err
		}
		ap, err := appealOf(ctx, tx, in.AgencyPrefix, in.Year)
		if err != nil {
			return Ruling{}, err
		}
		if ap == nil {
			return Ruling{}, ReasonNoAppeal.New("agency", in.AgencyPrefix, "year", strconv.Itoa(in.Year))
		}
		if ap.Status != AppealPending {
			return Ruling{}, ReasonAppealDecided.New("agency", in.AgencyPrefix, "year", strconv.Itoa(in.Year),
				"date", ap.DecidedAt.In(ledger.ChinaTime).Format(time.DateOnly))
		}
		r, status := old, AppealUpheld
		if !in.Uphold {
			status = AppealChanged
			if err := stricter(old, in.Ruling); err != nil {
				return Ruling{}, err
			}
			if err := noOpenFindings(ctx, tx, in.Ruling); err != nil {
				return Ruling{}, err
			}
			x := in.Ruling
			r, err = scanRuling(tx.QueryRow(ctx, `UPDATE audit_rulings SET outcome = $3, dan_cap = $4, kyu_cap = $5, supervision_until = $6,
				measures = $7, note = $8, ruled_at = $9, ruled_by = $10, staff_approves_high_dan = $11
				WHERE agency_prefix = $1 AND year = $2 RETURNING `+rulingColumns,
				x.AgencyPrefix, x.Year, x.Outcome, x.DanCap, x.KyuCap, x.SupervisionUntil, x.Measures, x.Note, now, actor.String(), x.StaffApprovesHighDan))
			if err != nil {
				return Ruling{}, ledger.PgErr(err, "change ruling")
			}
		}
		decided, err := scanAppeal(tx.QueryRow(ctx, `UPDATE audit_appeals SET status = $3, decided_at = $4, decided_by = $5, decision_note = $6
			WHERE agency_prefix = $1 AND year = $2 RETURNING `+appealColumns, in.AgencyPrefix, in.Year, status, now, actor.String(), in.Note))
		if err != nil {
			return Ruling{}, ledger.PgErr(err, "decide appeal")
		}
		r.Appeal = &decided
		p := AppealDecidedPayload{Agency: r.AgencyPrefix, DanCap: r.DanCap, KyuCap: r.KyuCap, Measures: r.Measures, Note: in.Note,
			Outcome: r.Outcome, StaffApprovesHighDan: r.StaffApprovesHighDan, Status: status, Year: r.Year}
		if r.SupervisionUntil != nil {
			p.SupervisionUntil = r.SupervisionUntil.Format(time.DateOnly)
		}
		return r, ledger.Append(ctx, tx, now, actor, "audit", fmt.Sprintf("%s/%d", r.AgencyPrefix, r.Year), p)
	})
}

// stricter refuses a changed ruling that holds the agency to more than
// old: a worse outcome, a lower cap, a longer supervision, or staff's
// approval of 4–5 dan added. (Measures are words and are not compared.)
func stricter(old Ruling, in RulingInput) error {
	rank := map[Outcome]int{Fail: 0, Conditional: 1, Pass: 2}
	worse := func(zh, en string) error {
		e := ReasonAppealWorse.With(ledger.Words("what", zh, en))
		e.Field = "outcome"
		return e
	}
	switch {
	case rank[in.Outcome] < rank[old.Outcome]:
		return worse("结论由“"+outcomeZH[old.Outcome]+"”改为“"+outcomeZH[in.Outcome]+"”", "from "+string(old.Outcome)+" to "+string(in.Outcome))
	case in.Outcome != Conditional || old.Outcome != Conditional:
		return nil
	}
	lower := func(o, n *int) bool { return n != nil && (o == nil || *n < *o) }
	switch {
	case lower(old.DanCap, in.DanCap) || lower(old.KyuCap, in.KyuCap):
		return worse("降低证书数量上限", "a lower stock cap")
	case in.SupervisionUntil != nil && (old.SupervisionUntil == nil || in.SupervisionUntil.After(*old.SupervisionUntil)):
		return worse("延长监管期限", "a longer supervision")
	case in.StaffApprovesHighDan && !old.StaffApprovesHighDan:
		return worse("增加由协会审批 4–5 段", "staff approval of 4–5 dan added")
	}
	return nil
}

var outcomeZH = map[Outcome]string{Pass: "通过", Conditional: "有条件通过", Fail: "不通过"}

// PublishInput is staff's closing and publication (通报) of a year.
type PublishInput struct {
	Year int
	Note string
	// Early publishes although some rulings are not final yet (their reply
	// period or appeal pending); the note then says why, and is required.
	Early bool
}

// Publication is a published year: every audited agency's outcome.
type Publication struct {
	Year        int
	Note        string
	Early       bool
	PublishedAt time.Time
	PublishedBy string
	// Rulings, by agency prefix, as they stand now (an appeal decided
	// after an early publication shows its decision), with their appeals.
	Rulings []Ruling
}

// PublishYear closes a year and publishes its outcomes (staff): every
// audited agency has a ruling (AUDIT_RULINGS_MISSING), and every ruling is
// final (AUDIT_RULINGS_NOT_FINAL) unless staff publish early with a note.
// Once; the public agencies page and GetPublication show it.
func (s *Service) PublishYear(ctx context.Context, actor ledger.Actor, key string, in PublishInput) (Publication, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.PublishAudit, registry.AssociationPrefix); err != nil {
		return Publication{}, err
	}
	if err := checkYear(in.Year); err != nil {
		return Publication{}, err
	}
	var err error
	if in.Early {
		in.Note, err = ledger.Text("note", in.Note, maxText)
	} else {
		in.Note, err = ledger.OptionalText("note", in.Note, maxText)
	}
	if err != nil {
		return Publication{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "PublishAuditYear", in, func(tx *ledger.Tx, now time.Time) (Publication, error) {
		year := strconv.Itoa(in.Year)
		var at *time.Time
		if err := tx.QueryRow(ctx, `SELECT published_at FROM audit_publications WHERE year = $1 FOR UPDATE`, in.Year).Scan(&at); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return Publication{}, ledger.PgErr(err, "read publication")
		}
		if at != nil {
			return Publication{}, ReasonAlreadyPublished.New("year", year, "date", at.In(ledger.ChinaTime).Format(time.DateOnly))
		}
		rows, err := tx.Query(ctx, `SELECT agency_prefix FROM audits WHERE year = $1 ORDER BY agency_prefix`, in.Year)
		if err != nil {
			return Publication{}, ledger.PgErr(err, "read audits")
		}
		agencies, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return Publication{}, ledger.PgErr(err, "read audits")
		}
		if len(agencies) == 0 {
			return Publication{}, notOpen(ctx, tx, "*", in.Year)
		}
		rulings, err := rulingsOfYear(ctx, tx, in.Year)
		if err != nil {
			return Publication{}, err
		}
		var missing, pending []string
		outcomes := map[string]Outcome{}
		for _, a := range agencies {
			r, ok := rulings[a]
			switch {
			case !ok:
				missing = append(missing, a)
			case !r.Final(now):
				pending = append(pending, a)
			}
			outcomes[a] = r.Outcome
		}
		if len(missing) > 0 {
			return Publication{}, ReasonRulingsMissing.New("year", year, "count", strconv.Itoa(len(missing)), "agencies", strings.Join(missing, ", "))
		}
		if len(pending) > 0 && !in.Early {
			return Publication{}, ReasonRulingsNotFinal.OnField("early", "year", year, "count", strconv.Itoa(len(pending)), "agencies", strings.Join(pending, ", "))
		}
		early := len(pending) > 0
		if _, err := tx.Exec(ctx, `INSERT INTO audit_publications (year, note, early, published_at, published_by) VALUES ($1, $2, $3, $4, $5)`,
			in.Year, in.Note, early, now, actor.String()); err != nil {
			return Publication{}, ledger.PgErr(err, "publish")
		}
		if err := ledger.Append(ctx, tx, now, actor, "audit_year", year, YearPublishedPayload{Early: early, Note: in.Note, Outcomes: outcomes, Year: in.Year}); err != nil {
			return Publication{}, err
		}
		return publication(ctx, tx, in.Year)
	})
}

// publication reads a published year with its rulings.
func publication(ctx context.Context, q ledger.Querier, year int) (Publication, error) {
	p := Publication{Year: year}
	err := q.QueryRow(ctx, `SELECT note, early, published_at, published_by FROM audit_publications WHERE year = $1`, year).
		Scan(&p.Note, &p.Early, &p.PublishedAt, &p.PublishedBy)
	if errors.Is(err, pgx.ErrNoRows) {
		return Publication{}, ReasonNotPublished.New("year", strconv.Itoa(year))
	}
	if err != nil {
		return Publication{}, fmt.Errorf("read publication: %w", err)
	}
	rs, err := rulingsOfYear(ctx, q, year)
	if err != nil {
		return Publication{}, err
	}
	for _, r := range rs {
		p.Rulings = append(p.Rulings, r)
	}
	slices.SortFunc(p.Rulings, func(a, b Ruling) int { return strings.Compare(a.AgencyPrefix, b.AgencyPrefix) })
	return p, nil
}

// Publication returns a published year (year 0: the latest published),
// to anyone: the 通报 is public. AUDIT_NOT_PUBLISHED when there is none.
func (s *Service) Publication(ctx context.Context, year int) (Publication, error) {
	db := s.store.DB()
	if year == 0 {
		var latest *int
		if err := db.QueryRow(ctx, `SELECT max(year) FROM audit_publications`).Scan(&latest); err != nil {
			return Publication{}, fmt.Errorf("read publications: %w", err)
		}
		if latest == nil {
			return Publication{}, ReasonNotPublished.New("year", "—")
		}
		year = *latest
	} else if err := checkYear(year); err != nil {
		return Publication{}, err
	}
	return publication(ctx, db, year)
}
