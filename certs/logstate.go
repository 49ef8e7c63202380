package certs

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// A certificate's public state is the content of its logged events
// (StateActions): issued or recorded from paper, then perhaps revoked or
// reissued. The certificates table is only a copy kept for reading; the
// public verification answers a row that disagrees with its events as under
// review, never as valid, so a row changed behind the services' back (the
// server's own role can UPDATE the table) shows, and the events, in the
// signed Merkle tree, are what an outsider checks.

// ReasonUnderReview is the verification's answer for a certificate whose
// row disagrees with its logged events.
var ReasonUnderReview = ledger.NewReason(ledger.Precondition, "CERTIFICATE_UNDER_REVIEW",
	"证书 {number} 正在复核：登记记录与公开事件日志不一致，在复核完成前不能作为有效证书使用。请联系中国围棋协会。",
	"certificate {number} is under review: its record disagrees with the public event log, and it cannot be relied on as valid until the review is done. Contact the Chinese Weiqi Association.")

// LoggedState is a certificate's public state as its events make it. A
// field an older event does not carry is not bound (its Has… is false):
// the rule of the payloads' documented shapes.
type LoggedState struct {
	Entity       string // the log's entity id: the number, the printed number or #id
	Number       string
	Holder       string
	HasHolder    bool
	Rank         registry.Rank
	Basis        Basis
	AthleteGrade AthleteGrade
	HasGrade     bool
	PaperBasis   Basis
	HasPaper     bool
	Issuer       string // the numbering prefix
	HasIssuer    bool
	IssuingBody  string
	HasBody      bool
	IssueDate    string // YYYY-MM-DD
	FromPaper    bool
	Status       CertStatus
	StatusReason string
	// Replaced is whether the certificate replaced another; Replaces is
	// that one's number when the event says (HasReplaces).
	Replaced    bool
	Replaces    string
	HasReplaces bool
	ReplacedBy  string
}

// FoldCertificate folds the events of one certificate (entity "certificate",
// entity id entity), oldest first, into its public state; actions outside
// StateActions are passed over. An error says why the events make no
// certificate: none issued it, two did, something followed its end, or a
// payload does not read.
func FoldCertificate(entity string, events []ledger.Event) (LoggedState, error) {
	st := LoggedState{Entity: entity}
	issued := false
	for _, e := range events {
		if e.EntityType != "certificate" || e.EntityID != entity {
			return st, fmt.Errorf("event %d is of %s %s, not of certificate %s", e.ID, e.EntityType, e.EntityID, entity)
		}
		switch e.Action {
		case "certificate.issued":
			var p CertificateIssuedPayload
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return st, payloadError(e, err)
			}
			if issued {
				return st, fmt.Errorf("event %d issues certificate %s again", e.ID, entity)
			}
			rank, err := registry.ParseRank(p.Rank)
			if err != nil {
				return st, fmt.Errorf("event %d: rank %q: %w", e.ID, p.Rank, err)
			}
			issued = true
			st.Number, st.Rank, st.Basis, st.IssueDate = p.Number, rank, p.Basis, p.IssueDate
			st.AthleteGrade, st.HasGrade = p.AthleteGrade, true
			st.Issuer, st.HasIssuer = p.Issuer, true
			st.Replaced = p.Replaces != 0
			st.Status = CertValid
			if p.Holder != "" {
				st.Holder, st.HasHolder = p.Holder, true
				st.IssuingBody, st.HasBody = p.IssuingBody, true
				st.Replaces, st.HasReplaces = p.ReplacesNumber, st.Replaced
			}
			// a reissue keeps what its original was granted for, paper basis
			// included; older events bind it only where there can be none
			st.PaperBasis, st.HasPaper = p.PaperBasis, st.HasHolder || p.Basis != PaperBasis
		case "certificate.recorded_from_paper":
			var p CertificateRecordedFromPaperPayload
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return st, payloadError(e, err)
			}
			if issued {
				return st, fmt.Errorf("event %d records certificate %s again", e.ID, entity)
			}
			rank, err := registry.ParseRank(p.Rank)
			if err != nil {
				return st, fmt.Errorf("event %d: rank %q: %w", e.ID, p.Rank, err)
			}
			issued = true
			st.Rank, st.Basis, st.IssueDate, st.FromPaper, st.Status = rank, PaperBasis, p.IssueDate, true, CertValid
			st.Number = entity // today's number, or one printed in an older format
			st.AthleteGrade, st.HasGrade = p.AthleteGrade, p.AthleteGrade != NoGrade
			st.PaperBasis, st.HasPaper = p.PaperBasis, p.PaperBasis != ""
			if p.Holder != "" {
				st.Holder, st.HasHolder = p.Holder, true
				st.Issuer, st.HasIssuer = p.Issuer, true
				st.IssuingBody, st.HasBody = p.IssuingBody, true
				st.HasGrade, st.HasPaper = true, true
			}
		case "certificate.revoked":
			var p CertificateRevokedPayload
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return st, payloadError(e, err)
			}
			if err := stillValid(st, issued, e); err != nil {
				return st, err
			}
			st.Status, st.StatusReason = CertRevoked, p.Reason
		case "certificate.reissued":
			var p CertificateReissuedPayload
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return st, payloadError(e, err)
			}
			if err := stillValid(st, issued, e); err != nil {
				return st, err
			}
			st.Status, st.StatusReason, st.ReplacedBy = CertReissued, p.Reason, p.NewNumber
		}
	}
	if !issued {
		return st, fmt.Errorf("no event issued certificate %s", entity)
	}
	return st, nil
}

