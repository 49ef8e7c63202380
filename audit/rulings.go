package audit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Outcome is an audit's ruling.
type Outcome string

const (
	Pass        Outcome = "pass"
	Conditional Outcome = "conditional" // pass with conditions
	Fail        Outcome = "fail"
)

// Ruling is staff's conclusion on an agency's audit. A conditional pass
// may cap next year's stock (DanCap, KyuCap; nil: no cap), put the agency
// under supervision (监管) until a date and name measures, e.g. staff
// approval of all its 4–5 dan for the period.
type Ruling struct {
	AgencyPrefix     string
	Year             int
	Outcome          Outcome
	DanCap, KyuCap   *int
	SupervisionUntil *time.Time
	Measures         string
	// StaffApprovesHighDan: during the supervision period the agency's
	// 4–5 dan applications are approved by the association, not by itself.
	StaffApprovesHighDan bool
	Note                 string
	RuledAt              time.Time
	RuledBy              string
	// ReplyUntil ends the reply period: until then the agency may appeal.
	ReplyUntil time.Time
	// Appeal is the agency's appeal (复议) of the ruling, if it made one
	// (read with an audit, a year's list and a publication).
	Appeal *Appeal
}

// Final says whether the ruling is final at now: its appeal decided, or
// its reply period over without an appeal.
func (r Ruling) Final(now time.Time) bool {
	if r.Appeal != nil {
		return r.Appeal.Status != AppealPending
	}
	return !now.Before(r.ReplyUntil)
}

// RulingInput is a ruling staff make, once per audit: it changes only by
// the decision of the agency's appeal (DecideAppeal).
type RulingInput struct {
	AgencyPrefix     string
	Year             int
	Outcome          Outcome
	DanCap, KyuCap   *int
	SupervisionUntil *time.Time // a date (Beijing)
	Measures         string
	// StaffApprovesHighDan needs a supervision period.
	StaffApprovesHighDan bool
	Note                 string
}

const rulingColumns = `agency_prefix, year, outcome, dan_cap, kyu_cap, supervision_until, measures, note, ruled_at, ruled_by, staff_approves_high_dan, reply_until`

func scanRuling(r pgx.Row) (Ruling, error) {
	var x Ruling
	err := r.Scan(&x.AgencyPrefix, &x.Year, &x.Outcome, &x.DanCap, &x.KyuCap, &x.SupervisionUntil, &x.Measures, &x.Note, &x.RuledAt, &x.RuledBy,
		&x.StaffApprovesHighDan, &x.ReplyUntil)
	return x, err
}

func ruling(ctx context.Context, q ledger.Querier, agency string, year int) (Ruling, error) {
	return scanRuling(q.QueryRow(ctx, `SELECT `+rulingColumns+` FROM audit_rulings WHERE agency_prefix = $1 AND year = $2`, agency, year))
}

func rulingsOfYear(ctx context.Context, q ledger.Querier, year int) (map[string]Ruling, error) {
	rows, err := q.Query(ctx, `SELECT `+rulingColumns+` FROM audit_rulings WHERE year = $1`, year)
	if err != nil {
		return nil, fmt.Errorf("read rulings: %w", err)
	}
	rs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Ruling, error) { return scanRuling(r) })
	if err != nil {
		return nil, fmt.Errorf("read rulings: %w", err)
	}
	appeals, err := appealsOfYear(ctx, q, year)
	if err != nil {
		return nil, err
	}
	out := map[string]Ruling{}
	for _, r := range rs {
		if a, ok := appeals[r.AgencyPrefix]; ok {
			r.Appeal = &a
		}
		out[r.AgencyPrefix] = r
	}
	return out, nil
}

func (in RulingInput) check(now time.Time) (RulingInput, error) {
	if err := checkYear(in.Year); err != nil {
		return in, err
	}
	var err error
	if in.Measures, err = ledger.OptionalText("measures", in.Measures, maxText); err != nil {
		return in, err
	}
	if in.Note, err = ledger.OptionalText("note", in.Note, maxText); err != nil {
		return in, err
	}
	if in.StaffApprovesHighDan && in.SupervisionUntil == nil {
		return in, ReasonSupervisionNeeded.OnField("supervision_until")
	}
	conditions := in.DanCap != nil || in.KyuCap != nil || in.SupervisionUntil != nil || in.Measures != ""
	switch in.Outcome {
	case Pass, Fail:
		if conditions {
			return in, ReasonConditionsOnPlain.OnField("outcome")
		}
	case Conditional:
		if !conditions {
			return in, ReasonConditionsMissing.OnField("dan_cap")
		}
	default:
		return in, ReasonOutcome.OnField("outcome", "outcome", string(in.Outcome))
	}
	for _, c := range []struct {
		field string
		v     *int
	}{{"dan_cap", in.DanCap}, {"kyu_cap", in.KyuCap}} {
		if c.v != nil && (*c.v < 0 || *c.v > 99999) {
			return in, ledger.ReasonOutOfRange.OnField(c.field, "min", "0", "max", "99999")
		}
	}
	if in.SupervisionUntil != nil {
		y, m, d := in.SupervisionUntil.Date()
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		in.SupervisionUntil = &day
		if day.Before(dateOf(now)) {
			return in, ReasonSupervisionPast.OnField("supervision_until", "date", day.Format(time.DateOnly))
		}
	}
	return in, nil
}

