package audit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Severity is how grave a finding is.
type Severity string

const (
	SeverityLow    Severity = "low"
	SeverityMedium Severity = "medium"
	SeverityHigh   Severity = "high"
)

// FindingStatus is where a finding stands.
type FindingStatus string

const (
	FindingOpen      FindingStatus = "open"
	FindingConfirmed FindingStatus = "confirmed"
	FindingDismissed FindingStatus = "dismissed"
)

// Finding is one matter of an audit: opened by a red mark or by staff,
// confirmed or dismissed by staff, answered by the agency.
type Finding struct {
	ID           int64
	AgencyPrefix string
	Year         int
	Indicator    string // the indicator whose red mark opened it; "" for staff's own
	Category     Family
	Severity     Severity
	Evidence     string
	Status       FindingStatus
	OpenedAt     time.Time
	OpenedBy     string
	DecidedAt    *time.Time
	DecidedBy    string
	DecisionNote string
	Reply        string
	RepliedAt    *time.Time
	RepliedBy    string
}

// FindingInput is a finding staff add.
type FindingInput struct {
	AgencyPrefix string
	Year         int
	Indicator    string
	Category     Family
	Severity     Severity
	Evidence     string
}

const maxText = 4000

const findingColumns = `id, agency_prefix, year, indicator, category, severity, evidence, status, opened_at, opened_by,
	decided_at, coalesce(decided_by, ''), decision_note, reply, replied_at, coalesce(replied_by, '')`

func scanFinding(r pgx.Row) (Finding, error) {
	var f Finding
	err := r.Scan(&f.ID, &f.AgencyPrefix, &f.Year, &f.Indicator, &f.Category, &f.Severity, &f.Evidence, &f.Status, &f.OpenedAt, &f.OpenedBy,
		&f.DecidedAt, &f.DecidedBy, &f.DecisionNote, &f.Reply, &f.RepliedAt, &f.RepliedBy)
	return f, err
}