// payloadError says which event's payload does not read.
func payloadError(e ledger.Event, err error) error {
	return fmt.Errorf("event %d (%s): payload: %w", e.ID, e.Action, err)
}

// stillValid refuses a revocation or reissue of a certificate not (or no longer) valid.
func stillValid(st LoggedState, issued bool, e ledger.Event) error {
	switch {
	case !issued:
		return fmt.Errorf("event %d (%s) comes before the certificate was issued", e.ID, e.Action)
	case st.Status != CertValid:
		return fmt.Errorf("event %d (%s) follows the certificate's end (%s)", e.ID, e.Action, st.Status)
	}
	return nil
}

// Disagreements lists the public fields in which c (a certificate row)
// differs from the logged state, in a fixed order; none when they agree.
func (st LoggedState) Disagreements(c Certificate) []string {
	var out []string
	differ := func(field string, bad bool) {
		if bad {
			out = append(out, field)
		}
	}
	if st.FromPaper {
		differ("number", st.Number != logEntity(c))
	} else {
		differ("number", st.Number != c.Number)
	}
	differ("holder", st.HasHolder && st.Holder != c.PlayerName)
	differ("rank", st.Rank != c.Rank)
	differ("status", st.Status != c.Status)
	differ("status_reason", st.StatusReason != c.StatusReason)
	differ("basis", st.Basis != c.Basis)
	differ("athlete_grade", st.HasGrade && st.AthleteGrade != c.AthleteGrade)
	differ("paper_basis", st.HasPaper && st.PaperBasis != c.PaperBasis)
	differ("from_paper", st.FromPaper != c.FromPaper)
	differ("issuer", st.HasIssuer && st.Issuer != c.IssuingPrefix)
	differ("issuing_body", st.HasBody && st.IssuingBody != c.IssuingBody)
	differ("issue_date", st.IssueDate != c.IssueDate.Format(time.DateOnly))
	differ("replaces", st.Replaced != (c.Replaces != "") || st.HasReplaces && st.Replaces != c.Replaces)
	differ("replaced_by", st.ReplacedBy != c.ReplacedBy)
	return out
}

// logEntity names a certificate in the event log: its number, the number
// printed in an older format, or its row id for an unprinted kyu grade.
func logEntity(c Certificate) string {
	if c.Number == "" && c.PrintedNumber != "" {
		return c.PrintedNumber
	}
	return certEntity(c)
}

// CheckAgainstLog compares a certificate row with its events (those of its
// entity, oldest first): nil when they agree, else the fields that do not
// ("log" when the events make no certificate at all).
func CheckAgainstLog(c Certificate, events []ledger.Event) []string {
	st, err := FoldCertificate(logEntity(c), events)
	if err != nil {
		return []string{"log"}
	}
	return st.Disagreements(c)
}

// logMismatch reports a row that disagrees with its events: a warning in
// the server's log (the number and the fields, no values) and the
// configured hook (a metric staff watch).
func (s *Service) logMismatch(ctx context.Context, entity string, fields []string) {
	s.store.Log().WarnContext(ctx, "certificate disagrees with the event log: answered as under review",
		"certificate", entity, "fields", strings.Join(fields, ","))
	if s.cfg.OnLogMismatch != nil {
		s.cfg.OnLogMismatch(entity, fields)
	}
}

// checkedCertificate is a certificate row with its state events.
type checkedCertificate struct {
	Certificate
	events []ledger.Event
	// holderBirth is the holder's birth date when the statement read it
	// (readCheckedTree); nil: checked reads the player.
	holderBirth *time.Time
}

// readChecked reads certificate rows (certificateSelect and then where,
// with args) and their state events: two queries, whatever the number of rows.
func readChecked(ctx context.Context, q ledger.Querier, where string, args ...any) ([]checkedCertificate, error) {
	rows, err := q.Query(ctx, certificateSelect+` `+where, args...)
	if err != nil {
		return nil, err
	}
	cs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Certificate, error) { return scanCertificate(r) })
	if err != nil {
		return nil, err
	}
	out := make([]checkedCertificate, len(cs))
	ids := make([]string, len(cs))
	at := make(map[string]int, len(cs))
	for i, c := range cs {
		out[i].Certificate, ids[i] = c, logEntity(c)
		at[ids[i]] = i
	}
	events, err := ledger.EventsOfEntities(ctx, q, "certificate", ids, StateActions())
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if i, ok := at[e.EntityID]; ok {
			out[i].events = append(out[i].events, e)
		}
	}
	return out, nil
}