// Rule records staff's ruling on an agency's audit, once: a second is
// refused (AUDIT_ALREADY_RULED); the ruling changes only by the decision of
// the agency's appeal. A pass (with or without conditions) needs every
// finding confirmed or dismissed first. The ruling opens the reply period
// (Config.ReplyDays), after which it is final.
func (s *Service) Rule(ctx context.Context, actor ledger.Actor, key string, in RulingInput) (Ruling, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.RuleAudit, registry.AssociationPrefix); err != nil {
		return Ruling{}, err
	}
	in, err := in.check(s.store.Now())
	if err != nil {
		return Ruling{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "RuleAudit", in, func(tx *ledger.Tx, now time.Time) (Ruling, error) {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM audits WHERE agency_prefix = $1 AND year = $2 FOR UPDATE`, in.AgencyPrefix, in.Year); err != nil {
			return Ruling{}, ledger.PgErr(err, "lock audit")
		}
		if _, err := s.audit(ctx, tx, in.AgencyPrefix, in.Year); err != nil {
			return Ruling{}, err
		}
		switch old, err := ruling(ctx, tx, in.AgencyPrefix, in.Year); {
		case err == nil:
			return Ruling{}, ReasonAlreadyRuled.With(ledger.Value("agency", in.AgencyPrefix), ledger.Value("year", strconv.Itoa(in.Year)),
				outcomeWords("outcome", old.Outcome), ledger.Value("date", old.RuledAt.In(ledger.ChinaTime).Format(time.DateOnly)))
		case !errors.Is(err, pgx.ErrNoRows):
			return Ruling{}, fmt.Errorf("read ruling: %w", err)
		}
		if err := noOpenFindings(ctx, tx, in); err != nil {
			return Ruling{}, err
		}
		replyUntil := now.AddDate(0, 0, s.cfg.ReplyDays)
		r, err := scanRuling(tx.QueryRow(ctx, `INSERT INTO audit_rulings (agency_prefix, year, outcome, dan_cap, kyu_cap, supervision_until, measures, note, ruled_at, ruled_by, staff_approves_high_dan, reply_until)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			RETURNING `+rulingColumns,
			in.AgencyPrefix, in.Year, in.Outcome, in.DanCap, in.KyuCap, in.SupervisionUntil, in.Measures, in.Note, now, actor.String(), in.StaffApprovesHighDan,
			replyUntil))
		if err != nil {
			return Ruling{}, ledger.PgErr(err, "record ruling")
		}
		payload := RuledPayload{DanCap: r.DanCap, KyuCap: r.KyuCap, Measures: r.Measures, Note: r.Note, Outcome: r.Outcome,
			ReplyUntil: r.ReplyUntil.Format(time.RFC3339), StaffApprovesHighDan: r.StaffApprovesHighDan}
		if r.SupervisionUntil != nil {
			payload.SupervisionUntil = r.SupervisionUntil.Format(time.DateOnly)
		}
		err = ledger.Append(ctx, tx, now, actor, "audit", fmt.Sprintf("%s/%d", r.AgencyPrefix, r.Year), payload)
		return r, err
	})
}

// Bootstrap is staff's logged decision to let an agency's stock of a year
// be granted without a passed audit of the year before: its first year.
type Bootstrap struct {
	AgencyPrefix string
	StockYear    int
	Note         string
	DecidedAt    time.Time
	DecidedBy    string
}

// BootstrapInput is that decision as staff make it.
type BootstrapInput struct {
	AgencyPrefix string
	StockYear    int
	Note         string
}

// Bootstrap records that agency's stock of StockYear may be granted without
// an audit of the year before (staff; logged, once per agency and year).
func (s *Service) Bootstrap(ctx context.Context, actor ledger.Actor, key string, in BootstrapInput) (Bootstrap, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.RuleAudit, registry.AssociationPrefix); err != nil {
		return Bootstrap{}, err
	}
	if err := checkYear(in.StockYear); err != nil {
		return Bootstrap{}, err
	}
	note, err := ledger.Text("note", in.Note, maxText)
	if err != nil {
		return Bootstrap{}, err
	}
	in.Note = note
	return ledger.Mutate(ctx, s.store, actor, key, "BootstrapAudit", in, func(tx *ledger.Tx, now time.Time) (Bootstrap, error) {
		b := Bootstrap{AgencyPrefix: in.AgencyPrefix, StockYear: in.StockYear, Note: in.Note, DecidedAt: now, DecidedBy: actor.String()}
		tag, err := tx.Exec(ctx, `INSERT INTO audit_bootstraps (agency_prefix, stock_year, note, decided_at, decided_by)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, b.AgencyPrefix, b.StockYear, b.Note, now, b.DecidedBy)
		if err != nil {
			return Bootstrap{}, ledger.PgErr(err, "record first-year decision")
		}
		if tag.RowsAffected() == 0 {
			return Bootstrap{}, ReasonBootstrapExists.New("agency", b.AgencyPrefix, "stock", strconv.Itoa(b.StockYear))
		}
		return b, ledger.Append(ctx, tx, now, actor, "audit", fmt.Sprintf("%s/%d", b.AgencyPrefix, b.StockYear-1),
			BootstrappedPayload{Note: b.Note, StockYear: b.StockYear})
	})
}