func (s *Service) findings(ctx context.Context, q ledger.Querier, agency string, year int) ([]Finding, error) {
	rows, err := q.Query(ctx, `SELECT `+findingColumns+` FROM audit_findings WHERE agency_prefix = $1 AND year = $2 ORDER BY id`, agency, year)
	if err != nil {
		return nil, fmt.Errorf("read findings: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Finding, error) { return scanFinding(r) })
}

func (in FindingInput) check() (FindingInput, error) {
	if err := checkYear(in.Year); err != nil {
		return in, err
	}
	switch in.Category {
	case Overissue, Falsification, NoRecords, Inactivity, Procedure:
	default:
		return in, ReasonCategory.OnField("category", "category", string(in.Category))
	}
	switch in.Severity {
	case SeverityLow, SeverityMedium, SeverityHigh:
	default:
		return in, ReasonSeverity.OnField("severity", "severity", string(in.Severity))
	}
	var err error
	in.Evidence, err = ledger.Text("evidence", in.Evidence, maxText)
	return in, err
}

func (s *Service) insertFinding(ctx context.Context, tx *ledger.Tx, now time.Time, actor ledger.Actor, in FindingInput) (Finding, error) {
	f, err := scanFinding(tx.QueryRow(ctx, `INSERT INTO audit_findings (agency_prefix, year, indicator, category, severity, evidence, status, opened_at, opened_by)
		VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8) RETURNING `+findingColumns,
		in.AgencyPrefix, in.Year, in.Indicator, in.Category, in.Severity, in.Evidence, now, actor.String()))
	if err != nil {
		return Finding{}, ledger.PgErr(err, "add finding")
	}
	return f, ledger.Append(ctx, tx, now, actor, "audit_finding", strconv.FormatInt(f.ID, 10), FindingOpenedPayload{
		Agency: f.AgencyPrefix, Category: f.Category, Evidence: f.Evidence, Indicator: f.Indicator, Severity: f.Severity, Year: f.Year})
}

// AddFinding adds staff's own finding to an open audit.
func (s *Service) AddFinding(ctx context.Context, actor ledger.Actor, key string, in FindingInput) (Finding, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.RuleAudit, registry.AssociationPrefix); err != nil {
		return Finding{}, err
	}
	in, err := in.check()
	if err != nil {
		return Finding{}, err
	}
	if in.Indicator != "" && !s.known(in.Indicator) {
		return Finding{}, ReasonUnknownIndicator.OnField("indicator", "key", in.Indicator)
	}
	return ledger.Mutate(ctx, s.store, actor, key, "AddAuditFinding", in, func(tx *ledger.Tx, now time.Time) (Finding, error) {
		if _, err := s.audit(ctx, tx, in.AgencyPrefix, in.Year); err != nil {
			return Finding{}, err
		}
		return s.insertFinding(ctx, tx, now, actor, in)
	})
}

func (s *Service) known(key string) bool {
	for _, d := range s.defs {
		if d.Key == key {
			return true
		}
	}
	return false
}

func (s *Service) lockFinding(ctx context.Context, tx *ledger.Tx, id int64) (Finding, error) {
	f, err := scanFinding(tx.QueryRow(ctx, `SELECT `+findingColumns+` FROM audit_findings WHERE id = $1 FOR UPDATE`, id))
	if err != nil {
		return Finding{}, ledger.RowErr(err, fmt.Sprintf("finding %d", id), ReasonNoFinding.New("id", strconv.FormatInt(id, 10)))
	}
	return f, nil
}

type decideRequest struct {
	ID      int64
	Confirm bool
	Note    string
}

// DecideFinding confirms or dismisses an open finding (staff).
func (s *Service) DecideFinding(ctx context.Context, actor ledger.Actor, key string, id int64, confirm bool, note string) (Finding, error) {
	if err := s.policy.Require(ctx, s.store.DB(), actor, access.RuleAudit, registry.AssociationPrefix); err != nil {
		return Finding{}, err
	}
	note, err := ledger.OptionalText("note", note, maxText)
	if err != nil {
		return Finding{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "DecideAuditFinding", decideRequest{id, confirm, note}, func(tx *ledger.Tx, now time.Time) (Finding, error) {
		f, err := s.lockFinding(ctx, tx, id)
		if err != nil {
			return Finding{}, err
		}
		if f.Status != FindingOpen {
			return Finding{}, ReasonFindingDecided.New("id", strconv.FormatInt(id, 10), "status", string(f.Status))
		}
		status := FindingDismissed
		if confirm {
			status = FindingConfirmed
		}
		f, err = scanFinding(tx.QueryRow(ctx, `UPDATE audit_findings SET status = $2, decided_at = $3, decided_by = $4, decision_note = $5
			WHERE id = $1 RETURNING `+findingColumns, id, status, now, actor.String(), note))
		if err != nil {
			return Finding{}, ledger.PgErr(err, "decide finding")
		}
		var p ledger.Payload = FindingDismissedPayload{Agency: f.AgencyPrefix, Note: note, Year: f.Year}
		if confirm {
			p = FindingConfirmedPayload{Agency: f.AgencyPrefix, Note: note, Year: f.Year}
		}
		return f, ledger.Append(ctx, tx, now, actor, "audit_finding", strconv.FormatInt(id, 10), p)
	})
}

type replyRequest struct {
	ID   int64
	Text string
}

// ReplyToFinding records the agency's answer to a finding of its own audit
// (a later answer replaces the earlier; the log keeps both). Staff may
// record an answer received on paper.
func (s *Service) ReplyToFinding(ctx context.Context, actor ledger.Actor, key string, id int64, text string) (Finding, error) {
	if err := access.RequireSignedIn(actor, access.ReplyFinding); err != nil {
		return Finding{}, err
	}
	text, err := ledger.Text("reply", text, maxText)
	if err != nil {
		return Finding{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "ReplyToAuditFinding", replyRequest{id, text}, func(tx *ledger.Tx, now time.Time) (Finding, error) {
		f, err := s.lockFinding(ctx, tx, id)
		if err != nil {
			return Finding{}, err
		}
		if err := s.policy.Require(ctx, tx, actor, access.ReplyFinding, f.AgencyPrefix); err != nil {
			return Finding{}, err
		}
		f, err = scanFinding(tx.QueryRow(ctx, `UPDATE audit_findings SET reply = $2, replied_at = $3, replied_by = $4
			WHERE id = $1 RETURNING `+findingColumns, id, text, now, actor.String()))
		if err != nil {
			return Finding{}, ledger.PgErr(err, "reply to finding")
		}
		return f, ledger.Append(ctx, tx, now, actor, "audit_finding", strconv.FormatInt(id, 10),
			FindingRepliedPayload{Agency: f.AgencyPrefix, Reply: text, Year: f.Year})
	})
}