// treeWhere is which certificate readCheckedTree reads: by number or by
// the number printed in an older format ($1).
type treeWhere int

const (
	byNumber treeWhere = iota
	byPrinted
)

// checkedTreeSQL is readCheckedTree's statement of each treeWhere, made
// once (not per verification). Each is run on every public verification
// and its executor state built anew each time, so it has what it needs and
// no more: the row's own columns (the links' numbers and its log entity
// kept on it, migration 00112, not joined or computed), NULLs scanned as
// such (no coalesce), and no ORDER BY: number and printed_number are
// unique, so every row is of one certificate, and its events are put
// oldest first in Go (TreeRead.Events sorts them by id).
var checkedTreeSQL = func() [2]string {
	sql := func(where string) string {
		return `SELECT c.id, c.number, c.kind, c.issuing_prefix, c.issuing_body, c.player_id, c.holder_name, c.rank, c.basis,
	c.application_id, c.issued_at, c.issue_date, c.athlete_grade, c.status, c.status_reason, c.replaces_number,
	c.replaced_by_number, c.from_paper, c.printed_number, c.paper_basis, ` + registry.HolderBirthSQL("c.player_id") + `, ` +
			ledger.EventColumnsSQL() + ` FROM certificates c` + ledger.EventsOfActionsJoinSQL("certificate", "c.log_entity", StateActions()) +
			` ` + where
	}
	return [2]string{byNumber: sql(`WHERE c.number = $1`), byPrinted: sql(`WHERE c.printed_number = $1`)}
}()

// readCheckedTree is readChecked in one statement: the certificate row
// with its holder's birth date and its state events (a row each,
// ledger.EventColumnsSQL), kept for their receipts. where reads one
// certificate at most (a unique column).
func readCheckedTree(ctx context.Context, q ledger.Querier, where treeWhere, arg any) ([]checkedCertificate, []*ledger.TreeRead, error) {
	rows, err := q.Query(ctx, checkedTreeSQL[where], arg)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []checkedCertificate
	var trees []*ledger.TreeRead
	dest := make([]any, 0, 32)
	for rows.Next() {
		var c Certificate
		var number, printed pgtype.Text
		var application pgtype.Int8
		var birth *time.Time
		tr := ledger.NewTreeRead("certificate")
		dest = tr.AppendTargets(append(dest[:0], &c.ID, &number, &c.Kind, &c.IssuingPrefix, &c.IssuingBody, &c.PlayerID, &c.PlayerName, &c.Rank, &c.Basis,
			&application, &c.IssuedAt, &c.IssueDate, &c.AthleteGrade, &c.Status, &c.StatusReason, &c.Replaces, &c.ReplacedBy, &c.FromPaper,
			&printed, &c.PaperBasis, &birth))
		if err := rows.Scan(dest...); err != nil {
			return nil, nil, err
		}
		c.Number, c.PrintedNumber, c.ApplicationID = number.String, printed.String, application.Int64 // NULL: "", 0
		tr.Next()
		if k := len(out) - 1; k >= 0 && out[k].ID == c.ID {
			trees[k].Take(tr) // another event of the same certificate
			continue
		}
		out = append(out, checkedCertificate{Certificate: c, holderBirth: birth})
		trees = append(trees, tr)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	for k := range out {
		out[k].events = trees[k].Events()
	}
	return out, trees, nil
}

// MaxLogMismatches bounds the list CheckCertificatesAgainstLog returns.
const MaxLogMismatches = 100

// checkPage is how many certificates one query of the whole check reads.
const checkPage = 1000

// CheckCertificatesAgainstLog compares every certificate row with its
// logged events, a page of rows (and their events) per query, and returns
// the certificates that disagree, each as "entity: field,field" (at most
// MaxLogMismatches, then one line counting the rest). It reports nothing
// itself: the caller (the server's periodic self-check) logs and acts.
func (s *Service) CheckCertificatesAgainstLog(ctx context.Context) (mismatches []string, err error) {
	var after int64
	more := 0
	for {
		page, err := readChecked(ctx, s.db, `WHERE c.id > $1 ORDER BY c.id LIMIT `+strconv.Itoa(checkPage), after)
		if err != nil {
			return mismatches, fmt.Errorf("check certificates against the log: %w", err)
		}
		for _, c := range page {
			if fields := CheckAgainstLog(c.Certificate, c.events); len(fields) > 0 {
				if len(mismatches) < MaxLogMismatches {
					mismatches = append(mismatches, logEntity(c.Certificate)+": "+strings.Join(fields, ","))
				} else {
					more++
				}
			}
			after = c.ID
		}
		if len(page) < checkPage {
			break
		}
	}
	if more > 0 {
		mismatches = append(mismatches, fmt.Sprintf("… and %d more", more))
	}
	return mismatches, nil
}