// MayGrant is the certs.GrantGate: the year's stock of an agency is granted
// only after it passed the audit of the year before (or staff bootstrapped
// that year), and no more than a conditional pass caps it at (a grant above
// the cap is refused, not clamped: staff lower it and grant again). It
// reads the ruling in force, final or still in its reply period: an
// appeal's decision can only keep or ease a ruling (AUDIT_APPEAL_WORSE), so
// the ruling in force is the strictest the agency will be held to, and a
// pass need not wait out the reply period for its December stock; a fail
// under appeal keeps the stock back until the appeal changes it.
func (s *Service) MayGrant(ctx context.Context, tx *ledger.Tx, agency string, year, dan, kyu int) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM audit_bootstraps WHERE agency_prefix = $1 AND stock_year = $2`, agency, year).Scan(&one)
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("read first-year decision: %w", err)
	}
	audited := year - 1
	params := func(state ledger.Param) *ledger.Error {
		return ReasonNotPassed.With(ledger.Value("agency", agency), ledger.Value("year", strconv.Itoa(audited)),
			ledger.Value("stock", strconv.Itoa(year)), state)
	}
	r, err := ruling(ctx, tx, agency, audited)
	if errors.Is(err, pgx.ErrNoRows) {
		if _, err := s.audit(ctx, tx, agency, audited); err != nil {
			if _, ok := ledger.AsError(err); ok {
				return params(ledger.Words("state", "年审尚未开启", "the audit has not been opened"))
			}
			return err
		}
		return params(ledger.Words("state", "尚无年审结论", "no ruling yet"))
	}
	if err != nil {
		return fmt.Errorf("read ruling: %w", err)
	}
	switch r.Outcome {
	case Fail:
		return params(ledger.Words("state", "年审不通过", "the audit failed"))
	case Conditional:
		capOf := func(c *int) (int, string) {
			if c == nil {
				return -1, "—"
			}
			return *c, strconv.Itoa(*c)
		}
		dc, dcs := capOf(r.DanCap)
		kc, kcs := capOf(r.KyuCap)
		if (dc >= 0 && dan > dc) || (kc >= 0 && kyu > kc) {
			return ReasonAboveCap.New("agency", agency, "year", strconv.Itoa(audited), "stock", strconv.Itoa(year),
				"dan_cap", dcs, "kyu_cap", kcs, "dan", strconv.Itoa(dan), "kyu", strconv.Itoa(kyu))
		}
	}
	return nil
}

// Supervision returns the ruling that has an agency under supervision on
// day (its newest with a supervision period not yet ended), if any.
func (s *Service) Supervision(ctx context.Context, agency string, day time.Time) (*Ruling, error) {
	r, err := scanRuling(s.store.DB().QueryRow(ctx, `SELECT `+rulingColumns+` FROM audit_rulings
		WHERE agency_prefix = $1 AND supervision_until >= $2 ORDER BY year DESC LIMIT 1`, agency, dateOf(day)))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("supervision of %s: %w", agency, err)
	}
	return &r, nil
}

// MayApprove is the certificates' approval gate: an agency whose audit put
// its 4–5 dan under the association's approval for a supervision period
// cannot approve them itself until the period ends (staff still can). It
// reads in the approving transaction, at its time.
func (s *Service) MayApprove(ctx context.Context, tx *ledger.Tx, agency string, rank int, at time.Time) error {
	if rank < 4 || rank > 5 {
		return nil
	}
	var until time.Time
	err := tx.QueryRow(ctx, `SELECT supervision_until FROM audit_rulings
		WHERE agency_prefix = $1 AND staff_approves_high_dan AND supervision_until >= $2 ORDER BY supervision_until DESC LIMIT 1`,
		agency, dateOf(at)).Scan(&until)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("supervision of %s: %w", agency, err)
	}
	return ReasonSupervised.New("agency", agency, "until", until.Format(time.DateOnly))
}

// ParseSupervisionUntil reads a supervision period's last day, YYYY-MM-DD
// ("" for none), for the transports.
func ParseSupervisionUntil(s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return nil, ReasonSupervisionDate.OnField("supervision_until", "value", s)
	}
	return &d, nil
}
